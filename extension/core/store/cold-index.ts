// The search index of cold sessions: immutable segment files in `search/`, outside the in-memory
// database, read lazily per query with positioned reads. The hot full-text index (FTS4 in sql.js) keeps
// only hot sessions' chunks, so the database no longer grows with the number of cold sessions.
//
// A segment indexes the same documents FTS4 indexed while the sessions were hot — each message's chunks
// (memory-index.ts `chunkText`), tokenized by SQLite's own porter tokenizer (fts3tokenize) — so a chunk
// scores the same BM25 hot or cold and the two are ranked together (cold-search.ts).
//
// Layout (integers little-endian; varints LEB128), version 2:
//   "SXCIDX2\n" · u32 header length · 8 bytes: SHA-256 of the header (first 8) · header JSON ·
//   chunk lengths (u16 per chunk) · dictionary · postings
// The header lists the sessions (id, cold file, first chunk number), the totals, the file's size, a checksum
// of the chunk lengths and a sparse index of the dictionary (every 64th term, its offset and the checksum
// of its block of 64 entries). A dictionary entry: term length, term (UTF-8), chunk count, postings offset,
// postings length, u32 checksum of those postings. A posting: (gap × 2 + (tf > 1)), then tf when over 1.
// Every byte belongs to exactly one checked part, and each part is checked when it is read, before use:
// opening checks the header and the size (a torn file is cut short), a lookup its dictionary block and the
// term's postings. So no search reads a whole segment to trust it, and a damaged part is still never used.
// Version 1 (no checksums inside: "SXCIDX1\n", no header digest, entries without a checksum) is still
// read; it is hashed whole once per window before its first use, and rewritten as version 2 by upkeep.
// The name is the first 16 hex digits of the file's SHA-256: a file is never rewritten in place.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { fsyncDir, makePrivateDir, writePrivateFileAtomically } from './private-files';

export const SEARCH_DIR = 'search';
/** The format segments are written in (the version in their header). */
export const SEGMENT_FORMAT = 2;
const MAGIC_V1 = Buffer.from('SXCIDX1\n', 'latin1');
const MAGIC = Buffer.from('SXCIDX2\n', 'latin1');
/** Magic, header length, header digest. */
const PREFIX = 20;
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
  v: 1 | 2;
  sessions: Array<[id: string, cold: string, firstChunk: number]>;
  chunks: number;
  lensAt: number;
  dictAt: number;
  dictEnd: number;
  /** v2: the file's size in bytes, and the checksum of the chunk lengths. */
  size?: number;
  lensSum?: string;
  /** Every 64th term and its entry's offset in the dictionary; v2 adds the checksum of its block. */
  sparse: Array<[term: string, offset: number, sum?: string]>;
}

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();
const sum16 = (bytes: Uint8Array) => sha(bytes).toString('hex', 0, 8);
const sum32 = (bytes: Uint8Array) => sha(bytes).readUInt32LE(0);

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

export class DamagedSegmentError extends Error {}

/** The format version a segment file says it is in (its first 8 bytes); undefined when unreadable. */
export function segmentVersion(dir: string, name: string): 1 | 2 | undefined {
  try {
    const fd = fs.openSync(join(dir, SEARCH_DIR, name), 'r');
    try {
      const magic = Buffer.alloc(8);
      fs.readSync(fd, magic, 0, 8, 0);
      return magic.equals(MAGIC) ? 2 : magic.equals(MAGIC_V1) ? 1 : undefined;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/**
 * Whether the file's bytes still hash to its name (streamed: the file is never held whole). Searching needs
 * it only for a version 1 segment; a version 2 segment checks each part as it is read.
 */
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

interface DictEntry {
  term: string;
  df: number;
  at: number;
  len: number;
  /** v2: checksum of the postings. */
  sum?: number;
}

/**
 * One segment opened for a query: the header is read (and, in version 2, checked) at once, everything else
 * on demand; in version 2 each part is checked as it is read (DamagedSegmentError when it does not match).
 */
export class SegmentReader {
  private readonly fd: number;
  private readonly header: Header;
  private readonly firstChunks: number[];
  private readonly file: string;

  constructor(
    dir: string,
    readonly name: string,
  ) {
    this.file = join(dir, SEARCH_DIR, name);
    this.fd = fs.openSync(this.file, 'r');
    try {
      const head = this.read(0, PREFIX);
      const magic = head.subarray(0, 8);
      const v = magic.equals(MAGIC) ? 2 : magic.equals(MAGIC_V1) ? 1 : 0;
      if (head.length < 12 || v === 0) throw this.damaged('is not a search index');
      const json = this.read(v === 2 ? PREFIX : 12, head.readUInt32LE(8));
      if (v === 2 && (head.length < PREFIX || !sha(json).subarray(0, 8).equals(head.subarray(12, PREFIX))))
        throw this.damaged('is damaged (its header does not match its checksum)');
      this.header = JSON.parse(json.toString('utf8')) as Header;
      if (this.header.v !== v) throw this.damaged('has an unknown version');
      if (v === 2 && fs.fstatSync(this.fd).size !== this.header.size)
        throw this.damaged('is damaged (cut short or grown: its size does not match its header)');
    } catch (err) {
      fs.closeSync(this.fd);
      throw err instanceof DamagedSegmentError ? err : this.damaged(`cannot be read: ${(err as Error).message}`);
    }
    this.firstChunks = this.header.sessions.map((s) => s[2]);
  }

  private damaged(what: string): DamagedSegmentError {
    return new DamagedSegmentError(`search index file ${this.file} ${what}`);
  }

  /** Format version: 1 has no checksums inside (hash the whole file with verifySegment before trusting it). */
  get version(): 1 | 2 {
    return this.header.v;
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
    if (this.header.lensSum !== undefined && sum16(buf) !== this.header.lensSum)
      throw this.damaged('is damaged (its chunk lengths do not match their checksum)');
    const out = new Uint16Array(this.header.chunks);
    for (let i = 0; i < out.length; i++) out[i] = buf.readUInt16LE(i * 2);
    return out;
  }

  /** The end of sparse block `k` in the dictionary (relative offset). */
  private blockEnd(k: number): number {
    const sparse = this.header.sparse;
    return k + 1 < sparse.length ? sparse[k + 1][1] : this.header.dictEnd - this.header.dictAt;
  }

  /** The dictionary entries of sparse block `k` (v2: checked against the block's checksum). */
  private block(k: number): DictEntry[] {
    const [, from, sum] = this.header.sparse[k];
    const buf = this.read(this.header.dictAt + from, this.blockEnd(k) - from);
    if (this.header.v === 2 && sum16(buf) !== sum)
      throw this.damaged('is damaged (a block of its dictionary does not match its checksum)');
    const at = { i: 0 };
    const out: DictEntry[] = [];
    while (at.i < buf.length) {
      const n = readVarint(buf, at);
      const term = buf.subarray(at.i, at.i + n).toString('utf8');
      at.i += n;
      const entry: DictEntry = { term, df: readVarint(buf, at), at: readVarint(buf, at), len: readVarint(buf, at) };
      if (this.header.v === 2) {
        if (at.i + 4 > buf.length) throw this.damaged('is damaged (a dictionary entry is cut)');
        entry.sum = buf.readUInt32LE(at.i);
        at.i += 4;
      }
      out.push(entry);
    }
    return out;
  }

  /** Every term of the segment, in order. */
  terms(): string[] {
    return this.header.sparse.flatMap((_, k) => this.block(k).map((e) => e.term));
  }

  /** Every term with its postings, in order (for merging: each dictionary block is read once). */
  *entries(): Generator<[string, Array<[number, number]>]> {
    for (const [k] of this.header.sparse.entries())
      for (const entry of this.block(k)) yield [entry.term, this.readPostings(entry)];
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
    const entry = this.block(lo).find((e) => e.term === term);
    return entry ? this.readPostings(entry) : [];
  }

  private readPostings(entry: DictEntry): Array<[number, number]> {
    const buf = this.read(this.header.dictEnd + entry.at, entry.len);
    if (entry.sum !== undefined && (buf.length !== entry.len || sum32(buf) !== entry.sum))
      throw this.damaged('is damaged (the postings of a term do not match their checksum)');
    const at = { i: 0 };
    const out: Array<[number, number]> = [];
    let prev = -1;
    while (at.i < buf.length) {
      const code = readVarint(buf, at);
      const chunk = prev + Math.floor(code / 2);
      out.push([chunk, code % 2 === 1 ? readVarint(buf, at) : 1]);
      prev = chunk;
    }
    if (out.length !== entry.df) throw this.damaged('is damaged (the postings of a term are cut)');
    return out;
  }
}
