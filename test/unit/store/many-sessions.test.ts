// Several sessions in one window write through one store at once (the session hub: several chat
// controllers, one store). Their records interleave with snapshots, cold moves, retention and journal
// rotation; after a reopen every session must hold exactly its own events — none lost, none doubled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatMessage } from '../../../extension/protocol';
import type { JournalRecord, StoredSession } from '../../../extension/core/ports';
import type { SessionStore } from '../../../extension/core/store';
import { created, open, recordingLog, RequestBuilder, tempDir } from './helpers';

const SESSIONS = 4;
const EVENTS = 500;
/** Events per request: started, deltas, complete (then the request's model messages). */
const PER_REQUEST = 50;

/** The session's cold file, when it has one now (`sessions/<id>.<hash>.json.gz`). */
function coldFileOf(dir: string, sessionId: string): string | undefined {
  try {
    return readdirSync(join(dir, 'sessions')).find((f) => f.startsWith(`${sessionId}.`));
  } catch {
    return undefined;
  }
}

const tick = () => new Promise<void>((r) => setImmediate(r));

/** What one session writes: requests of PER_REQUEST events, each followed by its model history. */
function sessionRecords(sessionId: string): JournalRecord[] {
  const out: JournalRecord[] = [];
  let at = 1_000;
  for (let r = 0; r * PER_REQUEST < EVENTS; r++) {
    const b = new RequestBuilder(`${sessionId}-r${r}`, at);
    const env = (event: Parameters<RequestBuilder['env']>[0]) => ({
      kind: 'events' as const,
      sessionId,
      at: at++,
      envelopes: [b.env(event)],
    });
    out.push(
      env({
        type: 'started',
        userMessageId: `${sessionId}-r${r}-u`,
        assistantMessageId: `${sessionId}-r${r}-a`,
        text: `question ${r}`,
        mode: 'agent',
        model: 'fake/model',
      }),
    );
    for (let e = 1; e < PER_REQUEST - 1; e++) out.push(env({ type: 'text_delta', text: `[${sessionId}:${r}:${e}]` }));
    out.push(env({ type: 'complete' }));
    out.push({
      kind: 'model_messages',
      sessionId,
      at: at++,
      messages: [
        { role: 'user', content: `question ${r}` },
        { role: 'assistant', text: `answer ${sessionId} ${r}` },
      ],
    });
  }
  return out;
}

function expectedAnswer(sessionId: string, r: number): string {
  let text = '';
  for (let e = 1; e < PER_REQUEST - 1; e++) text += `[${sessionId}:${r}:${e}]`;
  return text;
}

function assertSessionWhole(store: SessionStore, sessionId: string): void {
  const s: StoredSession | undefined = store.getSession(sessionId);
  assert.ok(s, `${sessionId} exists`);
  const requests = EVENTS / PER_REQUEST;
  assert.equal(s.messages.length, requests * 2, `${sessionId}: one user and one answer per request`);
  for (let r = 0; r < requests; r++) {
    const answer: ChatMessage = s.messages[r * 2 + 1];
    const text: string = answer.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
    assert.equal(text, expectedAnswer(sessionId, r), `${sessionId} request ${r}: every delta once, in order`);
    assert.equal(answer.status, 'done');
  }
  assert.deepEqual(
    s.modelMessages.map((m) => (m.role === 'user' ? m.content : m.role === 'assistant' ? m.text : '')),
    Array.from({ length: requests }, (_, r) => [`question ${r}`, `answer ${sessionId} ${r}`]).flat(),
    `${sessionId}: model history has each message exactly once`,
  );
}

test('4 sessions × 500 events appended at once with snapshots, cold moves and retention: reopen has each exactly', {
  timeout: 180_000,
}, async () => {
  const { dir, cleanup } = tempDir('many');
  try {
    const log = recordingLog();
    // Snapshots as often as the schedule allows; every idle session is a cold candidate at each snapshot
    // (so sessions between requests go cold and are warmed back by their next record).
    const store = await open(dir, {
      log,
      snapshotDelayMs: 0,
      snapshotMaxDelayMs: 1,
      journalMaxBytes: 64 * 1024,
      hot: { hotDays: 0, hotBytes: 0, recentMs: 0, checkEveryMs: 0 },
      purgeDeletedAfterDays: 1,
    });
    const ids = Array.from({ length: SESSIONS }, (_, i) => `s${i}`);
    for (const id of ids) store.append(created(id, 500, `session ${id}`));
    let halfway!: () => void;
    const reachedHalfway = new Promise<void>((r) => (halfway = r));
    let atHalf = 0;
    // Each session is its own writer (a controller), yielding to the event loop between records like a
    // streaming request does, so snapshots (async, under the lock) run in between.
    const writers = ids.map(async (id, i) => {
      const records = sessionRecords(id);
      for (const [n, rec] of records.entries()) {
        store.append(rec);
        if (n === Math.floor(records.length / 2) && ++atHalf === SESSIONS) halfway();
        // Between two requests, twice per session: a snapshot that moves this idle session to a cold file
        // while the other sessions keep streaming; its next record warms it back.
        if (
          rec.kind === 'model_messages' &&
          (n + 1) % (PER_REQUEST + 1) === 0 &&
          [3, 7].includes((n + 1) / (PER_REQUEST + 1))
        ) {
          await store.flush();
          assert.ok(coldFileOf(dir, id), `${id} went cold between its requests`);
        }
        if ((n + i) % 3 === 0) await tick();
      }
    });
    // Meanwhile, when all four are halfway: a compaction (every idle session to a cold file now), a
    // reclaim (retention pass + two snapshots) and explicit flushes, all while the writers go on.
    const upkeep = reachedHalfway.then(async () => {
      await Promise.all([store.compact(), store.reclaim(), store.flush()]);
    });
    await Promise.all([...writers, upkeep]);
    await store.flush();
    // Before reopening, this window's own view is whole too.
    for (const id of ids) assertSessionWhole(store, id);
    await store.close();
    assert.ok(!log.lines.some((l) => l.startsWith('error')), log.lines.join('\n'));
    // The interleavings the test is about did happen: sessions went cold between requests and were warmed.
    const moves = log.lines.filter((l) => /moved \d+ session\(s\) to cold files/.test(l)).length;
    assert.ok(moves >= 3, `sessions moved to cold files while written (${moves} moves)`);

    const again = await open(dir);
    for (const id of ids) assertSessionWhole(again, id);
    assert.equal(again.listSessions().length, SESSIONS);
    await again.close();
  } finally {
    cleanup();
  }
});
