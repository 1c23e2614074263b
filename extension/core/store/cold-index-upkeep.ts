// Keeping the cold search segments (cold-index.ts) in shape: moving the search documents of stores
// from before schema v7 out of the in-memory full-text index, merging small segments, rebuilding a
// damaged one from the cold session files, and queueing segments nothing names any more.
//
// Each change follows the store's crash rule: the new segment is durable (temp file, fsync, rename)
// before the database names it, and the old file is only queued (pending_deletes) — deleted once two
// snapshots no longer name it. A crash in between leaves the previous snapshot (still naming the old
// layout) and an unnamed file, which the orphan scan removes; the work is redone at a later snapshot.
import type { Logger } from '../ports';
import type { ColdFiles } from './cold-files';
import {
  type IndexedSession,
  DamagedSegmentError,
  SEARCH_DIR,
  type SegmentData,
  SegmentReader,
  segmentData,
  segmentVersion,
  verifySegment,
  writeSegment,
} from './cold-index';
import { restoreColdSearchText } from './cold-move';
import { indexSession, withTokenizer } from './cold-search';
import { queueDelete } from './pending-deletes';
import type { Database } from './sqljs';
import { queryAll, queryOne } from './sqljs';

/** Sessions migrated per snapshot at most (each is read back from its cold file and tokenized)… */
export const MIGRATE_BATCH = 100;
/** …and for about this long (the snapshot holds the lock meanwhile): ~25 ms per 100 KB session. */
export const MIGRATE_BUDGET_MS = 1000;
/** More live segments than this and the smallest MERGE_WIDTH are merged into one. */
const MAX_SEGMENTS = 12;
const MERGE_WIDTH = 8;

/** Removes a session from the cold index (it was warmed or purged); queues its segment once unused. */
export function dropColdSearch(db: Database, sessionId: string): void {
  const row = queryOne(db, 'SELECT segment FROM cold_search WHERE session_id = ?', [sessionId]);
  db.run('DELETE FROM cold_search WHERE session_id = ?', [sessionId]);
  db.run('DELETE FROM cold_vectors WHERE session_id = ?', [sessionId]);
  if (typeof row?.segment === 'string') queueIfUnused(db, row.segment);
}

function queueIfUnused(db: Database, segment: string): void {
  if (!queryOne(db, 'SELECT 1 AS x FROM cold_search WHERE segment = ? LIMIT 1', [segment]))
    queueDelete(db, `${SEARCH_DIR}/${segment}`);
}

/** Indexes sessions from their cold files; sessions whose file cannot be read are left out (logged). */
function indexFromColdFiles(
  db: Database,
  cold: ColdFiles,
  log: Logger,
  rows: ReadonlyArray<{ id: string; file: string }>,
  deadline = Number.POSITIVE_INFINITY,
): Array<{ id: string; indexed?: IndexedSession }> {
  return withTokenizer(db, (tokenize) => {
    const out: Array<{ id: string; indexed?: IndexedSession }> = [];
    for (const { id, file } of rows) {
      if (out.length > 0 && performance.now() > deadline) break;
      try {
        out.push({ id, indexed: indexSession(id, file, cold.read(file).messages, tokenize) });
      } catch (err) {
        log.warn(`store: session ${id} is left out of the search index: ${(err as Error).message}`);
        out.push({ id });
      }
    }
    return out;
  });
}

function nameSegment(db: Database, indexed: IndexedSession, segment: string): void {
  db.run('INSERT OR REPLACE INTO cold_search (session_id, segment, chunks, tokens) VALUES (?, ?, ?, ?)', [
    indexed.id,
    segment,
    indexed.chunks.length,
    indexed.chunks.reduce((n, c) => n + c.length, 0),
  ]);
  db.run('DELETE FROM pending_deletes WHERE path = ?', [`${SEARCH_DIR}/${segment}`]);
}

/**
 * Moves up to `max` cold sessions' pre-v7 search documents (one FTS4 row each) to a segment file.
 * Resumable: each batch is complete on its own; the next snapshot takes the next batch.
 */
export function migrateLegacyColdDocs(
  db: Database,
  dir: string,
  cold: ColdFiles,
  log: Logger,
  max = MIGRATE_BATCH,
  budgetMs = MIGRATE_BUDGET_MS,
): { migrated: number; more: boolean } {
  const rows = queryAll(
    db,
    `SELECT c.session_id, s.cold_file FROM memory_chunks c JOIN sessions s ON s.id = c.session_id
      WHERE c.idx = -1 ORDER BY c.session_id LIMIT ?`,
    [max + 1],
  );
  if (rows.length === 0) return { migrated: 0, more: false };
  const candidates = rows.slice(0, max).map((r) => ({ id: String(r.session_id), file: String(r.cold_file ?? '') }));
  const indexed = indexFromColdFiles(
    db,
    cold,
    log,
    candidates.filter((b) => b.file),
    performance.now() + budgetMs,
  );
  // Within the time budget: the sessions indexed, and those with no file (nothing to index).
  const done = new Set(indexed.map((x) => x.id));
  const batch = candidates.filter((b) => done.has(b.id) || !b.file);
  const found = indexed.flatMap((x) => (x.indexed?.chunks.length ? [x.indexed] : []));
  const segment = found.length > 0 ? writeSegment(dir, segmentData(found)).name : undefined;
  const byId = new Map(indexed.map((x) => [x.id, x.indexed]));
  db.exec('BEGIN');
  try {
    for (const { id, file } of batch) {
      // The index needs the words it holds to delete them: they come from the cold file.
      const messages = file ? readMessagesOrUndefined(cold, file) : undefined;
      if (messages) {
        restoreColdSearchText(db, id, messages);
        db.run(
          'DELETE FROM memory_fts WHERE rowid IN (SELECT id FROM memory_chunks WHERE session_id = ? AND idx = -1)',
          [id],
        );
      }
      // Without its file the words stay in the index, unreachable (no row joins them): as a purge leaves them.
      db.run('DELETE FROM memory_chunks WHERE session_id = ? AND idx = -1', [id]);
      const doc = byId.get(id);
      if (segment && doc?.chunks.length) nameSegment(db, doc, segment);
    }
    db.exec('COMMIT');
  } catch (err) {
    db.exec('ROLLBACK');
    throw err;
  }
  return { migrated: batch.length, more: rows.length > batch.length };
}

/** Merges the smallest live segments into one when there are more than MAX_SEGMENTS. */
export function mergeSmallSegments(db: Database, dir: string, log: Logger): void {
  const segs = queryAll(
    db,
    'SELECT segment, sum(chunks) AS n FROM cold_search GROUP BY segment ORDER BY n, segment',
  ).map((r) => String(r.segment));
  if (segs.length <= MAX_SEGMENTS) return;
  const chosen = segs.slice(0, MERGE_WIDTH);
  const live = new Map<string, string>(
    queryAll(
      db,
      `SELECT c.session_id, c.segment FROM cold_search c WHERE c.segment IN (SELECT value FROM json_each(?))`,
      [JSON.stringify(chosen)],
    ).map((r) => [String(r.session_id), String(r.segment)]),
  );
  let merged: string;
  try {
    const data = mergeSegments(dir, chosen, (seg, id) => live.get(id) === seg);
    merged = writeSegment(dir, data).name;
  } catch (err) {
    // A damaged segment is rebuilt when a search meets it; the merge waits until then.
    log.warn(`store: could not merge search index files: ${(err as Error).message}`);
    return;
  }
  db.exec('BEGIN');
  try {
    db.run('UPDATE cold_search SET segment = ? WHERE segment IN (SELECT value FROM json_each(?))', [
      merged,
      JSON.stringify(chosen),
    ]);
    db.run('DELETE FROM pending_deletes WHERE path = ?', [`${SEARCH_DIR}/${merged}`]);
    for (const seg of chosen) if (seg !== merged) queueIfUnused(db, seg);
    db.exec('COMMIT');
  } catch (err) {
    db.exec('ROLLBACK');
    throw err;
  }
}

/** Live segments known to be version 2 (per folder; a segment is immutable, its version never changes). */
const knownV2 = new Set<string>();

function isVersion1(dir: string, segment: string): boolean {
  const key = `${dir}\0${segment}`;
  if (knownV2.has(key)) return false;
  const v = segmentVersion(dir, segment);
  if (v === 2) knownV2.add(key);
  // Damaged or missing (undefined): rebuilt when a search meets it.
  return v === 1;
}

/**
 * Rewrites one version 1 segment (no checksums inside) as version 2, its live sessions only; a damaged one
 * is rebuilt from the cold files. One per snapshot (it reads the segment whole, off the search's path).
 * Returns whether more version 1 segments are left.
 */
export function upgradeOldSegment(db: Database, dir: string, cold: ColdFiles, log: Logger): boolean {
  const old = queryAll(db, 'SELECT DISTINCT segment FROM cold_search ORDER BY segment')
    .map((r) => String(r.segment))
    .filter((seg) => isVersion1(dir, seg));
  if (old.length === 0) return false;
  const [segment] = old;
  const live = new Set(
    queryAll(db, 'SELECT session_id FROM cold_search WHERE segment = ?', [segment]).map((r) => String(r.session_id)),
  );
  let fresh: string;
  try {
    fresh = writeSegment(
      dir,
      mergeSegments(dir, [segment], (_seg, id) => live.has(id)),
    ).name;
  } catch (err) {
    if (!(err instanceof DamagedSegmentError)) throw err;
    log.warn(`store: ${err.message}; rebuilding it from the cold session files`);
    rebuildSegment(db, dir, cold, log, segment);
    return old.length > 1;
  }
  db.exec('BEGIN');
  try {
    db.run('UPDATE cold_search SET segment = ? WHERE segment = ?', [fresh, segment]);
    db.run('DELETE FROM pending_deletes WHERE path = ?', [`${SEARCH_DIR}/${fresh}`]);
    queueIfUnused(db, segment);
    db.exec('COMMIT');
  } catch (err) {
    db.exec('ROLLBACK');
    throw err;
  }
  log.info(`store: rewrote the search index file ${segment} with checksums as ${fresh}`);
  return old.length > 1;
}

/**
 * Indexes again, from their cold files, the sessions a damaged or missing segment held; the segment is
 * queued for deletion. Returns how many sessions were indexed.
 */
export function rebuildSegment(db: Database, dir: string, cold: ColdFiles, log: Logger, segment: string): number {
  const rows = queryAll(
    db,
    `SELECT c.session_id, s.cold_file FROM cold_search c JOIN sessions s ON s.id = c.session_id
      WHERE c.segment = ? AND s.cold_file IS NOT NULL`,
    [segment],
  ).map((r) => ({ id: String(r.session_id), file: String(r.cold_file) }));
  const indexed = indexFromColdFiles(db, cold, log, rows).flatMap((x) => (x.indexed?.chunks.length ? [x.indexed] : []));
  const fresh = indexed.length > 0 ? writeSegment(dir, segmentData(indexed)).name : undefined;
  db.exec('BEGIN');
  try {
    db.run('DELETE FROM cold_search WHERE segment = ?', [segment]);
    if (fresh) for (const doc of indexed) nameSegment(db, doc, fresh);
    if (fresh !== segment) queueDelete(db, `${SEARCH_DIR}/${segment}`);
    db.exec('COMMIT');
  } catch (err) {
    db.exec('ROLLBACK');
    throw err;
  }
  log.info(`store: rebuilt the search index of ${indexed.length} cold session(s)${fresh ? ` into ${fresh}` : ''}`);
  return indexed.length;
}

function readMessagesOrUndefined(cold: ColdFiles, file: string) {
  try {
    return cold.read(file).messages;
  } catch {
    return undefined;
  }
}

/**
 * The live part of several segments as one (sessions still named by `live(segment, sessionId)`), for
 * merging small segments into one. Reads each segment's postings term by term.
 */
export function mergeSegments(dir: string, names: readonly string[], live: (segment: string, id: string) => boolean) {
  const data: SegmentData = { sessions: [], postings: new Map() };
  for (const name of names) {
    const r = new SegmentReader(dir, name);
    try {
      // A version 1 segment has no checksums inside: hashed whole first, so damage is never carried over.
      if (r.version === 1) verifySegment(dir, name);
      const lens = r.lengths();
      // Old chunk number → new one, for the chunks of live sessions.
      const remap = new Int32Array(r.chunkCount).fill(-1);
      let next = data.sessions.reduce((n, s) => n + s.lens.length, 0);
      r.sessions.forEach(([id, cold, first], k) => {
        if (!live(name, id)) return;
        const end = k + 1 < r.sessions.length ? r.sessions[k + 1][2] : r.chunkCount;
        const sessionLens: number[] = [];
        for (let c = first; c < end; c++) {
          remap[c] = next++;
          sessionLens.push(lens[c]);
        }
        data.sessions.push({ id, cold, lens: sessionLens });
      });
      for (const [term, postings] of r.entries()) {
        const kept = postings.flatMap(([c, tf]): Array<[number, number]> => (remap[c] >= 0 ? [[remap[c], tf]] : []));
        if (kept.length === 0) continue;
        const list = data.postings.get(term);
        if (list) list.push(...kept);
        else data.postings.set(term, kept);
      }
    } finally {
      r.close();
    }
  }
  return data;
}
