// The cold sessions' search index (segment files in search/): the format reads back what was written,
// merging keeps only live sessions, a session ranks the same before and after going cold, a torn file is
// detected and rebuilt with a message, and a store from before schema v7 moves its cold documents out of
// the in-memory full-text index.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { searchSessions } from '../../../extension/core/store/session-search';
import {
  mergeSegments,
  SegmentReader,
  segmentData,
  verifySegment,
  writeSegment,
} from '../../../extension/core/store/cold-index';
import { coldSearchText } from '../../../extension/core/store/cold-move';
import { ColdFiles } from '../../../extension/core/store/cold-files';
import type { SessionStore } from '../../../extension/core/store';
import { created, exchange, open, recordingLog, sql, tempDir } from './helpers';

const DAY = 86_400_000;
const NOW = 1_800_000_000_000;

function segments(dir: string): string[] {
  try {
    return readdirSync(join(dir, 'search')).filter((f) => f.endsWith('.idx'));
  } catch {
    return [];
  }
}

async function snapshotCount(dir: string, sqlText: string): Promise<number> {
  const SQL = await sql();
  const db = new SQL.Database(readFileSync(join(dir, 'sextant.db')));
  try {
    return Number(db.exec(sqlText)[0]?.values[0]?.[0] ?? 0);
  } finally {
    db.close();
  }
}

const TOPICS: Array<[string, string, string]> = [
  ['a', 'Deploy pipeline', 'The deploy pipeline runs rsync to the staging server after the tests pass.'],
  ['b', 'Borrow checker', 'Rust lifetimes: a reference must not outlive the value it borrows. Lifetimes annotate.'],
  ['c', 'Flux capacitor', 'Configure the flux capacitor with 1.21 gigawatts; the deploy needs a DeLorean.'],
  ['d', 'Testing runners', 'Testing the runners: the test runner retries flaky tests twice before failing.'],
  ['e', 'Staging server', 'The staging server rejects rsync over port 22; use the deploy key and port 2222.'],
];
const QUERIES = ['deploy', 'staging rsync', 'lifetimes borrow', 'tests runner', 'gigawatts deploy server', 'port'];

function fill(store: SessionStore): void {
  for (const [i, [id, title, text]] of TOPICS.entries()) {
    const at = NOW - (30 + i) * DAY;
    store.append(created(id, at, title));
    for (const r of exchange(id, `${id}1`, at + 1, `Question about ${title.toLowerCase()}?`, text)) store.append(r);
    for (const r of exchange(id, `${id}2`, at + 2, 'And more?', `${text} ${'filler words here '.repeat(60)}`))
      store.append(r);
  }
  store.append(created('hot', NOW - 1000, 'Today'));
  for (const r of exchange('hot', 'h1', NOW - 900, 'Deploy today?', 'Yes, deploy the staging server now.'))
    store.append(r);
}

async function ranking(store: SessionStore): Promise<Array<Array<[string, number]>>> {
  const out: Array<Array<[string, number]>> = [];
  for (const q of QUERIES)
    out.push((await store.searchMemory(q, { limit: 10, scope: 'all' })).map((h) => [h.sessionId, h.score]));
  return out;
}

test('a segment reads back its postings and lengths; a merge keeps only live sessions', () => {
  const { dir, cleanup } = tempDir('segment');
  try {
    const data = segmentData([
      { id: 's1', cold: 's1.f.json.gz', chunks: [['deploy', 'server', 'deploy'], ['lifetim']] },
      { id: 's2', cold: 's2.f.json.gz', chunks: [['server'], ['deploy', 'x', 'y', 'z']] },
    ]);
    const { name } = writeSegment(dir, data);
    verifySegment(dir, name);
    const r = new SegmentReader(dir, name);
    try {
      assert.deepEqual(r.postings('deploy'), [
        [0, 2],
        [3, 1],
      ]);
      assert.deepEqual(r.postings('server'), [
        [0, 1],
        [2, 1],
      ]);
      assert.deepEqual(r.postings('missing'), []);
      assert.deepEqual([...r.lengths()], [3, 1, 1, 4]);
      assert.equal(r.sessions[r.sessionOf(3)][0], 's2');
      assert.equal(r.sessions[r.sessionOf(1)][0], 's1');
    } finally {
      r.close();
    }
    // Many terms: the sparse dictionary index finds each of them.
    const many = segmentData([
      { id: 'm', cold: 'm.f.json.gz', chunks: [Array.from({ length: 500 }, (_, i) => `t${i}`)] },
    ]);
    const big = writeSegment(dir, many).name;
    const rb = new SegmentReader(dir, big);
    try {
      for (let i = 0; i < 500; i += 37) assert.deepEqual(rb.postings(`t${i}`), [[0, 1]], `t${i}`);
    } finally {
      rb.close();
    }
    const merged = mergeSegments(dir, [name, big], (_seg, id) => id !== 's1');
    assert.deepEqual(
      merged.sessions.map((s) => s.id),
      ['s2', 'm'],
    );
    assert.deepEqual(merged.postings.get('deploy'), [[1, 1]]);
    assert.deepEqual(merged.postings.get('t5'), [[2, 1]]);
    assert.equal(merged.postings.get('lifetim'), undefined);
  } finally {
    cleanup();
  }
});

test('the same queries rank the same sessions before and after they go cold; FTS keeps only hot chunks', async () => {
  const { dir, cleanup } = tempDir('coldrank');
  try {
    const store = await open(dir, { now: () => NOW });
    fill(store);
    const before = await ranking(store);
    const listBefore = store.listSessions({ query: 'staging rsync' }).map((s) => s.id);
    await store.flush();
    assert.equal(segments(dir).length, 1, 'one segment for the sessions moved together');
    const after = await ranking(store);
    assert.ok(before.every((hits) => hits.length > 0));
    for (const [i, q] of QUERIES.entries()) {
      assert.deepEqual(
        after[i].map((h) => h[0]),
        before[i].map((h) => h[0]),
        `same sessions in the same order for "${q}"`,
      );
      for (const [k, [, score]] of after[i].entries())
        assert.ok(Math.abs(score - before[i][k][1]) < 1e-9 * Math.max(1, score), `same score for "${q}"`);
    }
    assert.deepEqual(
      store.listSessions({ query: 'staging rsync' }).map((s) => s.id),
      listBefore,
    );
    const found = await searchSessions(store, 'gigawatts');
    assert.equal(found[0]?.id, 'c');
    assert.match(found[0]?.excerpt ?? '', /gigawatts/);
    assert.equal(
      await snapshotCount(dir, "SELECT count(*) FROM memory_chunks WHERE session_id != 'hot'"),
      0,
      'no cold chunk in the in-memory index',
    );
    assert.equal(await snapshotCount(dir, 'SELECT count(*) FROM cold_search'), TOPICS.length);
    // A cold session warmed back by a new record is found from its hot chunks again, once.
    for (const r of exchange('c', 'c3', NOW, 'Another flux question', 'capacitor again')) store.append(r);
    const hits = await store.searchMemory('gigawatts', { scope: 'all' });
    assert.deepEqual(
      hits.map((h) => h.sessionId),
      ['c'],
    );
    assert.notEqual(hits[0].messageId, '', 'a hot hit');
    await store.close();
  } finally {
    cleanup();
  }
});

test('a torn search index file is detected and rebuilt with a message, not a crash', async () => {
  const { dir, cleanup } = tempDir('coldtorn');
  try {
    const log = recordingLog();
    let store = await open(dir, { now: () => NOW, log });
    fill(store);
    await store.close();
    const [seg] = segments(dir);
    const file = join(dir, 'search', seg);
    truncateSync(file, Math.floor(readFileSync(file).length / 2));
    store = await open(dir, { now: () => NOW, log });
    const hits = await store.searchMemory('gigawatts', { scope: 'all' });
    assert.equal(hits[0]?.sessionId, 'c', 'found through the rebuilt index');
    assert.ok(
      log.lines.some((l) => l.includes('is damaged') && l.includes('rebuilding')),
      log.lines.join('\n'),
    );
    assert.ok(log.lines.some((l) => l.includes('rebuilt the search index of 5 cold session(s)')));
    await store.flush();
    // The same sessions give the same bytes: the rebuilt file takes the damaged one's name, whole again.
    const now = segments(dir);
    assert.equal(now.length, 1);
    verifySegment(dir, now[0]);
    assert.equal(store.listSessions({ query: 'lifetimes' })[0]?.id, 'b');
    await store.close();
  } finally {
    cleanup();
  }
});

test('migration: cold documents from before v7 leave the full-text index for a segment file, resumably', async () => {
  const { dir, cleanup } = tempDir('coldmig');
  try {
    let store = await open(dir, { now: () => NOW });
    fill(store);
    await store.close();
    // Put the store back in the pre-v7 layout: each cold session one FTS4 document of its distinct words.
    const SQL = await sql();
    const db = new SQL.Database(readFileSync(join(dir, 'sextant.db')));
    const cold = new ColdFiles(dir);
    for (const [id, file] of db.exec('SELECT id, cold_file FROM sessions WHERE cold_file IS NOT NULL')[0].values) {
      const text = coldSearchText(cold.read(String(file)).messages);
      db.run("INSERT INTO memory_chunks (session_id, message_id, idx, text) VALUES (?, '', -1, ?)", [String(id), text]);
      const rowid = Number(db.exec('SELECT last_insert_rowid()')[0].values[0][0]);
      db.run('INSERT INTO memory_fts (rowid, text) VALUES (?, ?)', [rowid, text]);
      db.run("UPDATE memory_chunks SET text = '' WHERE id = ?", [rowid]);
    }
    db.exec('DELETE FROM cold_search; DROP TABLE cold_search; DROP TABLE cold_vectors;');
    // Later versions' tables and columns go too (v8: session_images, tool_traces.images_json).
    db.exec('DROP TABLE session_images; ALTER TABLE tool_traces DROP COLUMN images_json; PRAGMA user_version = 6');
    const { writeSnapshot } = await import('../../../extension/core/store/snapshot');
    await writeSnapshot(dir, db.export(), 99, 'test', true);
    db.close();
    const log = recordingLog();
    store = await open(dir, { now: () => NOW, log });
    // Before the migration's snapshot, the old documents still answer.
    assert.equal((await store.searchMemory('gigawatts', { scope: 'all' }))[0]?.sessionId, 'c');
    await store.flush();
    assert.ok(log.lines.some((l) => l.includes('moved the search index of 5 cold session(s) to a file')));
    assert.equal(await snapshotCount(dir, 'SELECT count(*) FROM memory_chunks WHERE idx = -1'), 0);
    assert.equal(await snapshotCount(dir, 'SELECT count(*) FROM cold_search'), TOPICS.length);
    const SQL2 = await sql();
    const check = new SQL2.Database(readFileSync(join(dir, 'sextant.db')));
    check.exec("INSERT INTO memory_fts(memory_fts) VALUES('integrity-check')");
    check.close();
    const hits = await store.searchMemory('gigawatts deploy', { scope: 'all' });
    assert.equal(hits[0]?.sessionId, 'c');
    assert.equal(store.listSessions({ query: 'borrow lifetimes' })[0]?.id, 'b');
    await store.close();
  } finally {
    cleanup();
  }
});
