// The cold sessions' search index (segment files in search/): the format reads back what was written,
// merging keeps only live sessions, a session ranks the same before and after going cold, a torn file is
// detected and rebuilt with a message, and a store from before schema v7 moves its cold documents out of
// the in-memory full-text index.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs, { readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { searchSessions } from '../../../extension/core/store/session-search';
import { mergeSegments } from '../../../extension/core/store/cold-index-upkeep';
import {
  DamagedSegmentError,
  type SegmentData,
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
    // Later versions' tables and columns go too (v8: session_images, tool_traces.images_json; v10: usage_entries,
    // usage_keys; v11: research_sources, artifacts.question).
    db.exec(
      'DROP TABLE session_runs; DROP TABLE session_images; DROP TABLE research_sources; ' +
        'DROP TABLE usage_entries; DROP TABLE usage_keys; ' +
        'ALTER TABLE artifacts DROP COLUMN question; ' +
        'ALTER TABLE tool_traces DROP COLUMN images_json; PRAGMA user_version = 6',
    );
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

// ——— Checksums inside (format version 2): a search reads only what it needs, and checks what it reads ———

/** Version 1 of the format (before the checksums inside), to check that old segments still work. */
function encodeV1(data: SegmentData): Buffer {
  const varint = (out: number[], n: number) => {
    let v = n;
    while (v >= 0x80) {
      out.push((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    out.push(v);
  };
  const sessions: Array<[string, string, number]> = [];
  const lens: number[] = [];
  for (const s of data.sessions) {
    sessions.push([s.id, s.cold, lens.length]);
    lens.push(...s.lens);
  }
  const dict: number[] = [];
  const post: number[] = [];
  const sparse: Array<[string, number]> = [];
  for (const [k, term] of [...data.postings.keys()].sort().entries()) {
    if (k % 64 === 0) sparse.push([term, dict.length]);
    const list = data.postings.get(term) ?? [];
    const start = post.length;
    let prev = -1;
    for (const [chunk, tf] of list) {
      varint(post, (chunk - prev) * 2 + (tf > 1 ? 1 : 0));
      if (tf > 1) varint(post, tf);
      prev = chunk;
    }
    const bytes = Buffer.from(term, 'utf8');
    varint(dict, bytes.length);
    dict.push(...bytes);
    varint(dict, list.length);
    varint(dict, start);
    varint(dict, post.length - start);
  }
  const lensBuf = Buffer.alloc(lens.length * 2);
  for (const [i, n] of lens.entries()) lensBuf.writeUInt16LE(n, i * 2);
  let json = '';
  for (let guess = 12, base = 0; ; guess = base) {
    json = JSON.stringify({
      v: 1,
      sessions,
      chunks: lens.length,
      lensAt: guess,
      dictAt: guess + lensBuf.length,
      dictEnd: guess + lensBuf.length + dict.length,
      sparse,
    });
    base = 12 + Buffer.byteLength(json);
    if (base === guess) break;
  }
  const head = Buffer.alloc(12);
  head.write('SXCIDX1\n', 0, 'latin1');
  head.writeUInt32LE(Buffer.byteLength(json), 8);
  return Buffer.concat([head, Buffer.from(json), lensBuf, Buffer.from(dict), Buffer.from(post)]);
}

function headerOf(file: string): { json: { lensAt: number; dictAt: number; size: number }; end: number } {
  const bytes = readFileSync(file);
  const n = bytes.readUInt32LE(8);
  return { json: JSON.parse(bytes.subarray(20, 20 + n).toString('utf8')), end: 20 + n };
}

function flipByte(file: string, at: number): void {
  const bytes = readFileSync(file);
  bytes[at] ^= 0x20;
  writeFileSync(file, bytes);
}

test('a lookup in a version 2 segment reads a small part of it, never the whole file', () => {
  const { dir, cleanup } = tempDir('segread');
  try {
    // 300 sessions of 5 chunks × 200 tokens over 3,000 terms: a segment of a third of a megabyte.
    let s = 7;
    const rnd = (n: number) => {
      s = (s * 1664525 + 1013904223) >>> 0;
      return s % n;
    };
    const sessions = Array.from({ length: 300 }, (_, i) => ({
      id: `s${i}`,
      cold: `s${i}.f.json.gz`,
      chunks: Array.from({ length: 5 }, () => Array.from({ length: 200 }, () => `w${rnd(3000)}`)),
    }));
    const { name, bytes: size } = writeSegment(dir, segmentData(sessions));
    assert.ok(size > 300_000, `segment of ${size} bytes`);
    let read = 0;
    const realRead = fs.readSync;
    fs.readSync = ((...args: Parameters<typeof fs.readSync>) => {
      const n = (realRead as (...a: unknown[]) => number)(...args);
      read += n;
      return n;
    }) as typeof fs.readSync;
    try {
      const r = new SegmentReader(dir, name);
      try {
        const postings = r.postings('w42');
        const expected = sessions.flatMap((x) => x.chunks).flatMap((c, i) => (c.includes('w42') ? [i] : []));
        assert.deepEqual(
          postings.map(([chunk]) => chunk),
          expected,
        );
        r.lengths();
      } finally {
        r.close();
      }
    } finally {
      fs.readSync = realRead;
    }
    assert.ok(read * 10 < size, `read ${read} of ${size} bytes`);
  } finally {
    cleanup();
  }
});

test('damage in any part of a version 2 segment is found when that part is read, before it is used', () => {
  const { dir, cleanup } = tempDir('segdamage');
  try {
    const data = segmentData([
      { id: 's1', cold: 's1.f.json.gz', chunks: [['deploy', 'server', 'deploy'], ['lifetim']] },
      { id: 's2', cold: 's2.f.json.gz', chunks: [['server'], ['deploy', 'x', 'y', 'zebra']] },
    ]);
    const fresh = () => {
      const { name } = writeSegment(dir, data);
      return { name, file: join(dir, 'search', name) };
    };
    const damaged = (fn: () => unknown, what: string) =>
      assert.throws(fn, (err) => err instanceof DamagedSegmentError && /is damaged/.test(err.message), what);
    // The header (its JSON): found at open.
    let { name, file } = fresh();
    const { json, end } = headerOf(file);
    flipByte(file, 30);
    damaged(() => new SegmentReader(dir, name), 'header');
    // Cut short, or grown: found at open by the size in the header.
    ({ name, file } = fresh());
    truncateSync(file, json.size - 1);
    damaged(() => new SegmentReader(dir, name), 'cut short');
    ({ name, file } = fresh());
    writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.from([0])]));
    damaged(() => new SegmentReader(dir, name), 'grown');
    // The chunk lengths: found by lengths(); the postings are still good.
    ({ name, file } = fresh());
    assert.equal(json.lensAt, end);
    flipByte(file, json.lensAt);
    let r = new SegmentReader(dir, name);
    assert.equal(r.postings('deploy').length, 2);
    damaged(() => r.lengths(), 'lengths');
    r.close();
    // The dictionary: found by a lookup in that block and by terms().
    ({ name, file } = fresh());
    flipByte(file, json.dictAt + 1);
    r = new SegmentReader(dir, name);
    damaged(() => r.postings('server'), 'dictionary');
    damaged(() => r.terms(), 'dictionary (terms)');
    r.close();
    // The last term's postings ('zebra', the last byte of the file): found by its lookup, not by another's.
    ({ name, file } = fresh());
    flipByte(file, json.size - 1);
    r = new SegmentReader(dir, name);
    assert.deepEqual(r.postings('server'), [
      [0, 1],
      [2, 1],
    ]);
    damaged(() => r.postings('zebra'), 'postings');
    r.close();
    // Whole again: every part reads back.
    ({ name } = fresh());
    r = new SegmentReader(dir, name);
    assert.deepEqual(r.postings('zebra'), [[3, 1]]);
    assert.deepEqual([...r.lengths()], [3, 1, 1, 4]);
    r.close();
  } finally {
    cleanup();
  }
});

test('a damaged dictionary found by a search is rebuilt from the cold files with a message', async () => {
  const { dir, cleanup } = tempDir('coldflip');
  try {
    const log = recordingLog();
    let store = await open(dir, { now: () => NOW, log });
    fill(store);
    await store.close();
    const [seg] = segments(dir);
    const file = join(dir, 'search', seg);
    // A flipped bit in the middle of the dictionary: the file keeps its size.
    flipByte(file, headerOf(file).json.dictAt + 3);
    store = await open(dir, { now: () => NOW, log });
    const hits = await store.searchMemory('gigawatts', { scope: 'all' });
    assert.equal(hits[0]?.sessionId, 'c', 'found through the rebuilt index');
    assert.ok(
      log.lines.some((l) => l.includes('is damaged') && l.includes('rebuilding')),
      log.lines.join('\n'),
    );
    assert.ok(log.lines.some((l) => l.includes('rebuilt the search index of 5 cold session(s)')));
    await store.close();
  } finally {
    cleanup();
  }
});

test('a version 1 segment (no checksums) is still searched, then rewritten with checksums at a snapshot', async () => {
  const { dir, cleanup } = tempDir('coldv1');
  try {
    let store = await open(dir, { now: () => NOW });
    fill(store);
    await store.close();
    // Put the segment back in version 1: the same postings, written the old way, named by the snapshot.
    const [seg] = segments(dir);
    const v1 = encodeV1(mergeSegments(dir, [seg], () => true));
    const v1Name = `${createHash('sha256').update(v1).digest('hex').slice(0, 16)}.idx`;
    writeFileSync(join(dir, 'search', v1Name), v1);
    const SQL = await sql();
    const db = new SQL.Database(readFileSync(join(dir, 'sextant.db')));
    db.run('UPDATE cold_search SET segment = ?', [v1Name]);
    const { writeSnapshot } = await import('../../../extension/core/store/snapshot');
    await writeSnapshot(dir, db.export(), 99, 'test', true);
    db.close();
    const r = new SegmentReader(dir, v1Name);
    assert.equal(r.version, 1);
    r.close();
    const log = recordingLog();
    store = await open(dir, { now: () => NOW, log });
    assert.equal((await store.searchMemory('gigawatts', { scope: 'all' }))[0]?.sessionId, 'c');
    await store.flush();
    assert.ok(
      log.lines.some((l) => l.includes(`rewrote the search index file ${v1Name} with checksums`)),
      log.lines.join('\n'),
    );
    assert.equal(await snapshotCount(dir, 'SELECT count(DISTINCT segment) FROM cold_search'), 1);
    const SQL2 = await sql();
    const check = new SQL2.Database(readFileSync(join(dir, 'sextant.db')));
    const now = String(check.exec('SELECT DISTINCT segment FROM cold_search')[0].values[0][0]);
    check.close();
    const upgraded = new SegmentReader(dir, now);
    assert.equal(upgraded.version, 2);
    upgraded.close();
    assert.equal(now, seg, 'the same postings in version 2: the same bytes as the segment first written');
    const hits = await store.searchMemory('gigawatts deploy', { scope: 'all' });
    assert.equal(hits[0]?.sessionId, 'c');
    assert.equal(store.listSessions({ query: 'borrow lifetimes' })[0]?.id, 'b');
    await store.close();
  } finally {
    cleanup();
  }
});

test('a damaged version 1 segment is found by its hash before a search uses it', async () => {
  const { dir, cleanup } = tempDir('coldv1bad');
  try {
    const data = segmentData([{ id: 's1', cold: 's1.f.json.gz', chunks: [['deploy', 'server']] }]);
    const v1 = encodeV1(data);
    const name = `${createHash('sha256').update(v1).digest('hex').slice(0, 16)}.idx`;
    const folder = join(dir, 'search');
    fs.mkdirSync(folder, { recursive: true });
    v1[v1.length - 1] ^= 0x20;
    writeFileSync(join(folder, name), v1);
    // The reader alone cannot tell (no checksums inside); the name can.
    const r = new SegmentReader(dir, name);
    assert.equal(r.version, 1);
    r.close();
    assert.throws(() => verifySegment(dir, name), DamagedSegmentError);
    assert.throws(() => mergeSegments(dir, [name], () => true), DamagedSegmentError);
  } finally {
    cleanup();
  }
});
