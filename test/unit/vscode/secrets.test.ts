// The SecretStorage port reads each key from the workbench once, then from memory, and forgets a value
// when it is written or deleted here or changed in another window (SecretStorage.onDidChange).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { secretsPort } from '../../../extension/vscode/secrets';

function fakeStorage() {
  const values = new Map<string, string>();
  const listeners: Array<(e: { key: string }) => void> = [];
  let reads = 0;
  return {
    values,
    reads: () => reads,
    /** Another window changes a key: the value changes and the event fires. */
    changeElsewhere(key: string, value: string) {
      values.set(key, value);
      for (const l of listeners) l({ key });
    },
    storage: {
      get: async (key: string) => {
        reads++;
        return values.get(key);
      },
      store: async (key: string, value: string) => {
        values.set(key, value);
        for (const l of listeners) l({ key });
      },
      delete: async (key: string) => {
        values.delete(key);
        for (const l of listeners) l({ key });
      },
      onDidChange: (l: (e: { key: string }) => void) => {
        listeners.push(l);
        return { dispose: () => listeners.splice(listeners.indexOf(l), 1) };
      },
    },
  };
}

test('a key is read from the workbench once, then from memory; absent keys too', async () => {
  const f = fakeStorage();
  f.values.set('sextant.apiKey.openai', 'sk-one');
  const port = secretsPort(f.storage as never);
  assert.equal(await port.get('sextant.apiKey.openai'), 'sk-one');
  assert.equal(await port.get('sextant.apiKey.openai'), 'sk-one');
  assert.equal(await port.get('sextant.apiKey.none'), undefined);
  assert.equal(await port.get('sextant.apiKey.none'), undefined);
  assert.equal(f.reads(), 2);
});

test('set, delete and a change in another window are seen by the next read', async () => {
  const f = fakeStorage();
  const port = secretsPort(f.storage as never);
  assert.equal(await port.get('k'), undefined);
  await port.set('k', 'sk-two');
  assert.equal(await port.get('k'), 'sk-two');
  f.changeElsewhere('k', 'sk-three');
  assert.equal(await port.get('k'), 'sk-three');
  await port.delete('k');
  assert.equal(await port.get('k'), undefined);
  port.dispose();
  f.changeElsewhere('k', 'sk-four');
  assert.equal(await port.get('k'), undefined, 'after dispose nothing listens (the runtime is gone)');
});

test('a failed read is not remembered', async () => {
  const f = fakeStorage();
  let fail = true;
  const storage = {
    ...f.storage,
    get: async (key: string) => (fail ? Promise.reject(new Error('ipc')) : f.values.get(key)),
  };
  f.values.set('k', 'sk-five');
  const port = secretsPort(storage as never);
  await assert.rejects(port.get('k'), /ipc/);
  fail = false;
  assert.equal(await port.get('k'), 'sk-five');
});
