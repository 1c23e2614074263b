// Which sessions stay in the in-memory database (hot) and moving the others to cold files.
//
// Hot: the session index (every session's row), todos, artifacts, turn checkpoints, the search index,
// and the whole body of recent sessions. A session goes cold when it has not been written to for
// `hotDays`, or when the sessions newer than it already hold `hotBytes` of body text. Its body then
// leaves the database for a cold file, and its search chunks are replaced by one compact document
// (its distinct words), so search stays ranked across every session while memory stays bounded.
//
// The move runs inside a snapshot, under the snapshot lock: the file is written durably first, then
// the rows leave the in-memory database, then the snapshot naming the file is written. A crash before
// that snapshot leaves the previous snapshot (session hot) and an unreferenced file, removed later by
// the orphan scan — nothing is lost, and the journal was never touched.
import type { ChatMessage } from '../../protocol';
import type { Logger } from '../ports';
import type { ModelMessage } from '../providers/types';
import { generateTitle } from '../session-title';
import type { BlobStore } from './blobs';
import type { ColdFiles } from './cold-files';
import { type IndexedSession, SEARCH_DIR, segmentData, writeSegment } from './cold-index';
import { indexSession, withTokenizer } from './cold-search';
import { blobToVec, vecToBlob } from './embeddings';
import { removeSessionChunks } from './memory-index';
import { queryTerms } from './memory-query';
import { messageText, readMessages } from './message-rows';
import type { Database } from './sqljs';
import { queryAll, queryOne } from './sqljs';

export interface HotPolicy {
  /** A session not written to for this many days goes cold. */
  hotDays: number;
  /**
   * Body text kept hot at most (newest sessions first); older sessions beyond it go cold. Small, so what
   * the window holds does not grow with history (`bench/memory.mjs`): a cold session opens in a few ms.
   */
  hotBytes: number;
  /** At most this much body is moved per snapshot, so one snapshot never pauses long; the rest follow. */
  maxMoveBytes: number;
  /** Sessions written to within this many ms are never moved by the size rule. */
  recentMs: number;
  /** How often snapshots look for sessions to move (the check scans the hot bodies). */
  checkEveryMs: number;
}

export const DEFAULT_HOT_POLICY: HotPolicy = {
  hotDays: 14,
  hotBytes: 2 * 1024 * 1024,
  maxMoveBytes: 8 * 1024 * 1024,
  recentMs: 60 * 60 * 1000,
  checkEveryMs: 10 * 60 * 1000,
};

/** The compact search document of a cold session: at most this many characters of distinct words. */
const COMPACT_MAX_CHARS = 64 * 1024;

export interface ColdCandidate {
  id: string;
  bytes: number;
}

/** Hot sessions that should go cold now, oldest first, within the per-snapshot move budget. */
export function coldCandidates(
  db: Database,
  policy: HotPolicy,
  now: number,
  live: ReadonlySet<string>,
): ColdCandidate[] {
  const rows = queryAll(
    db,
    `SELECT s.id, s.updated_at,
        coalesce((SELECT sum(length(p.text)) FROM messages m JOIN message_parts p ON p.message_id = m.id
                   WHERE m.session_id = s.id), 0)
      + coalesce((SELECT sum(coalesce(length(t.detail), 0) + coalesce(length(t.live_output), 0) + 200)
                   FROM tool_traces t WHERE t.session_id = s.id), 0)
      + coalesce((SELECT sum(length(mm.body)) FROM model_messages mm WHERE mm.session_id = s.id), 0) AS bytes,
        (SELECT count(*) FROM messages m WHERE m.session_id = s.id) AS n
       FROM sessions s WHERE s.cold_file IS NULL ORDER BY s.updated_at DESC, s.id`,
  );
  const out: ColdCandidate[] = [];
  let kept = 0;
  for (const r of rows) {
    const id = String(r.id);
    const bytes = Number(r.bytes);
    const age = now - Number(r.updated_at);
    const hasBody = Number(r.n) > 0 || bytes > 0;
    const tooOld = age > policy.hotDays * 86_400_000;
    const overBudget = kept + bytes > policy.hotBytes && age > policy.recentMs;
    if (hasBody && !live.has(id) && (tooOld || overBudget)) out.push({ id, bytes });
    else kept += bytes;
  }
  out.reverse();
  const budgeted: ColdCandidate[] = [];
  let moved = 0;
  for (const c of out) {
    if (budgeted.length > 0 && moved + c.bytes > policy.maxMoveBytes) break;
    budgeted.push(c);
    moved += c.bytes;
  }
  return budgeted;
}

/**
 * The search document a cold session had before schema v7 (one FTS4 row, memory_chunks.idx = -1): the
 * distinct words of its finished messages. Derived from the cold file alone, so it can be rebuilt exactly
 * when the document leaves the index (FTS4 external content needs the indexed text to delete it). New
 * cold sessions are indexed in segment files instead (cold-index.ts); this stays to remove old documents.
 */
export function coldSearchText(messages: readonly ChatMessage[]): string {
  return compactSearchText(messages.filter((m) => m.status !== 'streaming').map((m) => messageText(m)));
}

/** Puts a legacy cold session's search text back in its row, so the full-text index can delete it. */
export function restoreColdSearchText(db: Database, sessionId: string, messages: readonly ChatMessage[]): void {
  db.run('UPDATE memory_chunks SET text = ? WHERE session_id = ? AND idx = -1', [coldSearchText(messages), sessionId]);
}

/** Distinct words of texts, in first-seen order, at most COMPACT_MAX_CHARS. */
export function compactSearchText(texts: Iterable<string>): string {
  const seen = new Set<string>();
  let out = '';
  for (const text of texts) {
    for (const t of queryTerms(text, Number.POSITIVE_INFINITY)) {
      if (seen.has(t)) continue;
      if (out.length + t.length + 1 > COMPACT_MAX_CHARS) return out;
      seen.add(t);
      out += out ? ` ${t}` : t;
    }
  }
  return out;
}

/** Deletes a session's body rows (messages, parts, tool traces, model history). */
export function deleteSessionBody(db: Database, sessionId: string): void {
  db.run('DELETE FROM message_parts WHERE message_id IN (SELECT id FROM messages WHERE session_id = ?)', [sessionId]);
  db.run('DELETE FROM tool_traces WHERE session_id = ?', [sessionId]);
  db.run('DELETE FROM messages WHERE session_id = ?', [sessionId]);
  db.run('DELETE FROM model_messages WHERE session_id = ?', [sessionId]);
}

export function readModelMessages(db: Database, blobs: BlobStore, sessionId: string): ModelMessage[] {
  return queryAll(db, 'SELECT body, body_ref FROM model_messages WHERE session_id = ? ORDER BY idx', [sessionId]).map(
    (r) => JSON.parse(blobs.join(r.body, r.body_ref) ?? '{}') as ModelMessage,
  );
}

/** A session whose cold file is durable, with what its database change needs. */
export interface PreparedCold {
  sessionId: string;
  name: string;
  bytes: number;
  title: string;
  firstUser: ChatMessage | undefined;
  centroids: Map<string, Float32Array>;
  indexed: IndexedSession;
}

/** Writes one hot session's body to a cold file (durably) and tokenizes its chunks for the cold index. */
export function prepareCold(
  db: Database,
  blobs: BlobStore,
  cold: ColdFiles,
  sessionId: string,
  tokenize: (text: string) => string[],
): PreparedCold | undefined {
  const row = queryOne(db, 'SELECT title, cold_file FROM sessions WHERE id = ?', [sessionId]);
  if (!row || row.cold_file !== null) return undefined;
  const messages = readMessages(db, blobs, sessionId);
  const modelMessages = readModelMessages(db, blobs, sessionId);
  const { name, bytes } = cold.write({ sessionId, messages, modelMessages });
  return {
    sessionId,
    name,
    bytes,
    title: String(row.title),
    firstUser: messages.find((m) => m.role === 'user'),
    centroids: sessionCentroids(db, sessionId),
    indexed: indexSession(sessionId, name, messages, tokenize),
  };
}

/**
 * The database side of a move, once the cold file and the segment holding its chunks (`segment`) are
 * durable: the body rows and hot chunks go, the session names its file and its segment.
 */
export function commitCold(db: Database, p: PreparedCold, segment: string, log: Logger): void {
  const { sessionId, name, bytes } = p;
  db.exec('BEGIN');
  try {
    deleteSessionBody(db, sessionId);
    removeSessionChunks(db, sessionId);
    const tokens = p.indexed.chunks.reduce((n, c) => n + c.length, 0);
    if (p.indexed.chunks.length > 0)
      db.run('INSERT OR REPLACE INTO cold_search (session_id, segment, chunks, tokens) VALUES (?, ?, ?, ?)', [
        sessionId,
        segment,
        p.indexed.chunks.length,
        tokens,
      ]);
    for (const [model, vec] of p.centroids)
      db.run('INSERT OR REPLACE INTO cold_vectors (session_id, model, vec) VALUES (?, ?, ?)', [
        sessionId,
        model,
        vecToBlob(vec),
      ]);
    // The list shows a generated title for an untitled session from its first message, which is now cold.
    if (!p.title && p.firstUser)
      db.run('UPDATE sessions SET title = ? WHERE id = ?', [generateTitle(messageText(p.firstUser)), sessionId]);
    db.run('UPDATE sessions SET cold_file = ?, cold_bytes = ? WHERE id = ?', [name, bytes, sessionId]);
    // The same bytes may have been cold before (a file waiting for deletion): it is needed again.
    db.run('DELETE FROM pending_deletes WHERE path = ?', [`sessions/${name}`]);
    db.run('DELETE FROM pending_deletes WHERE path = ?', [`${SEARCH_DIR}/${segment}`]);
    db.exec('COMMIT');
  } catch (err) {
    db.exec('ROLLBACK');
    log.error(`store: could not move session ${sessionId} to ${name}: ${(err as Error).message}`);
    throw err;
  }
}

/**
 * Moves hot sessions' bodies to cold files: every file durable, then one search segment with their
 * chunks (durable), then the database changes. `afterWrite` is a fault-injection point for the crash
 * tests (between the durable files and the database change). Returns the sessions moved.
 */
export function moveToCold(
  db: Database,
  blobs: BlobStore,
  cold: ColdFiles,
  dir: string,
  sessionIds: readonly string[],
  log: Logger,
  afterWrite?: () => void,
): string[] {
  const prepared = withTokenizer(db, (tokenize) =>
    sessionIds.flatMap((id) => prepareCold(db, blobs, cold, id, tokenize) ?? []),
  );
  if (prepared.length === 0) return [];
  const segment = writeSegment(dir, segmentData(prepared.map((p) => p.indexed))).name;
  afterWrite?.();
  for (const p of prepared) commitCold(db, p, segment, log);
  return prepared.map((p) => p.sessionId);
}

/**
 * Per embedding model, the normalised mean of a session's chunk vectors: a cold session keeps one vector
 * (no network needed to move it), so vector search still finds it by meaning.
 */
function sessionCentroids(db: Database, sessionId: string): Map<string, Float32Array> {
  const sums = new Map<string, Float32Array>();
  for (const r of queryAll(
    db,
    `SELECT v.model, v.vec FROM chunk_vectors v JOIN memory_chunks c ON c.id = v.chunk_id WHERE c.session_id = ?`,
    [sessionId],
  )) {
    const vec = blobToVec(r.vec as Uint8Array);
    const model = String(r.model);
    const sum = sums.get(model) ?? new Float32Array(vec.length);
    if (sum.length !== vec.length) continue;
    for (let i = 0; i < vec.length; i++) sum[i] += vec[i];
    sums.set(model, sum);
  }
  for (const sum of sums.values()) {
    const norm = Math.hypot(...sum) || 1;
    for (let i = 0; i < sum.length; i++) sum[i] /= norm;
  }
  return sums;
}
