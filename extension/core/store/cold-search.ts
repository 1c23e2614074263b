// Searching the cold sessions' segment files (cold-index.ts) together with the hot FTS4 index, as one
// BM25 ranking. The database says which postings count: `cold_search` names, per cold session, the
// segment holding its chunks (with their count and total tokens); a posting of a session that was
// warmed, purged or indexed again elsewhere is ignored. The corpus statistics (chunks, average length,
// chunks per term) are those of hot and cold together, so a chunk scores the same either side.
import type { ChatMessage } from '../../protocol';
import type { Logger } from '../ports';
import { chunkText } from './memory-index';
import { messageText } from './message-rows';
import { DamagedSegmentError, type IndexedSession, SegmentReader, verifySegment } from './cold-index';
import type { Database } from './sqljs';
import { queryAll, queryOne } from './sqljs';

/** SQLite's porter tokenizer (the one memory_fts uses), for indexing cold chunks and query terms. */
export function withTokenizer<T>(db: Database, fn: (tokenize: (text: string) => string[]) => T): T {
  // A temp table: never part of a snapshot (export() writes the main database only).
  db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.sextant_tokens USING fts3tokenize(porter)');
  // One row per text, joined inside SQLite: a row per token costs twice as much through sql.js. A space
  // never occurs inside a token (ASCII non-alphanumerics separate tokens).
  const stmt = db.prepare("SELECT group_concat(token, ' ') FROM temp.sextant_tokens WHERE input = ?");
  try {
    return fn((text) => {
      stmt.bind([text]);
      const joined = stmt.step() ? stmt.get()[0] : null;
      stmt.reset();
      return typeof joined === 'string' && joined ? joined.split(' ') : [];
    });
  } finally {
    stmt.free();
  }
}

/** A session's search chunks, in the order the hot index made them (finished messages, in order). */
export function sessionChunks(messages: readonly ChatMessage[]): Array<{ messageId: string; text: string }> {
  return messages
    .filter((m) => m.status !== 'streaming')
    .flatMap((m) => chunkText(messageText(m)).map((text) => ({ messageId: m.id, text })));
}

export function indexSession(
  id: string,
  cold: string,
  messages: readonly ChatMessage[],
  tokenize: (t: string) => string[],
): IndexedSession {
  return { id, cold, chunks: sessionChunks(messages).map((c) => tokenize(c.text)) };
}

/** A cold chunk that holds at least one query phrase. */
export interface ColdChunkHit {
  sessionId: string;
  /** The chunk's place among its session's chunks (sessionChunks order). */
  ordinal: number;
  /** Occurrences of each phrase (a phrase of several tokens: the fewest of its tokens, positions are not kept). */
  tf: number[];
  len: number;
}

export interface ColdResult {
  /** Live cold chunks, their total tokens, and per phrase how many live cold chunks hold it. */
  n: number;
  tokens: number;
  df: number[];
  hits: ColdChunkHit[];
}

export class ColdSearch {
  /** Segments checked against their names in this window (a segment is immutable). */
  private readonly verified = new Set<string>();

  constructor(
    private readonly dir: string,
    private readonly log: Logger,
    /** A damaged segment: rebuild what it held (called at most once per segment per query). */
    private readonly onDamaged: (segment: string) => void,
  ) {}

  /**
   * The live cold corpus: its chunks and tokens (summed by SQLite) and the segments naming a live session.
   * Which sessions are live is asked per segment, for the sessions its postings name (liveIn): the work
   * follows the hits, not the number of cold sessions (a query at 2,600 cold sessions built 8 MB of rows).
   */
  private corpus(db: Database): { segments: string[]; n: number; tokens: number } {
    const live = 'FROM cold_search c JOIN sessions s ON s.id = c.session_id WHERE s.cold_file IS NOT NULL';
    const totals = queryOne(db, `SELECT coalesce(sum(c.chunks), 0) AS n, coalesce(sum(c.tokens), 0) AS t ${live}`);
    const segments = queryAll(db, `SELECT DISTINCT c.segment ${live} ORDER BY c.segment`).map((r) => String(r.segment));
    return { segments, n: Number(totals?.n ?? 0), tokens: Number(totals?.t ?? 0) };
  }

  /** Of the sessions `r` holds at `indexes`, those still cold in the file the segment indexed (id → true). */
  private liveIn(db: Database, r: SegmentReader, indexes: Iterable<number>): Set<string> {
    const named = new Map<string, string>();
    for (const k of indexes) named.set(r.sessions[k][0], r.sessions[k][1]);
    if (named.size === 0) return new Set();
    const rows = queryAll(
      db,
      `SELECT c.session_id, s.cold_file FROM cold_search c JOIN sessions s ON s.id = c.session_id
        WHERE c.segment = ? AND s.cold_file IS NOT NULL AND c.session_id IN (SELECT value FROM json_each(?))`,
      [r.name, JSON.stringify([...named.keys()])],
    );
    return new Set(
      rows
        .filter((row) => named.get(String(row.session_id)) === String(row.cold_file))
        .map((row) => String(row.session_id)),
    );
  }

  /** Segments found damaged (and rebuilt) during the current query: it runs once more over the new ones. */
  private damaged = 0;

  /**
   * Runs `fn` over a segment; undefined, after reporting it, when the segment is damaged. A version 2
   * segment checks each part as `fn` reads it; a version 1 segment is hashed whole once per window first.
   */
  private withSegment<T>(name: string, fn: (r: SegmentReader) => T): T | undefined {
    let r: SegmentReader | undefined;
    try {
      r = new SegmentReader(this.dir, name);
      if (r.version === 1 && !this.verified.has(name)) {
        verifySegment(this.dir, name);
        this.verified.add(name);
      }
      return fn(r);
    } catch (err) {
      if (!(err instanceof DamagedSegmentError) && (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      // Closed before the rebuild, which may write a file of the same name (Windows keeps an open file).
      r?.close();
      r = undefined;
      this.verified.delete(name);
      this.log.error(`store: ${(err as Error).message}; rebuilding it from the cold session files`);
      this.damaged++;
      this.onDamaged(name);
      return undefined;
    } finally {
      r?.close();
    }
  }

  /** Forgets that a segment was checked (it was rebuilt or deleted). */
  forget(name: string): void {
    this.verified.delete(name);
  }

  /** Every live cold chunk holding at least one of `phrases` (each a list of tokens), with the statistics. */
  query(db: Database, phrases: readonly string[][], retried = false): ColdResult {
    this.damaged = 0;
    const { segments, n, tokens } = this.corpus(db);
    const df = phrases.map(() => 0);
    const hits: ColdChunkHit[] = [];
    for (const name of segments) {
      // Counted only once the segment was read whole: a damaged one is rebuilt and the query runs again.
      const found = this.withSegment(name, (r) => {
        const perPhrase = phrases.map((tokens) => phrasePostings(r, tokens));
        const live = this.liveIn(
          db,
          r,
          new Set(perPhrase.flatMap((list) => list.map(([chunk]) => r.sessionOf(chunk)))),
        );
        const segDf = phrases.map(() => 0);
        const perChunk = new Map<number, number[]>();
        perPhrase.forEach((list, p) => {
          for (const [chunk, tf] of list) {
            if (!live.has(r.sessions[r.sessionOf(chunk)][0])) continue;
            segDf[p]++;
            const row = perChunk.get(chunk) ?? phrases.map(() => 0);
            perChunk.set(chunk, row);
            row[p] = tf;
          }
        });
        const segHits: ColdChunkHit[] = [];
        if (perChunk.size === 0) return { segDf, segHits };
        const lens = r.lengths();
        for (const [chunk, tf] of perChunk) {
          const k = r.sessionOf(chunk);
          segHits.push({ sessionId: r.sessions[k][0], ordinal: chunk - r.sessions[k][2], tf, len: lens[chunk] });
        }
        return { segDf, segHits };
      });
      if (!found) continue;
      found.segDf.forEach((count, p) => {
        df[p] += count;
      });
      hits.push(...found.segHits);
    }
    if (this.damaged > 0 && !retried) return this.query(db, phrases, true);
    return { n, tokens, df, hits };
  }

  /** Cold sessions holding every phrase somewhere (the history list's content filter). */
  sessionsWithAll(db: Database, phrases: readonly string[][], retried = false): Set<string> {
    this.damaged = 0;
    const out = new Set<string>();
    if (phrases.length === 0) return out;
    for (const name of this.corpus(db).segments) {
      const common = this.withSegment(name, (r) => {
        let common: Set<number> | undefined;
        for (const tokens of phrases) {
          const has = new Set(phrasePostings(r, tokens).map(([chunk]) => r.sessionOf(chunk)));
          common = common ? new Set([...common].filter((k) => has.has(k))) : has;
          if (common.size === 0) break;
        }
        return this.liveIn(db, r, common ?? []);
      });
      for (const id of common ?? []) out.add(id);
    }
    if (this.damaged > 0 && !retried) return this.sessionsWithAll(db, phrases, true);
    return out;
  }
}

/** Chunks holding every token of a phrase, with the fewest occurrences among its tokens. */
function phrasePostings(r: SegmentReader, tokens: readonly string[]): Array<[number, number]> {
  if (tokens.length === 0) return [];
  let acc = new Map(r.postings(tokens[0]));
  for (const t of tokens.slice(1)) {
    const next = new Map<number, number>();
    for (const [chunk, tf] of r.postings(t)) {
      const prev = acc.get(chunk);
      if (prev !== undefined) next.set(chunk, Math.min(prev, tf));
    }
    acc = next;
  }
  return [...acc];
}
