import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { applyEnvelope, emptyChatState, type Envelope } from '../../../extension/protocol';
import type { JournalRecord } from '../../../extension/core/ports';
import { created, events, exchange, open, RequestBuilder, tempDir } from './helpers';

function replayWithReducer(records: JournalRecord[], sessionId: string) {
  const state = emptyChatState();
  for (const r of records)
    if (r.kind === 'events' && r.sessionId === sessionId) for (const e of r.envelopes) applyEnvelope(state, e);
  return state.messages;
}

test('a session reads back as the reducer builds it, before and after reopen, with or without snapshot', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const records: JournalRecord[] = [
      created('s1', 100, 'First'),
      ...exchange('s1', 'r1', 200, 'How do I read a file?', 'Use read_file with a path.'),
    ];
    records.push({
      kind: 'todos',
      sessionId: 's1',
      at: 300,
      todos: [{ id: 't1', content: 'Read it', status: 'completed' }],
    });
    let store = await open(dir);
    for (const r of records) store.append(r);
    // JSON round trip: the reducer leaves `liveOutput: undefined` keys that a store cannot keep.
    const expected = JSON.parse(JSON.stringify(replayWithReducer(records, 's1'))) as ReturnType<
      typeof replayWithReducer
    >;
    const live = store.getSession('s1');
    assert.ok(live);
    assert.deepEqual(live.messages, expected);
    assert.equal(live.messages[1].parts.find((p) => p.type === 'tool')?.type, 'tool');
    assert.deepEqual(live.todos, [{ id: 't1', content: 'Read it', status: 'completed' }]);
    assert.equal(live.modelMessages.length, 2);
    // Simulate a crash: no close, no snapshot — only the journal is on disk.
    assert.equal(readdirSync(dir).includes('sextant.db'), false);
    store = await open(dir);
    assert.deepEqual(store.getSession('s1')?.messages, expected, 'journal replay');
    await store.close();
    assert.ok(statSync(join(dir, 'sextant.db')).size > 0);
    store = await open(dir);
    const back = store.getSession('s1');
    assert.deepEqual(back?.messages, expected, 'from the snapshot');
    assert.deepEqual(back?.modelMessages, [
      { role: 'user', content: 'How do I read a file?' },
      { role: 'assistant', text: 'Use read_file with a path.' },
    ]);
    assert.equal(back?.title, 'First');
    assert.equal(back?.mode, 'agent');
    await store.close();
  } finally {
    cleanup();
  }
});

test('an in-flight request survives a snapshot and a reopen, and later events still apply', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const r = new RequestBuilder('rq', 10);
    let store = await open(dir);
    store.append(created('s', 1));
    store.append(
      events('s', 2, [
        r.env({
          type: 'started',
          userMessageId: 'u',
          assistantMessageId: 'a',
          text: 'hi there',
          mode: 'chat',
          model: 'm',
        }),
      ]),
    );
    store.append(events('s', 3, [r.env({ type: 'text_delta', text: 'Hel' })]));
    await store.flush();
    store.append(events('s', 4, [r.env({ type: 'text_delta', text: 'lo' })]));
    await store.close();
    store = await open(dir);
    store.append(events('s', 5, [r.env({ type: 'text_delta', text: '!' }), r.env({ type: 'complete' })]));
    const s = store.getSession('s');
    assert.deepEqual(s?.messages[1].parts, [{ type: 'text', text: 'Hello!' }]);
    assert.equal(s?.messages[1].status, 'done');
    await store.close();
  } finally {
    cleanup();
  }
});

test('history: newest first, search by title and content, rename sticks, delete and undo', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const store = await open(dir);
    store.append(created('old', 100, 'Postgres tuning'));
    for (const r of exchange('old', 'r1', 110, 'Why is my query slow?', 'Add an index on the foreign key column.'))
      store.append(r);
    store.append(created('new', 200, 'Webpack config'));
    for (const r of exchange('new', 'r2', 210, 'Bundle is too big', 'Enable tree shaking and split chunks.'))
      store.append(r);
    assert.deepEqual(
      store.listSessions().map((s) => s.id),
      ['new', 'old'],
    );
    assert.equal(store.listSessions()[0].messageCount, 2);
    assert.deepEqual(
      store.listSessions({ query: 'postgres' }).map((s) => s.id),
      ['old'],
    );
    const byContent = store.listSessions({ query: 'foreign key index' });
    assert.deepEqual(
      byContent.map((s) => s.id),
      ['old'],
    );
    assert.match(byContent[0].excerpt ?? '', /index/i);
    assert.deepEqual(store.listSessions({ query: 'nothing matches this' }), []);
    store.append({ kind: 'session_meta', sessionId: 'old', title: 'DB performance', titleSource: 'user', at: 300 });
    store.append({ kind: 'session_meta', sessionId: 'old', title: 'Generated title', titleSource: 'auto', at: 400 });
    assert.equal(store.getSession('old')?.title, 'DB performance', 'a generated title never replaces a rename');
    store.append({ kind: 'session_deleted', sessionId: 'old', at: 500 });
    assert.deepEqual(
      store.listSessions().map((s) => s.id),
      ['new'],
    );
    assert.equal(store.getSession('old'), undefined);
    store.append({ kind: 'session_restored', sessionId: 'old', at: 600 });
    assert.deepEqual(
      store
        .listSessions()
        .map((s) => s.id)
        .sort(),
      ['new', 'old'],
    );
    await store.close();
  } finally {
    cleanup();
  }
});

test('a torn last journal line is ignored, not fatal', async () => {
  const { dir, cleanup } = tempDir();
  try {
    let store = await open(dir);
    store.append(created('s', 1, 'Kept'));
    const jdir = join(dir, 'journal');
    const file = join(jdir, readdirSync(jdir)[0]);
    // The process died in the middle of writing the next line.
    appendFileSync(file, '{"s":2,"r":{"kind":"session_created","sessionId":"torn","ti');
    store = await open(dir);
    assert.equal(store.getSession('s')?.title, 'Kept');
    assert.equal(store.getSession('torn'), undefined);
    assert.deepEqual(
      store.listSessions().map((s) => s.id),
      ['s'],
    );
    await store.close();
  } finally {
    cleanup();
  }
});

test('long tool output is kept as a blob file, the database holds a reference, and it reads back whole', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const big = 'x'.repeat(1_000_000);
    const r = new RequestBuilder('r');
    let store = await open(dir);
    store.append(created('s', 1));
    const envs: Envelope[] = [
      r.env({
        type: 'started',
        userMessageId: 'u',
        assistantMessageId: 'a',
        text: 'cat big',
        mode: 'agent',
        model: 'm',
      }),
      r.env({
        type: 'tool_updated',
        call: { callId: 'c', name: 'bash', kind: 'execute', subject: 'cat big', status: 'ok', detail: big },
      }),
      r.env({ type: 'complete' }),
    ];
    store.append(events('s', 2, envs));
    store.append({
      kind: 'model_messages',
      sessionId: 's',
      at: 3,
      messages: [
        { role: 'tool', toolCallId: 'c', toolName: 'bash', isError: false, content: [{ type: 'text', text: big }] },
      ],
    });
    await store.close();
    // An empty database is ~150 KB (tables, indexes, FTS shadow tables); the 2 MB of output is elsewhere.
    assert.ok(statSync(join(dir, 'sextant.db')).size < 400_000, 'snapshot stays small');
    assert.ok(readdirSync(join(dir, 'blobs')).length >= 1);
    store = await open(dir);
    const s = store.getSession('s');
    const tool = s?.messages[1].parts[0];
    assert.equal(tool?.type === 'tool' ? tool.call.detail : undefined, big);
    const mm = s?.modelMessages[0];
    assert.equal(mm?.role === 'tool' && mm.content[0].type === 'text' ? mm.content[0].text : '', big);
    await store.close();
  } finally {
    cleanup();
  }
});

test("a failed tool call's one-line summary survives a snapshot and reopen", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const r = new RequestBuilder('r');
    let store = await open(dir);
    store.append(created('s', 1));
    const summary = 'old_string not found; closest: line 5 (81 %)';
    const envs: Envelope[] = [
      r.env({ type: 'started', userMessageId: 'u', assistantMessageId: 'a', text: 'edit', mode: 'agent', model: 'm' }),
      r.env({
        type: 'tool_updated',
        call: { callId: 'c', name: 'edit_file', kind: 'write', subject: 'm.js', status: 'error', summary },
      }),
      r.env({ type: 'complete' }),
    ];
    store.append(events('s', 2, envs));
    await store.close();
    store = await open(dir);
    const tool = store.getSession('s')?.messages[1].parts[0];
    assert.equal(tool?.type === 'tool' ? tool.call.summary : undefined, summary);
    assert.match(store.exportSession('s', 'markdown') ?? '', /— error: old_string not found; closest: line 5/);
    await store.close();
  } finally {
    cleanup();
  }
});

test('planted secrets never reach the journal or the database', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const secret = 'my-exact-provider-key-123456';
    const store = await open(dir, { secrets: () => [secret] });
    store.append(created('s', 1));
    for (const r of exchange('s', 'r', 2, `my key is ${secret} and sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAA`, 'noted'))
      store.append(r);
    const jdir = join(dir, 'journal');
    const journal = readdirSync(jdir)
      .map((f) => readFileSync(join(jdir, f), 'utf8'))
      .join('');
    assert.ok(journal.includes('[REDACTED]'));
    assert.ok(!journal.includes(secret) && !journal.includes('sk-ant-api03'));
    await store.close();
    const db = readFileSync(join(dir, 'sextant.db')).toString('latin1');
    assert.ok(!db.includes(secret) && !db.includes('sk-ant-api03'));
  } finally {
    cleanup();
  }
});

test('memory search works after a snapshot (export() drops custom functions; they are registered again)', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const store = await open(dir);
    store.append(created('s', 1, 'Kubernetes'));
    for (const r of exchange(
      's',
      'r',
      2,
      'How do I drain a kubernetes node?',
      'Run kubectl drain with ignore-daemonsets.',
    ))
      store.append(r);
    assert.equal((await store.searchMemory('kubectl drain'))[0]?.sessionId, 's');
    await store.flush();
    const hits = await store.searchMemory('kubectl drain');
    assert.equal(hits[0]?.sessionId, 's');
    assert.ok(hits[0].score > 0);
    await store.close();
  } finally {
    cleanup();
  }
});
