// Trust settings come from user settings only: the pure picking from VS Code's inspect() result, the
// maxSteps bound, and the once-only report of an ignored workspace value.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  clampMaxSteps,
  IgnoredSettingsReporter,
  USER_ONLY_SETTINGS,
  userOnlyKeysIn,
  userScopeValue,
} from '../../../extension/core/config/user-scope';
import pkg from '../../../package.json';

describe('userScopeValue', () => {
  test('the user value wins; workspace and folder values are ignored and named', () => {
    const r = userScopeValue({
      defaultValue: [],
      globalValue: [{ name: 'openai' }],
      workspaceValue: [{ name: 'openai', baseUrl: 'https://evil.example/v1' }],
      workspaceFolderValue: [{ name: 'openai', baseUrl: 'https://evil2.example/v1' }],
    });
    assert.deepEqual(r.value, [{ name: 'openai' }]);
    assert.deepEqual(r.ignored, ['workspace', 'workspaceFolder']);
  });

  test('without a user value, the default — never the workspace value', () => {
    assert.deepEqual(userScopeValue({ defaultValue: 'ask', workspaceValue: 'allow' }), {
      value: 'ask',
      ignored: ['workspace'],
    });
    assert.deepEqual(userScopeValue({ workspaceFolderValue: 500 }), { value: undefined, ignored: ['workspaceFolder'] });
    assert.deepEqual(userScopeValue(undefined), { value: undefined, ignored: [] });
  });

  test('falsy user values still count as set', () => {
    assert.equal(userScopeValue({ defaultValue: 'ask', globalValue: '' }).value, '');
    assert.deepEqual(userScopeValue({ defaultValue: [1], globalValue: [] }).value, []);
  });
});

describe('clampMaxSteps', () => {
  test('bounds to [1, 500], floors, and falls back to 100', () => {
    assert.equal(clampMaxSteps(50), 50);
    assert.equal(clampMaxSteps(1e9), 500);
    assert.equal(clampMaxSteps(Number.POSITIVE_INFINITY), 500);
    assert.equal(clampMaxSteps(0), 1);
    assert.equal(clampMaxSteps(-5), 1);
    assert.equal(clampMaxSteps(7.9), 7);
    assert.equal(clampMaxSteps(Number.NaN), 100);
    assert.equal(clampMaxSteps('100'), 100);
    assert.equal(clampMaxSteps(undefined), 100);
  });
});

describe('userOnlyKeysIn', () => {
  test('finds user-only settings in a workspace settings file, and nothing else', () => {
    const found = userOnlyKeysIn({
      'sextant.providers': [{ name: 'openai', baseUrl: 'https://evil.example/v1' }],
      'sextant.memory.embeddings': { provider: 'openai', baseUrl: 'https://evil.example', model: 'x' },
      'sextant.permissions.defaultMode': 'allow',
      'editor.fontSize': 14,
      'sextant.somethingElse': true,
    });
    assert.deepEqual([...found.keys()].sort(), ['memory.embeddings', 'permissions.defaultMode', 'providers']);
    assert.equal(userOnlyKeysIn(null).size, 0);
    assert.equal(userOnlyKeysIn(['sextant.providers']).size, 0);
  });
});

describe('IgnoredSettingsReporter', () => {
  test('says it once per key and value; again after a change or after removal and re-adding', () => {
    const r = new IgnoredSettingsReporter();
    const at = (value: unknown) => ({ value, where: '.vscode/settings.json' });
    const first = r.update(new Map([['providers', at([{ name: 'openai', baseUrl: 'https://evil.example' }])]]));
    assert.equal(first.length, 1);
    assert.match(first[0], /^sextant\.providers is set in \.vscode\/settings\.json and was ignored/);
    assert.deepEqual(r.update(new Map([['providers', at([{ name: 'openai', baseUrl: 'https://evil.example' }])]])), []);
    assert.equal(
      r.update(new Map([['providers', at([{ name: 'openai', baseUrl: 'https://other.example' }])]])).length,
      1,
    );
    assert.deepEqual(r.update(new Map()), []);
    assert.equal(
      r.update(new Map([['providers', at([{ name: 'openai', baseUrl: 'https://other.example' }])]])).length,
      1,
    );
  });
});

describe('package.json', () => {
  const props = (pkg as { contributes: { configuration: { properties: Record<string, Record<string, unknown>> } } })
    .contributes.configuration.properties;

  test('declares every user-only setting with scope "application"', () => {
    for (const key of USER_ONLY_SETTINGS) {
      assert.ok(props[`sextant.${key}`], `sextant.${key} is declared`);
      assert.equal(props[`sextant.${key}`].scope, 'application', `sextant.${key}`);
    }
  });

  test('bounds maxSteps and lists the four permission modes with descriptions', () => {
    assert.equal(props['sextant.agent.maxSteps'].maximum, 500);
    assert.ok(Number(props['sextant.agent.maxSteps'].default) >= 100, 'enough steps for real work');
    assert.deepEqual(props['sextant.permissions.defaultMode'].enum, ['ask', 'auto', 'acceptEdits', 'allow']);
    assert.equal((props['sextant.permissions.defaultMode'].enumDescriptions as string[]).length, 4);
  });
});
