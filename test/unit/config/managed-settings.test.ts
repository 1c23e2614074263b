// Managed settings through the real readers both hosts use (engine/settings.ts), the real provider host
// (engine/providers.ts) and the real sandbox judgement (core/sandbox/command-gate.ts): an administrator's
// file that denies a provider and requires the box, which the user's own settings cannot undo.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  MANAGED_FILE_TEST_ENV,
  machineManagedFile,
  ManagedSettingsFiles,
} from '../../../extension/core/config/managed-file';
import { boxJudgement } from '../../../extension/core/sandbox/command-gate';
import type { Decision } from '../../../extension/core/permissions/types';
import { ProvidersHost } from '../../../extension/engine/providers';
import {
  managedSettingNotes,
  readPermissionSettings,
  readSandboxSettings,
  type SettingsSource,
} from '../../../extension/engine/settings';

const dir = mkdtempSync(path.join(tmpdir(), 'sextant managed '));
const managedFile = (name: string, text: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
};

/** The user's settings as the hosts hand them over, with the managed files above them. */
function source(user: Record<string, unknown>, files: string[]): SettingsSource {
  const managed = new ManagedSettingsFiles(files);
  return { user: (k) => user[k], any: (k) => user[k], managed: managed.current };
}

const providersOver = (s: SettingsSource) =>
  new ProvidersHost({
    secrets: { get: async () => 'key', set: async () => undefined, delete: async () => undefined },
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    providersSetting: () => s.user('providers'),
    env: {},
    confirmKeyDestination: async () => 'no' as const,
    bundleDir: dir,
    managed: () => s.managed?.() ?? {},
  });

const POLICY = `{
  // the administrator's pins
  "sandbox": { "require": true },
  "providers": { "deny": ["openrouter"] },
  "models": { "deny": ["openai/gpt-4.1"] },
  "permissions": { "deny": ["bash(curl *)"], "disableAutoMode": true }
}`;

/** What the user tries, in their own settings, to undo each pin. */
const USER_UNDO = {
  'sandbox.mode': 'off',
  'permissions.defaultMode': 'auto',
  'permissions.allow': ['bash(curl *)'],
  defaultModel: 'openrouter/openai/gpt-5',
  // The same API under another name does not get round a denied provider.
  providers: [{ name: 'my-router', kind: 'openai', baseUrl: 'https://openrouter.ai/api/v1', models: ['x'] }],
};

const allowed: Decision = { decision: 'allow', source: 'rule', reason: 'your rule' };
const bash = (input: Record<string, unknown>) => ({ tool: 'bash', input: { command: 'make', ...input } });

test('a managed file that denies a provider and requires the box: the user’s settings undo neither', async () => {
  const s = source(USER_UNDO, [managedFile('policy.json', POLICY)]);
  // The box: "off" is not used, and it is required.
  const sandbox = readSandboxSettings(s);
  assert.equal(sandbox.mode, 'box');
  assert.equal(sandbox.required, true);
  assert.match(sandbox.problems.join('\n'), /administrator requires the sandbox/);
  // Nothing runs outside it: not on the model's request (even under the user's own allow rule) …
  const working = { mode: 'box' as const, active: true, backend: 'bubblewrap' as const, required: true };
  const outside = boxJudgement(allowed, bash({ outside_box: 'needs the host' }), working);
  assert.equal(outside.decision, 'deny');
  assert.match(outside.reason, /administrator requires the sandbox/);
  // … nor where no box works (the user's rule would have run it unboxed).
  const none = boxJudgement(allowed, bash({}), { mode: 'box', active: false, reason: 'bwrap missing', required: true });
  assert.equal(none.decision, 'deny');
  // Without the pin, the same calls ask / run as before (the gate is unchanged for everyone else).
  assert.equal(boxJudgement(allowed, bash({ outside_box: 'x' }), { ...working, required: false }).decision, 'ask');

  // Rules and mode: the administrator's deny comes on top; "auto" is read as "ask".
  const perms = readPermissionSettings(s);
  assert.ok(perms.deny.includes('bash(curl *)'));
  assert.equal(perms.defaultMode, 'ask');

  // Providers: the denied one is refused by name and by its host under another name; others run.
  const providers = providersOver(s);
  await assert.rejects(providers.resolve('openrouter/openai/gpt-5'), /administrator denies the provider "openrouter"/);
  await assert.rejects(providers.resolve('my-router/x'), /administrator denies the provider openrouter\.ai/);
  await assert.rejects(providers.resolve('openai/gpt-4.1'), /administrator denies "openai\/gpt-4\.1"/);
  assert.equal(providers.managedRefusal('openai/gpt-5'), undefined);
  const choices = (await providers.modelChoices()).map((c) => c.ref);
  assert.ok(!choices.some((r) => r.startsWith('openrouter/') || r.startsWith('my-router/') || r === 'openai/gpt-4.1'));
  assert.ok(choices.includes('openai/gpt-5'));

  // The view names what is managed, and from where.
  const notes = managedSettingNotes(s).join('\n');
  assert.match(notes, /policy\.json/);
  assert.match(notes, /sextant\.sandbox\.mode is managed[^\n]*your "off" is not used/);
  assert.match(notes, /auto mode is not allowed[^\n]*your "auto" is read as "ask"/);
});

test('no managed file: nothing changes', async () => {
  const s = source(USER_UNDO, [path.join(dir, 'missing.json')]);
  assert.equal(readSandboxSettings(s).mode, 'off');
  assert.equal(readPermissionSettings(s).defaultMode, 'auto');
  assert.equal(providersOver(s).managedRefusal('openrouter/openai/gpt-5'), undefined);
  assert.deepEqual(managedSettingNotes(s), []);
});

test('a malformed managed file fails closed: no model runs, the box is required, auto mode refused', async () => {
  for (const [name, text, why] of [
    ['broken.json', '{ "sandbox": { "require": true ', /not valid JSON \(line 1/],
    ['typo.json', '{ "sandbox": { "requre": true } }', /at "sandbox".*requre/],
    ['wrong.json', '{ "providers": { "deny": "openrouter" } }', /at "providers\.deny"/],
  ] as const) {
    const s = source({ 'sandbox.mode': 'off', 'permissions.defaultMode': 'auto' }, [managedFile(name, text)]);
    const providers = providersOver(s);
    await assert.rejects(providers.resolve('openai/gpt-5'), (e: Error) => {
      assert.match(e.message, /Sextant will not run any model/);
      assert.match(e.message, why);
      assert.ok(e.message.includes(name), 'names the file');
      return true;
    });
    assert.equal(readSandboxSettings(s).required, true);
    assert.equal(readSandboxSettings(s).mode, 'box');
    assert.equal(readPermissionSettings(s).defaultMode, 'ask');
  }
});

test('the test-only extra file adds to the machine file and never replaces it; the platform paths', () => {
  const extra = managedFile('extra.json', '{ "permissions": { "ask": ["bash(git push*)"] } }');
  const both = new ManagedSettingsFiles([managedFile('machine.json', POLICY), extra]).current();
  assert.equal(both.policy?.requireSandbox, true, 'the machine file still holds');
  assert.deepEqual(both.policy?.ask, ['bash(git push*)']);
  const fromEnv = ManagedSettingsFiles.forThisMachine({ [MANAGED_FILE_TEST_ENV]: extra });
  assert.deepEqual(fromEnv.current().policy?.files, [extra]);
  assert.equal(machineManagedFile('linux'), '/etc/sextant/managed-settings.json');
  assert.equal(machineManagedFile('darwin'), '/Library/Application Support/Sextant/managed-settings.json');
  assert.equal(machineManagedFile('win32', { ProgramData: 'D:\\PD' }), 'D:\\PD\\Sextant\\managed-settings.json');
});
