// The settings cache keeps what it read only while someone watches for changes, drops everything on
// a change, and the readers built on it (readSettings) see a changed setting on their next read.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CachedSettingsSource } from '../../../extension/engine/cached-settings';
import { readSettings, type SettingsSource } from '../../../extension/engine/settings';

/** A settings source over a plain object that counts its reads. */
function countingSource(values: Record<string, unknown>): SettingsSource & { reads: number } {
  const source = {
    reads: 0,
    user(key: string) {
      source.reads++;
      return values[key];
    },
    any(key: string) {
      source.reads++;
      return values[key];
    },
  };
  return source;
}

describe('CachedSettingsSource', () => {
  test('while watched, a key is read from the source once', () => {
    const source = countingSource({ defaultModel: 'openai/gpt-4o' });
    const cached = new CachedSettingsSource(source);
    cached.watch();
    assert.equal(cached.user('defaultModel'), 'openai/gpt-4o');
    assert.equal(cached.user('defaultModel'), 'openai/gpt-4o');
    assert.equal(cached.user('unset'), undefined);
    assert.equal(cached.user('unset'), undefined);
    assert.equal(source.reads, 2);
  });

  test('a change invalidates: the next read sees the new value', () => {
    const values: Record<string, unknown> = { defaultModel: 'openai/gpt-4o', 'agent.maxSteps': 20 };
    const cached = new CachedSettingsSource(countingSource(values));
    cached.watch();
    assert.equal(readSettings(cached).defaultModel, 'openai/gpt-4o');
    assert.equal(readSettings(cached).maxSteps, 20);
    values.defaultModel = 'anthropic/claude-sonnet-4-5';
    values['agent.maxSteps'] = 40;
    // Not told yet: the kept values stand (the host invalidates on VS Code's change event).
    assert.equal(readSettings(cached).defaultModel, 'openai/gpt-4o');
    cached.invalidate();
    assert.equal(readSettings(cached).defaultModel, 'anthropic/claude-sonnet-4-5');
    assert.equal(readSettings(cached).maxSteps, 40);
  });

  test('user and any scopes are kept apart', () => {
    const source: SettingsSource = { user: () => 'user value', any: () => 'workspace value' };
    const cached = new CachedSettingsSource(source);
    cached.watch();
    assert.equal(cached.any('research.searchProviders'), 'workspace value');
    assert.equal(cached.user('research.searchProviders'), 'user value');
  });

  test('unwatched, every read goes to the source (nothing kept without someone to say it is stale)', () => {
    const values: Record<string, unknown> = { plannerModel: 'a/one' };
    const source = countingSource(values);
    const cached = new CachedSettingsSource(source);
    assert.equal(cached.watching, false);
    cached.user('plannerModel');
    cached.user('plannerModel');
    assert.equal(source.reads, 2);
    const unwatch = cached.watch();
    cached.user('plannerModel');
    values.plannerModel = 'b/two';
    unwatch();
    assert.equal(cached.watching, false);
    assert.equal(cached.user('plannerModel'), 'b/two');
  });
});
