// The search index of cold sessions: immutable segment files in `search/`, outside the in-memory
// database, read lazily per query with positioned reads. The hot full-text index (FTS4 in sql.js) keeps
// only hot sessions' chunks, so the database no longer grows with the number of cold sessions.
//
// A segment indexes the same documents FTS4 indexed while the sessions were hot — each message's chunks
// (memory-index.ts `chunkText`), tokenized by SQLite's own porter tokenizer (fts3tokenize) — so a chunk
// scores the same BM25 hot or cold and the two are ranked together (cold-search.ts).
//
// The format: cold-index-format.ts; reading a segment: cold-index-reader.ts. This file builds segments
// and writes them; a file is never rewritten in place (its name is its bytes' hash).
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import {
  type Header,
  MAGIC,
  PREFIX,
  SEARCH_DIR,
  SEGMENT_FORMAT,
  SPARSE_EVERY,
  sha,
  sum16,
  sum32,
  varint,
} from './cold-index-format';
import { fsyncDir, makePrivateDir, writePrivateFileAtomically } from './private-files';

export { SEARCH_DIR, SEGMENT_FORMAT } from './cold-index-format';
export { DamagedSegmentError, SegmentReader, segmentVersion, verifySegment } from './cold-index-reader';

/** One session's chunks as the index sees them: each chunk's tokens. */
export interface IndexedSession {
  id: string;
  /** The cold file the chunks come from (a posting counts only while the session is still that file). */
  cold: string;
  chunks: string[][];
}

/** What a segment holds, in memory (to write one, or while merging segments). */
export interface SegmentData {
  sessions: Array<{ id: string; cold: string; lens: number[] }>;
  /** term → [chunk number, term frequency] pairs, by increasing chunk number. */
  postings: Map<string, Array<[number, number]>>;
}

export function segmentData(sessions: readonly IndexedSession[]): SegmentData {
  const data: SegmentData = { sessions: [], postings: new Map() };
  let chunkNo = 0;
  for (const s of sessions) {
    const lens: number[] = [];
    for (const tokens of s.chunks) {
      lens.push(tokens.length);
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, n] of tf) {
        const list = data.postings.get(t) ?? [];
        data.postings.set(t, list);
        list.push([chunkNo, n]);
      }
      chunkNo++;
    }
    data.sessions.push({ id: s.id, cold: s.cold, lens });
  }
  return data;
}

/** The file's bytes for `data` (version 2). */
export function encodeSegment(data: SegmentData): Buffer {
  const sessions: Header['sessions'] = [];
  const lens: number[] = [];
  for (const s of data.sessions) {
    sessions.push([s.id, s.cold, lens.length]);
    lens.push(...s.lens);
  }
  const terms = [...data.postings.keys()].sort();
  const dict: number[] = [];
  const post: number[] = [];
  const sparse: Header['sparse'] = [];
  for (const [k, term] of terms.entries()) {
    if (k % SPARSE_EVERY === 0) sparse.push([term, dict.length]);
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
    const check = Buffer.alloc(4);
    check.writeUInt32LE(sum32(Uint8Array.from(post.slice(start))));
    dict.push(...check);
  }
  const dictBuf = Buffer.from(dict);
  for (const [k, entry] of sparse.entries())
    entry[2] = sum16(dictBuf.subarray(entry[1], k + 1 < sparse.length ? sparse[k + 1][1] : dictBuf.length));
  const lensBuf = Buffer.alloc(lens.length * 2);
  for (const [i, n] of lens.entries()) lensBuf.writeUInt16LE(Math.min(n, 0xffff), i * 2);
  // Offsets in the header depend on its own length: fix the sections' relative offsets, then shift.
  const header = (base: number): Header => ({
    v: SEGMENT_FORMAT,
    sessions,
    chunks: lens.length,
    lensAt: base,
    dictAt: base + lensBuf.length,
    dictEnd: base + lensBuf.length + dictBuf.length,
    size: base + lensBuf.length + dictBuf.length + post.length,
    lensSum: sum16(lensBuf),
    sparse,
  });
  let base = 0;
  let json = Buffer.alloc(0);
  for (let guess = PREFIX; ; ) {
    json = Buffer.from(JSON.stringify(header(guess)), 'utf8');
    base = PREFIX + json.length;
    if (base === guess) break;
    guess = base;
  }
  const head = Buffer.alloc(PREFIX);
  MAGIC.copy(head, 0);
  head.writeUInt32LE(json.length, 8);
  sha(json).copy(head, 12, 0, 8);
  return Buffer.concat([head, json, lensBuf, dictBuf, Buffer.from(post)]);
}

export function segmentName(bytes: Uint8Array): string {
  return `${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.idx`;
}

/** Writes a segment durably (temp file, fsync, rename, folder fsync); returns its name. */
export function writeSegment(dir: string, data: SegmentData): { name: string; bytes: number } {
  const bytes = encodeSegment(data);
  const name = segmentName(bytes);
  const folder = join(dir, SEARCH_DIR);
  makePrivateDir(folder);
  const file = join(folder, name);
  writePrivateFileAtomically(file, bytes);
  fsyncDir(folder);
  return { name, bytes: bytes.length };
}
