// The first request never waits for history: a whole turn runs through the controller while the
// store's database is still opening (held back here by another window's snapshot lock), every event
// is journaled as it happens, and once the database opens the turn is in history.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSessionStoreLazily } from '../../../extension/core/store';
import type { ProviderEvent } from '../../../extension/core/providers/types';
import { ScriptedProvider } from '../../fixtures/scripted-provider';
import { recordingLog, sql, tempDir } from '../store/helpers';
import { createHarness } from './harness';

const done: ProviderEvent = { type: 'done', stopReason: 'end' };

test('a turn runs and is journaled while the history database is still opening', async () => {
  const { dir, cleanup } = tempDir('first-use');
  try {
    // Another (live) window holds the snapshot lock: opening the database waits for it.
    const lock = join(dir, 'sextant.lock');
    writeFileSync(lock, JSON.stringify({ pid: process.pid, owner: 'other-window', at: Date.now() }));
    const store = openSessionStoreLazily({
      dir,
      log: recordingLog(),
      sql: await sql(),
      lock: { timeoutMs: 60_000, staleMs: 60_000 },
    });
    const provider = new ScriptedProvider([[{ type: 'text', text: 'Hello from the model.' }, done]]);
    const h = createHarness({ provider, store });
    await h.controller.send('r1', 'hello', 'chat');

    assert.equal(provider.requests.length, 1, 'the request went out');
    assert.equal(h.envelopes('r1').at(-1)?.event.type, 'complete');
    assert.equal(store.isOpen, false, 'the database is still opening');
    const journal = readdirSync(join(dir, 'journal'))
      .map((f) => readFileSync(join(dir, 'journal', f), 'utf8'))
      .join('');
    assert.match(journal, /Hello from the model\./, 'the answer is in the journal already');

    rmSync(lock);
    assert.equal(await store.ready, true);
    const stored = store.getSession(h.controller.sessionId);
    assert.deepEqual(
      stored?.messages.map((m) => m.role),
      ['user', 'assistant'],
    );
    assert.match(JSON.stringify(stored?.messages), /Hello from the model\./);
    await store.close();
  } finally {
    cleanup();
  }
});
