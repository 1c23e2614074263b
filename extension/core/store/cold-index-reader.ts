// Reading cold search index segments (layout: cold-index-format.ts): one segment opened per query and
// read in parts with positioned reads, each part checked before use, so a search never reads a whole
// segment to trust it and a damaged part is never used (DamagedSegmentError: the caller rebuilds).
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { join } from 'node:path';
import {
  type Header,
  MAGIC,
  MAGIC_V1,
  NAME,
  PREFIX,
  readVarint,
  SEARCH_DIR,
  sha,
  sum16,
  sum32,
} from './cold-index-format';

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
