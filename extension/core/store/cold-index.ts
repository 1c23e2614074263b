// The search index of cold sessions: immutable segment files in `search/`, outside the in-memory
// database, read lazily per query with positioned reads. The hot full-text index (FTS4 in sql.js) keeps
// only hot sessions' chunks, so the database no longer grows with the number of cold sessions.
//
// A segment indexes the same documents FTS4 indexed while the sessions were hot — each message's chunks
// (memory-index.ts `chunkText`), tokenized by SQLite's own porter tokenizer (fts3tokenize) — so a chunk
// scores the same BM25 hot or cold and the two are ranked together (cold-search.ts).
//
// Layout (integers little-endian; varints LEB128):
//   "SXCIDX1\n" · u32 header length · header JSON · chunk lengths (u16 per chunk) · dictionary · postings
// The header lists the sessions (id, cold file, first chunk number), the totals and a sparse index of the
// dictionary (every 64th term and its offset). A dictionary entry: term length, term (UTF-8), chunk count,
// postings offset, postings length. A posting: (gap × 2 + (tf > 1)), then tf when over 1.
// The name is the first 16 hex digits of the file's SHA-256: a file is never rewritten in place, and a
// torn or damaged one is detected (checked once per window before its first use).
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { fsyncDir, makePrivateDir, writePrivateFileAtomically } from './private-files';

export const SEARCH_DIR = 'search';
const MAGIC = Buffer.from('SXCIDX1\n', 'latin1');
const SPARSE_EVERY = 64;
const NAME = /^[0-9a-f]{16}\.idx$/;

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

interface Header {
  v: 1;
  sessions: Array<[id: string, cold: string, firstChunk: number]>;
  chunks: number;
  lensAt: number;
  dictAt: number;
  dictEnd: number;
  sparse: Array<[term: string, offset: number]>;
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

function varint(out: number[], n: number): void {
  let v = n;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

function readVarint(buf: Uint8Array, at: { i: number }): number {
  let v = 0;
  let mul = 1;
  for (;;) {
    if (at.i >= buf.length) throw new Error('a number runs past the end of its section');
    const b = buf[at.i++];
    v += (b & 0x7f) * mul;
    if (b < 0x80) return v;
    mul *= 0x80;
  }
}

/** The file's bytes for `data`. */
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
  }
  const lensBuf = Buffer.alloc(lens.length * 2);
  for (const [i, n] of lens.entries()) lensBuf.writeUInt16LE(Math.min(n, 0xffff), i * 2);
  // Offsets in the header depend on its own length: fix the sections' relative offsets, then shift.
  const header = (base: number): Header => ({
    v: 1,
    sessions,
    chunks: lens.length,
    lensAt: base,
    dictAt: base + lensBuf.length,
    dictEnd: base + lensBuf.length + dict.length,
    sparse,
  });
  let base = 0;
  let json = '';
  for (let guess = 12; ; ) {
    json = JSON.stringify(header(guess));
    base = 12 + Buffer.byteLength(json);
    if (base === guess) break;
    guess = base;
  }
  const head = Buffer.alloc(12);
  MAGIC.copy(head, 0);
  head.writeUInt32LE(Buffer.byteLength(json), 8);
  return Buffer.concat([head, Buffer.from(json, 'utf8'), lensBuf, Buffer.from(dict), Buffer.from(post)]);
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

export class DamagedSegmentError extends Error {}

/** Whether the file's bytes still hash to its name (streamed: the file is never held whole). */
export function verifySegment(dir: string, name: string): void {
  if (!NAME.test(name)) throw new DamagedSegmentError(`bad search index file name ${name}`);
  const file = join(dir, SEARCH_DIR, name);
  const hash = createHash('sha256');
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (err) {
    throw new DamagedSegmentError(`search index file ${file} cannot be read: ${(err as Error).message}`);
  }
  try {
    const buf = Buffer.alloc(1 << 16);
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      hash.update(buf.subarray(0, n));
    }
  } finally {
    fs.closeSync(fd);
  }
  if (`${hash.digest('hex').slice(0, 16)}.idx` !== name)
    throw new DamagedSegmentError(`search index file ${file} is damaged (its bytes do not match its name)`);
}

/** One segment opened for a query: the header is read at once, everything else on demand. */
export class SegmentReader {
  private readonly fd: number;
  private readonly header: Header;
  private readonly firstChunks: number[];

  constructor(
    dir: string,
    readonly name: string,
  ) {
    const file = join(dir, SEARCH_DIR, name);
    this.fd = fs.openSync(file, 'r');
    try {
      const head = this.read(0, 12);
      if (head.length < 12 || !head.subarray(0, 8).equals(MAGIC))
        throw new DamagedSegmentError(`search index file ${file} is not a search index`);
      const json = this.read(12, head.readUInt32LE(8)).toString('utf8');
      this.header = JSON.parse(json) as Header;
      if (this.header.v !== 1) throw new DamagedSegmentError(`search index file ${file} has an unknown version`);
    } catch (err) {
      fs.closeSync(this.fd);
      throw err instanceof DamagedSegmentError
        ? err
        : new DamagedSegmentError(`search index file ${file} cannot be read: ${(err as Error).message}`);
    }
    this.firstChunks = this.header.sessions.map((s) => s[2]);
  }

  close(): void {
    fs.closeSync(this.fd);
  }

  private read(at: number, length: number): Buffer {
    const buf = Buffer.alloc(length);
    let off = 0;
    while (off < length) {
      const n = fs.readSync(this.fd, buf, off, length - off, at + off);
      if (n === 0) break;
      off += n;
    }
    return off === length ? buf : buf.subarray(0, off);
  }

  get sessions(): ReadonlyArray<readonly [string, string, number]> {
    return this.header.sessions;
  }

  get chunkCount(): number {
    return this.header.chunks;
  }

  /** Index (in `sessions`) of the session chunk `n` belongs to. */
  sessionOf(n: number): number {
    let lo = 0;
    let hi = this.firstChunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.firstChunks[mid] <= n) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Every chunk's length in tokens. */
  lengths(): Uint16Array {
    const buf = this.read(this.header.lensAt, this.header.chunks * 2);
    const out = new Uint16Array(this.header.chunks);
    for (let i = 0; i < out.length; i++) out[i] = buf.readUInt16LE(i * 2);
    return out;
  }

  /** The dictionary entries of the block that may hold `term` (or every entry). */
  private dictionary(from: number, to: number): Array<{ term: string; df: number; at: number; len: number }> {
    const buf = this.read(this.header.dictAt + from, to - from);
    const at = { i: 0 };
    const out: Array<{ term: string; df: number; at: number; len: number }> = [];
    while (at.i < buf.length) {
      const n = readVarint(buf, at);
      const term = buf.subarray(at.i, at.i + n).toString('utf8');
      at.i += n;
      out.push({ term, df: readVarint(buf, at), at: readVarint(buf, at), len: readVarint(buf, at) });
    }
    return out;
  }

  /** Every term of the segment, in order (for merging). */
  terms(): string[] {
    return this.dictionary(0, this.header.dictEnd - this.header.dictAt).map((e) => e.term);
  }

  /** The postings of `term`: [chunk number, term frequency] pairs; empty when the segment lacks it. */
  postings(term: string): Array<[number, number]> {
    const sparse = this.header.sparse;
    let lo = 0;
    let hi = sparse.length - 1;
    if (hi < 0 || term < sparse[0][0]) return [];
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (sparse[mid][0] <= term) lo = mid;
      else hi = mid - 1;
    }
    const end = lo + 1 < sparse.length ? sparse[lo + 1][1] : this.header.dictEnd - this.header.dictAt;
    const entry = this.dictionary(sparse[lo][1], end).find((e) => e.term === term);
    if (!entry) return [];
    const buf = this.read(this.header.dictEnd + entry.at, entry.len);
    const at = { i: 0 };
    const out: Array<[number, number]> = [];
    let prev = -1;
    while (at.i < buf.length) {
      const code = readVarint(buf, at);
      const chunk = prev + Math.floor(code / 2);
      out.push([chunk, code % 2 === 1 ? readVarint(buf, at) : 1]);
      prev = chunk;
    }
    if (out.length !== entry.df)
      throw new DamagedSegmentError(`search index file ${this.name}: postings of a term are cut`);
    return out;
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
      for (const term of r.terms()) {
        const kept = r
          .postings(term)
          .flatMap(([c, tf]): Array<[number, number]> => (remap[c] >= 0 ? [[remap[c], tf]] : []));
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
