// A request goes on the wire before its start is recorded (the session's first record, the `started`
// event with the user's message, the turn's checkpoint: request-start.ts), and that record is written —
// durably, in the same order as ever — before any of the answer is read. What a restarted window
// replays (the journal on disk) holds the user's message as soon as the model can have answered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSessionStoreLazily } from '../../../extension/core/store';
import type { Provider, ProviderEvent } from '../../../extension/core/providers/types';
import { ScriptedProvider } from '../../fixtures/scripted-provider';
import { recordingLog, sql, tempDir } from '../store/helpers';
import { assertEnvelopeInvariants, createHarness } from './harness';

const done: ProviderEvent = { type: 'done', stopReason: 'end' };

/** The journal's records as a reopened store replays them, in their order. */
function journalRecords(dir: string): Array<{ kind: string; envelopes?: Array<{ event: { type: string } }> }> {
  const jdir = join(dir, 'journal');
  if (!existsSync(jdir)) return [];
  const lines = readdirSync(jdir)
    .flatMap((f) => readFileSync(join(jdir, f), 'utf8').split('\n'))
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { s: number; r: { kind: string } });
  return lines.sort((a, b) => a.s - b.s).map((l) => l.r);
}

const kinds = (records: ReturnType<typeof journalRecords>) =>
  records.map((r) => (r.kind === 'events' ? `events:${r.envelopes?.map((e) => e.event.type).join(',')}` : r.kind));

test("the request goes out first; the user's message is in the journal on disk before any answer is read", async () => {
  const { dir, cleanup } = tempDir('request-start');
  try {
    const store = openSessionStoreLazily({ dir, log: recordingLog(), sql: await sql() });
    let atDispatch: string[] | undefined;
    let atAnswer: string[] | undefined;
    const provider: Provider = {
      name: 'scripted',
      kind: 'openai',
      async *stream() {
        atDispatch = kinds(journalRecords(dir));
        // The network's turn: no answer can be read before the event loop has gone round once.
        await new Promise((r) => setImmediate(r));
        atAnswer = kinds(journalRecords(dir));
        yield { type: 'text', text: 'Hello from the model.' };
        yield done;
      },
    };
    const h = createHarness({ provider, store });
    await h.controller.send('r1', 'hello there', 'chat');

    assert.deepEqual(atDispatch, [], 'nothing is written before the request is on its way');
    // The run's start (run_state) comes with the session: a window that dies now leaves it interrupted.
    assert.deepEqual(atAnswer, ['session_created', 'run_state', 'events:started', 'turn_checkpoint']);
    const records = journalRecords(dir);
    assert.match(JSON.stringify(records[2]), /hello there/, "the started record carries the user's message");
    // The order of every record is the one it always was: the start, then the request's own records.
    const all = kinds(records);
    assert.deepEqual(all.slice(0, 4), ['session_created', 'run_state', 'events:started', 'turn_checkpoint']);
    assert.ok(all.indexOf('model_messages') > 3, 'the model history after the start');
    assert.match(all.filter((k) => k.startsWith('events:')).at(-1) ?? '', /complete$/);
    assert.equal(all.at(-1), 'run_state', 'the run is marked ended after its terminal event');
    assertEnvelopeInvariants(h.envelopes());
    assert.deepEqual(h.postedBeforeJournal, []);

    assert.equal(await store.ready, true);
    assert.deepEqual(
      store.getSession(h.controller.sessionId)?.messages.map((m) => m.role),
      ['user', 'assistant'],
    );
    await store.close();
  } finally {
    cleanup();
  }
});

test("a request that fails before any answer still records the user's message, then the error", async () => {
  const provider = new ScriptedProvider([new Error('connection refused')]);
  const h = createHarness({ provider });
  await h.controller.send('r1', 'are you there?', 'chat');
  const records = h.persistence.records.map((r) =>
    r.kind === 'events' ? `events:${r.envelopes.map((e) => e.event.type).join(',')}` : r.kind,
  );
  assert.deepEqual(records, [
    'session_created',
    'run_state',
    'events:started',
    'turn_checkpoint',
    'events:error',
    'run_state',
  ]);
  assert.match(JSON.stringify(h.persistence.records[2]), /are you there\?/);
  assertEnvelopeInvariants(h.envelopes());
  assert.deepEqual(
    h.envelopes('r1').map((e) => e.event.type),
    ['started', 'error'],
  );
});

test('a second request in the chat: its start is recorded after the first ended and before its answer', async () => {
  const provider = new ScriptedProvider([
    [{ type: 'text', text: 'One.' }, done],
    [{ type: 'text', text: 'Two.' }, done],
  ]);
  const h = createHarness({ provider });
  await h.controller.send('r1', 'first', 'chat');
  await h.controller.send('r2', 'second', 'chat');
  const order = h.persistence.records.flatMap((r) => {
    if (r.kind === 'turn_checkpoint') return r.checkpoint.requestId === 'r2' ? ['checkpoint'] : [];
    if (r.kind === 'events') return r.envelopes.filter((e) => e.requestId === 'r2').map((e) => e.event.type);
    return [];
  });
  assert.deepEqual(order.slice(0, 2), ['started', 'checkpoint']);
  assert.equal(order.at(-1), 'complete');
  assertEnvelopeInvariants(h.envelopes());
  assert.deepEqual(h.postedBeforeJournal, []);
});

test('with a host that says when the call is written: the start is recorded then, and before any answer', async () => {
  const { dir, cleanup } = tempDir('request-start-written');
  try {
    const store = openSessionStoreLazily({ dir, log: recordingLog(), sql: await sql() });
    let written: (() => void) | undefined;
    let afterTurn: string[] | undefined;
    let atWritten: string[] | undefined;
    let release!: () => void;
    const answer = new Promise<void>((r) => (release = r));
    const provider: Provider = {
      name: 'scripted',
      kind: 'openai',
      async *stream() {
        // A connection being opened: turns of the event loop pass, and the call is not written yet.
        for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
        afterTurn = kinds(journalRecords(dir));
        written?.();
        atWritten = kinds(journalRecords(dir));
        await answer;
        yield { type: 'text', text: 'Hello.' };
        yield done;
      },
    };
    const h = createHarness({ provider, store, afterModelCallSent: (w) => (written = w) });
    const sent = h.controller.send('r1', 'hello there', 'chat');
    await new Promise((r) => setImmediate(r));
    release();
    await sent;
    assert.deepEqual(afterTurn, [], 'not recorded while the call is not yet written');
    assert.deepEqual(atWritten, ['session_created', 'run_state', 'events:started', 'turn_checkpoint']);
    await store.close();
  } finally {
    cleanup();
  }
});

test('a host that never says the call is written: the start still comes before the answer', async () => {
  const provider: Provider = {
    name: 'scripted',
    kind: 'openai',
    async *stream() {
      yield { type: 'text', text: 'Hello.' };
      yield done;
    },
  };
  const h = createHarness({ provider, afterModelCallSent: () => {} });
  await h.controller.send('r1', 'hello there', 'chat');
  const types = h.envelopes().map((e) => e.event.type);
  assert.equal(types[0], 'started');
  assert.ok(types.indexOf('text_delta') > 0 || types.includes('complete'));
  assertEnvelopeInvariants(h.envelopes());
});
