// Memory search over past sessions: BM25 (FTS4 + matchinfo) alone, or fused with vector
// similarity by reciprocal-rank fusion (k = 60) when an embedder is configured. Results are
// per session (its best chunk), so the agent gets distinct conversations, not ten excerpts of one.
import type { Logger } from '../ports';
import { bm25Term, type CorpusExtra, matchinfoWords } from './bm25';
import { type ColdSearch, withTokenizer } from './cold-search';
import type { Embedder } from './embeddings';
import { blobToVec, dot, vecToBlob } from './embeddings';
import type { Database } from './sqljs';
import { queryAll } from './sqljs';

export const RRF_K = 60;

/** Which sessions the agent's memory search reads: this workspace's (default) or every workspace's. */
export type MemoryScope = 'workspace' | 'all';

/** The key a workspace's sessions are stored under: its folders' paths, sorted, one per line. */
export function workspaceKey(folders: readonly string[]): string {
  return [...folders].sort().join('\n');
}

/** `AND s.workspace = ?` when the search is scoped (a NULL workspace — sessions before v6 — never matches). */
function workspaceFilter(workspace: string | undefined): { sql: string; params: string[] } {
  return workspace === undefined ? { sql: '', params: [] } : { sql: ' AND s.workspace = ?', params: [workspace] };
}

export interface MemoryHit {
  sessionId: string;
  title: string;
  messageId: string;
  excerpt: string;
  /** Fused RRF score with vectors, BM25 score without; higher is better. */
  score: number;
  bm25Rank?: number;
  vectorRank?: number;
}

export interface MemorySearchOptions {
  limit?: number;
  excludeSessionId?: string;
  /**
   * Only sessions of this workspace (sessions.workspace); undefined searches every session. The
   * store fills it with its own workspace unless `scope: 'all'` (see SessionStore.searchMemory).
   */
  workspace?: string;
  /** `'all'` widens the store's default (this workspace's sessions) to every workspace's. */
  scope?: MemoryScope;
  /** Candidates taken from each ranking before fusion. */
  candidates?: number;
  /** Chunks without a vector embedded per search at most (the rest wait for later searches). */
  maxEmbedPerSearch?: number;
  signal?: AbortSignal;
}

export function queryTerms(query: string, max = 32): string[] {
  return [
    ...new Set((query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).filter((t) => t.length > 1 || /\d/.test(t))),
  ].slice(0, max);
}

/** An FTS4 MATCH expression with every term quoted (so user text can never be query syntax). */
export function ftsQuery(query: string, op: 'AND' | 'OR'): string {
  const terms = queryTerms(query);
  return terms.map((t) => `"${t}"`).join(op === 'AND' ? ' ' : ' OR ');
}

export function excerptOf(text: string, terms: string[], width = 240): string {
  const lower = text.toLowerCase();
  let at = -1;
  for (const t of terms) {
    // Porter stems: "testing" matches "test", so look for the first few letters too.
    const i = lower.indexOf(t.length > 5 ? t.slice(0, Math.max(4, t.length - 3)) : t);
    if (i !== -1 && (at === -1 || i < at)) at = i;
  }
  const start = Math.max(0, at === -1 ? 0 : at - Math.floor(width / 3));
  const end = Math.min(text.length, start + width);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
}

interface Candidate {
  chunkId: number;
  sessionId: string;
  messageId: string;
  title: string;
  text: string;
  bm25?: number;
  bm25Rank?: number;
  vectorRank?: number;
}

/** The hot full-text index's row count and total tokens (FTS4 keeps them in memory_fts_stat, as varints). */
function hotStats(db: Database): { n: number; tokens: number } {
  const blob = queryAll(db, 'SELECT value FROM memory_fts_stat WHERE id = 0')[0]?.value;
  if (!(blob instanceof Uint8Array)) return { n: 0, tokens: 0 };
  const out: number[] = [];
  let v = 0;
  let mul = 1;
  for (const b of blob) {
    v += (b & 0x7f) * mul;
    mul *= 0x80;
    if (b < 0x80) {
      out.push(v);
      v = 0;
      mul = 1;
      if (out.length === 2) break;
    }
  }
  return { n: out[0] ?? 0, tokens: out[1] ?? 0 };
}

/** Per quoted phrase of `match`, how many hot rows hold it (whatever the session filters). */
function hotDf(db: Database, match: string, phrases: number): number[] {
  const blob = queryAll(
    db,
    "SELECT matchinfo(memory_fts, 'pcx') AS mi FROM memory_fts WHERE memory_fts MATCH ? LIMIT 1",
    [match],
  )[0]?.mi;
  if (!(blob instanceof Uint8Array)) return Array.from({ length: phrases }, () => 0);
  const w = matchinfoWords(blob);
  return Array.from({ length: phrases }, (_, i) => w[2 + 3 * i + 2]);
}

function bm25Candidates(
  db: Database,
  query: string,
  exclude: string,
  n: number,
  workspace?: string,
  cold?: ColdSearch,
): Candidate[] {
  const match = ftsQuery(query, 'OR');
  if (!match) return [];
  const ws = workspaceFilter(workspace);
  const terms = queryTerms(query);
  const phrases = withTokenizer(db, (tokenize) => terms.map((t) => tokenize(t)));
  const coldPart = cold?.query(db, phrases) ?? { n: 0, tokens: 0, df: terms.map(() => 0), hits: [] };
  const hot = hotStats(db);
  const corpus: CorpusExtra = {
    n: coldPart.n,
    avg: (hot.tokens + coldPart.tokens) / Math.max(1, hot.n + coldPart.n),
    df: coldPart.df,
  };
  const hotList: Candidate[] = queryAll(
    db,
    `SELECT c.id, c.session_id, c.message_id, s.title, c.text,
            sextant_bm25_with(matchinfo(memory_fts, 'pcnalx'), ?) AS score
       FROM memory_fts JOIN memory_chunks c ON c.id = memory_fts.rowid JOIN sessions s ON s.id = c.session_id
      WHERE memory_fts MATCH ? AND s.deleted_at IS NULL AND c.session_id != ?${ws.sql}
      ORDER BY score DESC, c.id DESC LIMIT ?`,
    [JSON.stringify(corpus), match, exclude, ...ws.params, n],
  ).map((r) => ({
    chunkId: Number(r.id),
    sessionId: String(r.session_id),
    messageId: String(r.message_id),
    title: String(r.title),
    text: String(r.text),
    bm25: Number(r.score),
  }));
  if (coldPart.hits.length === 0) return hotList.map((c, i) => ({ ...c, bm25Rank: i + 1 }));
  // Cold chunks, scored with the same statistics: hot and cold rows together.
  const df = hotDf(db, match, terms.length).map((d, i) => d + coldPart.df[i]);
  const total = hot.n + coldPart.n;
  const allowed = new Map(
    queryAll(
      db,
      `SELECT s.id, s.title FROM sessions s WHERE s.id IN (SELECT value FROM json_each(?))
          AND s.deleted_at IS NULL AND s.id != ?${ws.sql}`,
      [JSON.stringify([...new Set(coldPart.hits.map((h) => h.sessionId))]), exclude, ...ws.params],
    ).map((r) => [String(r.id), String(r.title)]),
  );
  const coldList: Candidate[] = [];
  for (const [k, h] of coldPart.hits.entries()) {
    const title = allowed.get(h.sessionId);
    if (title === undefined) continue;
    const score = h.tf.reduce((sum, tf, i) => (tf > 0 ? sum + bm25Term(tf, df[i], total, h.len, corpus.avg) : sum), 0);
    // Negative ids: never a hot chunk's; on equal scores a hot chunk comes first.
    coldList.push({ chunkId: -1 - k, sessionId: h.sessionId, messageId: '', title, text: '', bm25: score });
  }
  return [...hotList, ...coldList]
    .sort((a, b) => (b.bm25 ?? 0) - (a.bm25 ?? 0) || b.chunkId - a.chunkId)
    .slice(0, n)
    .map((c, i) => ({ ...c, bm25Rank: i + 1 }));
}

/** Embeds chunks that have no vector yet for this model. Returns false when the db changed meanwhile. */
async function fillVectors(
  getDb: () => Database,
  embedder: Embedder,
  max: number,
  signal?: AbortSignal,
): Promise<boolean> {
  const db = getDb();
  const missing = queryAll(
    db,
    `SELECT c.id, c.text FROM memory_chunks c LEFT JOIN chunk_vectors v ON v.chunk_id = c.id AND v.model = ?
      WHERE v.chunk_id IS NULL AND c.text != '' ORDER BY c.id DESC LIMIT ?`,
    [embedder.model, max],
  );
  if (missing.length === 0) return true;
  const vecs = await embedder.embed(
    missing.map((r) => String(r.text)),
    signal,
  );
  // A snapshot by another window may have swapped the database: chunk ids would not match.
  if (getDb() !== db) return false;
  db.exec('BEGIN');
  for (const [i, r] of missing.entries()) {
    db.run('INSERT OR REPLACE INTO chunk_vectors (chunk_id, model, vec) VALUES (?, ?, ?)', [
      Number(r.id),
      embedder.model,
      vecToBlob(vecs[i]),
    ]);
  }
  db.exec('COMMIT');
  return true;
}

function vectorCandidates(
  db: Database,
  model: string,
  q: Float32Array,
  exclude: string,
  n: number,
  workspace?: string,
): Candidate[] {
  const scored: Array<Candidate & { sim: number }> = [];
  const ws = workspaceFilter(workspace);
  for (const r of queryAll(
    db,
    `SELECT c.id, c.session_id, c.message_id, s.title, c.text, v.vec FROM chunk_vectors v
       JOIN memory_chunks c ON c.id = v.chunk_id JOIN sessions s ON s.id = c.session_id
      WHERE v.model = ? AND s.deleted_at IS NULL AND c.session_id != ?${ws.sql}`,
    [model, exclude, ...ws.params],
  )) {
    scored.push({
      chunkId: Number(r.id),
      sessionId: String(r.session_id),
      messageId: String(r.message_id),
      title: String(r.title),
      text: String(r.text),
      sim: dot(q, blobToVec(r.vec as Uint8Array)),
    });
  }
  // Cold sessions keep one vector each (the centroid of their chunks' vectors).
  for (const [k, r] of queryAll(
    db,
    `SELECT v.session_id, s.title, v.vec FROM cold_vectors v JOIN sessions s ON s.id = v.session_id
      WHERE v.model = ? AND s.deleted_at IS NULL AND s.cold_file IS NOT NULL AND v.session_id != ?${ws.sql}`,
    [model, exclude, ...ws.params],
  ).entries())
    scored.push({
      chunkId: -1_000_000_000 - k,
      sessionId: String(r.session_id),
      messageId: '',
      title: String(r.title),
      text: '',
      sim: dot(q, blobToVec(r.vec as Uint8Array)),
    });
  scored.sort((a, b) => b.sim - a.sim || b.chunkId - a.chunkId);
  return scored.slice(0, n).map((c, i) => ({ ...c, vectorRank: i + 1 }));
}

export async function searchMemory(
  getDb: () => Database,
  query: string,
  opts: MemorySearchOptions & { embedder?: Embedder; log?: Logger; cold?: ColdSearch } = {},
): Promise<MemoryHit[]> {
  const limit = Math.max(1, Math.min(opts.limit ?? 8, 50));
  const n = opts.candidates ?? 50;
  const exclude = opts.excludeSessionId ?? '';
  const terms = queryTerms(query);
  let vectorList: Candidate[] = [];
  if (opts.embedder && query.trim()) {
    try {
      await fillVectors(getDb, opts.embedder, opts.maxEmbedPerSearch ?? 512, opts.signal);
      const [qv] = await opts.embedder.embed([query], opts.signal);
      vectorList = vectorCandidates(getDb(), opts.embedder.model, qv, exclude, n, opts.workspace);
    } catch (err) {
      // Degrade to BM25 alone: a search must not fail because the embedding server is down.
      opts.log?.warn(`memory search: embeddings unavailable (${(err as Error).message}); using BM25 alone`);
      vectorList = [];
    }
  }
  const bm25List = bm25Candidates(getDb(), query, exclude, n, opts.workspace, opts.cold);
  const byChunk = new Map<number, Candidate>();
  for (const c of [...bm25List, ...vectorList]) {
    const prev = byChunk.get(c.chunkId);
    byChunk.set(
      c.chunkId,
      prev ? { ...prev, ...c, bm25: prev.bm25 ?? c.bm25, bm25Rank: prev.bm25Rank ?? c.bm25Rank } : c,
    );
  }
  const fused = vectorList.length > 0;
  const scored = [...byChunk.values()].map((c) => ({
    c,
    score: fused
      ? (c.bm25Rank ? 1 / (RRF_K + c.bm25Rank) : 0) + (c.vectorRank ? 1 / (RRF_K + c.vectorRank) : 0)
      : (c.bm25 ?? 0),
  }));
  scored.sort((a, b) => b.score - a.score || b.c.chunkId - a.c.chunkId);
  const seen = new Set<string>();
  const hits: MemoryHit[] = [];
  for (const { c, score } of scored) {
    if (seen.has(c.sessionId)) continue;
    seen.add(c.sessionId);
    const hit: MemoryHit = {
      sessionId: c.sessionId,
      title: c.title,
      messageId: c.messageId,
      excerpt: excerptOf(c.text, terms),
      score,
    };
    if (c.bm25Rank) hit.bm25Rank = c.bm25Rank;
    if (c.vectorRank) hit.vectorRank = c.vectorRank;
    hits.push(hit);
    if (hits.length >= limit) break;
  }
  return hits;
}
