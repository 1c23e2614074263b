// The byte layout of a cold search index segment (cold-index.ts writes it, cold-index-reader.ts reads
// it): what both sides must agree on, in one place.
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

export const SEARCH_DIR = 'search';
/** The format segments are written in (the version in their header). */
export const SEGMENT_FORMAT = 2;
export const MAGIC_V1 = Buffer.from('SXCIDX1\n', 'latin1');
export const MAGIC = Buffer.from('SXCIDX2\n', 'latin1');
/** Magic, header length, header digest. */
export const PREFIX = 20;
export const SPARSE_EVERY = 64;
/** A segment's file name: the first 16 hex digits of its bytes' SHA-256. */
export const NAME = /^[0-9a-f]{16}\.idx$/;

export interface Header {
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

export const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();
export const sum16 = (bytes: Uint8Array) => sha(bytes).toString('hex', 0, 8);
export const sum32 = (bytes: Uint8Array) => sha(bytes).readUInt32LE(0);

export function varint(out: number[], n: number): void {
  let v = n;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

export function readVarint(buf: Uint8Array, at: { i: number }): number {
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
