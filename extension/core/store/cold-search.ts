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
import { queryAll } from './sqljs';

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

interface LiveRow {
  segment: string;
  cold: string;
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

  private live(db: Database): { bySegment: Map<string, Map<string, LiveRow>>; n: number; tokens: number } {
    const bySegment = new Map<string, Map<string, LiveRow>>();
    let n = 0;
    let tokens = 0;
    for (const r of queryAll(
      db,
      `SELECT c.session_id, c.segment, c.chunks, c.tokens, s.cold_file FROM cold_search c
         JOIN sessions s ON s.id = c.session_id WHERE s.cold_file IS NOT NULL`,
    )) {
      const seg = String(r.segment);
      const m = bySegment.get(seg) ?? new Map<string, LiveRow>();
      bySegment.set(seg, m);
      m.set(String(r.session_id), { segment: seg, cold: String(r.cold_file) });
      n += Number(r.chunks);
      tokens += Number(r.tokens);
    }
    return { bySegment, n, tokens };
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
    const { bySegment, n, tokens } = this.live(db);
    const df = phrases.map(() => 0);
    const hits: ColdChunkHit[] = [];
    for (const [name, sessions] of bySegment) {
      // Counted only once the segment was read whole: a damaged one is rebuilt and the query runs again.
      const found = this.withSegment(name, (r) => {
        const segDf = phrases.map(() => 0);
        const perChunk = new Map<number, number[]>();
        phrases.forEach((tokens, p) => {
          for (const [chunk, tf] of phrasePostings(r, tokens)) {
            const [id, cold] = r.sessions[r.sessionOf(chunk)];
            if (sessions.get(id)?.cold !== cold) continue;
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
    for (const [name, sessions] of this.live(db).bySegment) {
      const common = this.withSegment(name, (r) => {
        let common: Set<string> | undefined;
        for (const tokens of phrases) {
          const has = new Set<string>();
          for (const [chunk] of phrasePostings(r, tokens)) {
            const [id, cold] = r.sessions[r.sessionOf(chunk)];
            if (sessions.get(id)?.cold === cold) has.add(id);
          }
          common = common ? new Set([...common].filter((id) => has.has(id))) : has;
          if (common.size === 0) break;
        }
        return common;
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
