// Usage entries (schema v10) through the real store: an answer's spending recorded by source as it streams,
// kept when the session goes cold or a rewind drops the answer, removed by a purge; the v9 fixture's
// usage carried over as "chat"; sessions already cold at the migration carried over from their files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatMessage } from '../../../extension/protocol';
import type { UsageRow } from '../../../extension/core/store/usage-query';
import { ColdFiles } from '../../../extension/core/store/cold-files';
import { migrate } from '../../../extension/core/store/schema';
import { backfillColdUsage } from '../../../extension/core/store/usage-entries';
import { usageRows } from '../../../extension/core/store/usage-query';
import { created, events, open, recordingLog, RequestBuilder, ROOT, sql, tempDir } from './helpers';

const ALL = { offsetMinutes: 0 };
const pick = (rows: UsageRow[]) =>
  rows
    .map(
      (r) =>
        `${r.sessionId} ${r.key.source}${r.key.label ? `:${r.key.label}` : ''} ${r.key.model} ` +
        `${r.inputTokens}/${r.outputTokens} $${r.costUsd}`,
    )
    .sort();

function agentAnswer(sessionId: string, requestId: string, at: number) {
  const r = new RequestBuilder(requestId, at);
  const subagent = {
    name: 'explorer',
    description: 'look around',
    prompt: 'find the parser',
    status: 'done' as const,
    steps: [],
    modelCalls: 2,
    model: 'cheap/mini',
    usage: { inputTokens: 300, outputTokens: 30, cachedTokens: 0, costUsd: 0.003 },
  };
  const call = {
    callId: `${requestId}-t`,
    name: 'task',
    kind: 'read' as const,
    subject: 'explorer',
    status: 'ok' as const,
  };
  return events(sessionId, at, [
    r.env({
      type: 'started',
      userMessageId: `${requestId}-u`,
      assistantMessageId: `${requestId}-a`,
      text: 'find it',
      mode: 'agent',
      model: 'big/model',
    }),
    r.env({ type: 'tool_started', call: { ...call, status: 'running' } }),
    r.env({ type: 'tool_updated', call: { ...call, subagent } }),
    r.env({
      type: 'usage',
      usage: {
        inputTokens: 1300,
        outputTokens: 130,
        cachedTokens: 0,
        costUsd: 0.0231,
        review: { calls: 1, inputTokens: 200, outputTokens: 20, costUsd: 0.0001 },
      },
    }),
    r.env({ type: 'complete' }),
  ]);
}

test('an answer is recorded by source as it streams: the chat, its sub-agent, the reviewer', async () => {
  const { dir, cleanup } = tempDir('usage');
  try {
    const store = await open(dir);
    store.append(created('s1', 1_000));
    store.append(agentAnswer('s1', 'r1', 2_000));
    assert.deepEqual(pick(store.usageRows(ALL)), [
      's1 chat big/model 800/80 $0.02',
      's1 reviewer big/model 200/20 $0.0001',
      's1 subagent:explorer cheap/mini 300/30 $0.003',
    ]);
    // Survives a reopen (the entries are in the snapshot / journal replay like any row).
    await store.close();
    const again = await open(dir);
    assert.equal(again.usageRows(ALL).length, 3);
    await again.close();
  } finally {
    cleanup();
  }
});

test('entries stay when the session goes cold and when a rewind drops the answer; a purge removes them', async () => {
  const { dir, cleanup } = tempDir('usage-cold');
  let now = 10_000;
  try {
    const store = await open(dir, { now: () => now, hot: { hotDays: 1, recentMs: 0 } });
    store.append(created('s1', now));
    store.append(agentAnswer('s1', 'r1', now));
    now += 3 * 86_400_000;
    assert.equal(await store.compact(), 1, 'the session went cold');
    assert.equal(store.usageRows(ALL).length, 3, 'usage kept while the body is cold');
    // A rewind to before the answer: the conversation no longer holds it, the money was spent all the same.
    store.append({
      kind: 'conversation_replaced',
      sessionId: 's1',
      at: now,
      messages: [],
      modelMessages: [],
      checkpoints: [],
    });
    assert.equal(store.usageRows(ALL).length, 3, 'usage kept after the rewind');
    store.append({ kind: 'session_deleted', sessionId: 's1', at: now });
    await store.reclaim({ allDeleted: true });
    assert.deepEqual(store.usageRows(ALL), [], 'purged with the session');
    await store.close();
  } finally {
    cleanup();
  }
});

test('schema v9 → v10: stored answers carry over as "chat" entries', async () => {
  const { dir, cleanup } = tempDir('usage-mig');
  try {
    copyFileSync(join(ROOT, 'test/fixtures/store/schema-v9.db'), join(dir, 'sextant.db'));
    const store = await open(dir, { log: recordingLog() });
    assert.deepEqual(pick(store.usageRows(ALL)), ['v1-a chat minimax/MiniMax-M2.1 12/40 $0']);
    const [row] = store.usageRows(ALL);
    assert.equal(row.unpriced, 1, 'no cost was recorded: the entry is unpriced, not free');
    await store.close();
  } finally {
    cleanup();
  }
});

test('sessions already cold at the migration are carried over from their files, a batch per call', async () => {
  const { dir, cleanup } = tempDir('usage-backfill');
  try {
    const db = new (await sql()).Database();
    const cold = new ColdFiles(dir);
    const answer = (id: string): ChatMessage => ({
      id,
      role: 'assistant',
      mode: 'chat',
      parts: [],
      status: 'done',
      model: 'm/x',
      createdAt: 5_000,
      usage: { inputTokens: 7, outputTokens: 3, cachedTokens: 0, costUsd: 0.5 },
    });
    // Schema v9 with 250 cold sessions, then v10 (the migration can only mark them pending) and later ones.
    migrate(db, 'test.db');
    db.exec(
      'PRAGMA user_version = 9; DROP TABLE usage_entries; DROP TABLE usage_keys; DELETE FROM meta; ' +
        'DROP TABLE research_sources; ALTER TABLE artifacts DROP COLUMN question',
    );
    for (let i = 0; i < 250; i++) {
      const id = `c${String(i).padStart(3, '0')}`;
      const { name } = cold.write({ sessionId: id, messages: [answer(`${id}-a`)], modelMessages: [] });
      db.run(
        'INSERT INTO sessions (id, title, mode, model, created_at, updated_at, cold_file) ' +
          "VALUES (?, '', 'chat', '', 1, 1, ?)",
        [id, name],
      );
    }
    migrate(db, 'test.db');
    assert.equal(usageRows(db, ALL).length, 0);
    const log = recordingLog();
    assert.equal(backfillColdUsage(db, cold, log), true, 'more to do after the first batch');
    assert.equal(usageRows(db, ALL).length, 200);
    assert.equal(backfillColdUsage(db, cold, log), false, 'done');
    const rows = usageRows(db, ALL);
    assert.equal(rows.length, 250);
    assert.equal(
      rows.reduce((s, r) => s + r.costUsd, 0),
      125,
    );
    assert.equal(backfillColdUsage(db, cold, log), false, 'nothing left to do');
    assert.equal(usageRows(db, ALL).length, 250);
    assert.deepEqual(log.lines, []);
  } finally {
    cleanup();
  }
});
