// Cold sessions: old sessions' bodies move to per-session files at snapshots and come back on resume,
// export and search hits; a new record warms a session back; retention purges deleted sessions and
// unused files once no snapshot on disk needs them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openSessionStoreLazily, parseSessionExport } from '../../../extension/core/store';
import { searchSessions } from '../../../extension/core/store/session-search';
import { ColdFiles } from '../../../extension/core/store/cold-files';
import { restoreColdSearchText } from '../../../extension/core/store/cold-move';
import { created, exchange, open, recordingLog, sql, tempDir } from './helpers';
import { readFileSync } from 'node:fs';

const DAY = 86_400_000;
const NOW = 1_800_000_000_000;

function coldFiles(dir: string): string[] {
  try {
    return readdirSync(join(dir, 'sessions')).filter((f) => f.endsWith('.json.gz'));
  } catch {
    return [];
  }
}

/** Bytes of the snapshot's tables for a session, read from the snapshot file (what is really hot). */
async function hotRows(dir: string, sessionId: string): Promise<number> {
  const SQL = await sql();
  const db = new SQL.Database(readFileSync(join(dir, 'sextant.db')));
  try {
    return Number(
      db.exec(
        `SELECT (SELECT count(*) FROM messages WHERE session_id = '${sessionId}') +
                (SELECT count(*) FROM model_messages WHERE session_id = '${sessionId}') +
                (SELECT count(*) FROM tool_traces WHERE session_id = '${sessionId}')`,
      )[0].values[0][0],
    );
  } finally {
    db.close();
  }
}

/**
 * FTS4's own check that the index matches its text, on a copy of the snapshot on disk: cold sessions'
 * rows keep no text, so it is first rebuilt from their files — exactly what warm and purge do.
 */
async function assertIndexIntact(dir: string): Promise<void> {
  const SQL = await sql();
  const db = new SQL.Database(readFileSync(join(dir, 'sextant.db')));
  try {
    const cold = new ColdFiles(dir);
    for (const [id, file] of db.exec('SELECT id, cold_file FROM sessions WHERE cold_file IS NOT NULL')[0]?.values ?? [])
      restoreColdSearchText(db, String(id), cold.read(String(file)).messages);
    db.exec("INSERT INTO memory_fts(memory_fts) VALUES('integrity-check')");
  } finally {
    db.close();
  }
}

test('an old session moves to a cold file at the snapshot and reads back the same: resume, export, list', async () => {
  const { dir, cleanup } = tempDir('cold');
  try {
    const log = recordingLog();
    const now = () => NOW;
    let store = await open(dir, { log, now });
    const big = `${'a long tool output line\n'.repeat(2000)}END`; // over the blob threshold
    store.append(created('old', NOW - 30 * DAY, 'Old work'));
    for (const r of exchange(
      'old',
      'r1',
      NOW - 30 * DAY + 10,
      'How do I configure the flux capacitor?',
      'Set 1.21 gigawatts.',
    ))
      store.append(r);
    store.append({
      kind: 'events',
      sessionId: 'old',
      at: NOW - 30 * DAY + 20,
      envelopes: [
        {
          requestId: 'r2',
          seq: 1,
          ts: 1,
          event: {
            type: 'started',
            userMessageId: 'r2-u',
            assistantMessageId: 'r2-a',
            text: 'show the log',
            mode: 'agent',
            model: 'fake/model',
          },
        },
        {
          requestId: 'r2',
          seq: 2,
          ts: 2,
          event: {
            type: 'tool_updated',
            call: { callId: 'c', name: 'run_command', kind: 'execute', subject: 'make', status: 'ok', detail: big },
          },
        },
        { requestId: 'r2', seq: 3, ts: 3, event: { type: 'complete' } },
      ],
    });
    store.append({
      kind: 'todos',
      sessionId: 'old',
      at: NOW - 30 * DAY + 30,
      todos: [{ id: 't', content: 'x', status: 'pending' }],
    });
    store.append(created('new', NOW - 1000, 'Fresh'));
    for (const r of exchange('new', 'n1', NOW - 900, 'What is new today?', 'Nothing much.')) store.append(r);
    const before = store.getSession('old');
    const exportBefore = store.exportSession('old', 'json');
    const listBefore = store.listSessions();
    await store.flush();
    assert.equal(coldFiles(dir).length, 1, 'the old session is in a cold file');
    await assertIndexIntact(dir);
    assert.equal(await hotRows(dir, 'old'), 0, 'its body left the snapshot');
    assert.ok((await hotRows(dir, 'new')) > 0, 'the recent session stays hot');
    const mode = statSync(join(dir, 'sessions', coldFiles(dir)[0])).mode & 0o777;
    if (process.platform !== 'win32') assert.equal(mode, 0o600, 'owner-only');
    for (let pass = 0; pass < 2; pass++) {
      assert.deepEqual(store.getSession('old'), before, 'resume reads the same session from the file');
      assert.equal(store.exportSession('old', 'json'), exportBefore, 'export is the same');
      assert.deepEqual(store.listSessions(), listBefore, 'the list is the same (titles, counts, order)');
      const tool = store.getSession('old')?.messages[3]?.parts.find((p) => p.type === 'tool');
      assert.equal(tool?.type === 'tool' ? tool.call.detail : '', big, 'a blob-sized output is inline in the file');
      await store.close();
      store = await open(dir, { log, now });
    }
    assert.deepEqual(parseSessionExport(store.exportSession('old', 'json') ?? '').session.messages.length, 4);
    await store.close();
    assert.ok(!log.lines.some((l) => l.startsWith('error')), log.lines.join('\n'));
  } finally {
    cleanup();
  }
});

test('a new record warms a cold session back; the old file goes once two snapshots no longer name it', async () => {
  const { dir, cleanup } = tempDir('cold-warm');
  try {
    const log = recordingLog();
    const now = () => NOW;
    const store = await open(dir, { log, now });
    store.append(created('s', NOW - 30 * DAY, 'Resumed later'));
    for (const r of exchange('s', 'r1', NOW - 30 * DAY, 'first question about pelicans', 'first answer'))
      store.append(r);
    await store.flush();
    const [file] = coldFiles(dir);
    assert.ok(file);
    // The user resumes it today: the reducer continues from the stored messages.
    for (const r of exchange('s', 'r2', NOW - 10, 'second question about herons', 'second answer')) store.append(r);
    const s = store.getSession('s');
    assert.deepEqual(
      s?.messages.map((m) => m.id),
      ['r1-u', 'r1-a', 'r2-u', 'r2-a'],
    );
    assert.equal(s?.modelMessages.length, 4);
    await store.flush();
    assert.ok(existsSync(join(dir, 'sessions', file)), '.prev still names the file: kept');
    assert.ok((await hotRows(dir, 's')) > 0, 'hot again');
    store.append({ kind: 'session_meta', sessionId: 's', title: 'x', at: NOW });
    await store.flush();
    await store.flush();
    assert.ok(!existsSync(join(dir, 'sessions', file)), 'deleted after two snapshots without it');
    await assertIndexIntact(dir);
    const hits = await store.searchMemory('herons');
    assert.equal(hits[0]?.sessionId, 's');
    await store.close();
    assert.ok(!log.lines.some((l) => l.startsWith('error')), log.lines.join('\n'));
  } finally {
    cleanup();
  }
});

test('search stays ranked across cold sessions: memory and History search find them with real excerpts', async () => {
  const { dir, cleanup } = tempDir('cold-search');
  try {
    const now = () => NOW;
    let store = await open(dir, { now });
    const topics: Array<[string, string, string]> = [
      ['k8s', 'How do I expose a kubernetes service with an ingress controller?', 'Create an Ingress with rules.'],
      ['pg', 'Postgres vacuum is slow on the orders table', 'Tune autovacuum cost limits for orders.'],
      ['rust', 'Borrow checker complains about a dangling reference', 'Annotate the lifetimes explicitly.'],
    ];
    for (const [i, [id, q, a]] of topics.entries()) {
      store.append(created(id, NOW - (40 - i) * DAY, ''));
      for (const r of exchange(id, `${id}-r`, NOW - (40 - i) * DAY, q, a)) store.append(r);
    }
    store.append(created('hot', NOW - 100, 'Hot one'));
    for (const r of exchange('hot', 'h-r', NOW - 100, 'Ingress annotations for kubernetes nginx', 'Use annotations.'))
      store.append(r);
    await store.close();
    store = await open(dir, { now });
    assert.equal(coldFiles(dir).length, 3);
    const hits = await store.searchMemory('autovacuum orders');
    assert.equal(hits[0]?.sessionId, 'pg');
    assert.equal(hits[0]?.messageId, 'pg-r-a', 'the best message of the cold session');
    assert.match(hits[0]?.excerpt ?? '', /Tune autovacuum cost limits/);
    const both = await store.searchMemory('kubernetes ingress');
    assert.deepEqual(both.map((h) => h.sessionId).sort(), ['hot', 'k8s']);
    const ranked = await searchSessions(store, 'dangling reference lifetimes');
    assert.equal(ranked[0]?.id, 'rust');
    assert.equal(ranked[0]?.title, 'Borrow checker complains about a dangling reference', 'generated title kept');
    assert.match(ranked[0]?.excerpt ?? '', /dangling reference/);
    const listed = store.listSessions({ query: 'autovacuum' });
    assert.deepEqual(
      listed.map((s) => s.id),
      ['pg'],
    );
    await store.close();
  } finally {
    cleanup();
  }
});

test('retention: deleted sessions are purged after the period with their cold files; orphan blobs go too', async () => {
  const { dir, cleanup } = tempDir('retention');
  try {
    let now = NOW;
    const log = recordingLog();
    const store = await open(dir, { log, now: () => now, purgeDeletedAfterDays: 30 });
    store.append(created('gone', NOW - 60 * DAY, 'To delete'));
    for (const r of exchange('gone', 'g', NOW - 60 * DAY, 'secret plans for the moon base', 'ok')) store.append(r);
    store.append(created('kept', NOW - 60 * DAY, 'Kept'));
    for (const r of exchange('kept', 'k', NOW - 60 * DAY, 'keep this', 'kept')) store.append(r);
    await store.flush();
    assert.equal(coldFiles(dir).length, 2);
    // An orphan blob (a purged row's output, say) and an orphan checkpoint blob, both old.
    const orphan = join(dir, 'blobs', `${'ab'.repeat(32)}.txt`);
    mkdirSync(join(dir, 'blobs'), { recursive: true });
    writeFileSync(orphan, 'unused');
    const cp = join(dir, 'checkpoints', 'cd', 'cd'.repeat(32));
    mkdirSync(join(dir, 'checkpoints', 'cd'), { recursive: true });
    writeFileSync(cp, 'old file contents');
    // And a cold file and a search segment no row names (a crash before the snapshot naming them).
    const coldOrphan = join(dir, 'sessions', 'nobody.0123456789abcdef.json.gz');
    writeFileSync(coldOrphan, 'unused');
    const segOrphan = join(dir, 'search', '0123456789abcdef.idx');
    writeFileSync(segOrphan, 'unused');
    const old = (NOW - 10 * DAY) / 1000;
    for (const f of [orphan, cp, coldOrphan, segOrphan]) utimesSync(f, old, old);
    store.append({ kind: 'session_deleted', sessionId: 'gone', at: NOW - 1 * DAY });
    let r = await store.reclaim();
    assert.equal(r.purgedSessions, 0, 'deleted a day ago: kept for 30 days');
    assert.equal(r.orphanFiles, 4);
    assert.ok(![orphan, cp, coldOrphan, segOrphan].some((f) => existsSync(f)), 'orphans deleted');
    assert.equal(coldFiles(dir).length, 2);
    now = NOW + 31 * DAY;
    const report = await store.storageReport();
    assert.equal(report.deletedSessions, 1);
    assert.equal(report.coldSessions, 2);
    assert.ok(report.deletedBytes > 0);
    r = await store.reclaim();
    assert.equal(r.purgedSessions, 1);
    assert.equal(coldFiles(dir).length, 1, "the purged session's cold file is gone");
    await assertIndexIntact(dir);
    assert.ok(r.freedBytes > 0);
    assert.equal(store.getSession('gone'), undefined);
    assert.equal(store.exportSession('gone', 'json'), undefined, 'not even exportable: purged');
    assert.deepEqual((await store.searchMemory('moon base')).length, 0);
    assert.equal(store.getSession('kept')?.messages.length, 2);
    const after = await store.storageReport();
    assert.equal(after.deletedSessions, 0);
    await store.close();
    assert.ok(!log.lines.some((l) => l.startsWith('error')), log.lines.join('\n'));
  } finally {
    cleanup();
  }
});

test('retention 0 keeps deleted sessions (restorable); "purge all deleted now" takes them', async () => {
  const { dir, cleanup } = tempDir('retention0');
  try {
    const store = await open(dir, { now: () => NOW });
    store.append(created('d', NOW - 400 * DAY, 'Deleted long ago'));
    for (const r of exchange('d', 'd', NOW - 400 * DAY, 'q', 'a')) store.append(r);
    store.append({ kind: 'session_deleted', sessionId: 'd', at: NOW - 399 * DAY });
    await store.flush();
    assert.equal((await store.reclaim()).purgedSessions, 0);
    store.append({ kind: 'session_restored', sessionId: 'd', at: NOW });
    assert.equal(store.getSession('d')?.messages.length, 2, 'restored from its cold file');
    store.append({ kind: 'session_deleted', sessionId: 'd', at: NOW });
    assert.equal((await store.reclaim({ allDeleted: true })).purgedSessions, 1);
    assert.deepEqual(coldFiles(dir), []);
    await store.close();
  } finally {
    cleanup();
  }
});

test('the lazily opened store reports storage and reclaims once open; retention set before open is used', async () => {
  const { dir, cleanup } = tempDir('cold-lazy');
  try {
    const store = openSessionStoreLazily({ dir, log: recordingLog(), sql: await sql(), purgeDeletedAfterDays: 0 });
    store.append(created('x', NOW - 90 * DAY, 'Old deleted'));
    for (const r of exchange('x', 'x', NOW - 90 * DAY, 'q', 'a')) store.append(r);
    store.append({ kind: 'session_deleted', sessionId: 'x', at: NOW - 89 * DAY });
    store.setRetention(1);
    const r = await store.reclaim();
    assert.equal(r.purgedSessions, 1, 'the retention set before the database opened applies');
    assert.equal((await store.storageReport()).sessions, 0);
    await store.close();
    await assert.rejects(store.storageReport(), /not available/);
  } finally {
    cleanup();
  }
});
