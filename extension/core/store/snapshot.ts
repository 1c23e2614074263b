// The snapshot: the whole sql.js database written atomically (temp file, fsync, rename, fsync of
// the folder) with a checksum sidecar. The snapshot it replaces is kept as `.prev`, so a snapshot
// that rots on disk is detected (checksum) and recovered from the previous one plus the journal.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import { join } from 'node:path';
import { fileBytes } from './file-bytes';
import { fsyncDir, PRIVATE_FILE_MODE } from './private-files';

export const DB_FILE = 'sextant.db';

export interface SnapshotMeta {
  sha256: string;
  size: number;
  generation: number;
}

export function dbPath(dir: string): string {
  return join(dir, DB_FILE);
}
function metaPath(file: string): string {
  return `${file}.meta.json`;
}
export function prevPath(dir: string): string {
  return join(dir, `${DB_FILE}.prev`);
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function readMeta(file: string): SnapshotMeta | undefined {
  try {
    const m = JSON.parse(fs.readFileSync(metaPath(file), 'utf8')) as Partial<SnapshotMeta>;
    if (typeof m.sha256 === 'string' && typeof m.size === 'number' && typeof m.generation === 'number')
      return m as SnapshotMeta;
  } catch {
    /* missing or unreadable: treated as "no checksum" */
  }
  return undefined;
}

export interface LoadedFile {
  bytes: Uint8Array;
  /** 'ok' checksum matched; 'unchecked' no sidecar (older file, or a crash between the two renames). */
  check: 'ok' | 'unchecked';
  generation: number;
}

/** Reads a snapshot file; undefined when absent, 'corrupt' when the checksum does not match. */
export async function readSnapshotFile(file: string): Promise<LoadedFile | 'corrupt' | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = await readWhole(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const meta = readMeta(file);
  if (!meta) return { bytes, check: 'unchecked', generation: 0 };
  if (meta.size !== bytes.byteLength || meta.sha256 !== sha256(bytes)) return 'corrupt';
  return { bytes, check: 'ok', generation: meta.generation };
}

/**
 * A file's bytes in a buffer from fileBytes() (see file-bytes.ts: a snapshot-sized buffer freed after
 * open must not come from malloc). A file that grows while read is read to the size it had at open;
 * one that shrinks gives what is there (its checksum then says it is not the snapshot).
 */
async function readWhole(file: string): Promise<Uint8Array> {
  const fh = await fsp.open(file, 'r');
  try {
    const size = (await fh.stat()).size;
    const bytes = fileBytes(size);
    let at = 0;
    while (at < size) {
      const { bytesRead } = await fh.read(bytes, at, size - at, at);
      if (bytesRead === 0) return bytes.subarray(0, at);
      at += bytesRead;
    }
    return bytes;
  } finally {
    await fh.close();
  }
}

async function writeDurably(file: string, data: Uint8Array | string): Promise<void> {
  // Owner-only from creation; a leftover file of that name (a crash) is narrowed too.
  const fh = await fsp.open(file, 'w', PRIVATE_FILE_MODE);
  try {
    if (process.platform !== 'win32') await fh.chmod(PRIVATE_FILE_MODE);
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * Writes `bytes` as the new snapshot. When `keepCurrentAsPrev` the current file (known good)
 * becomes `.prev`; otherwise (it was corrupt) `.prev` is left as it is.
 *
 * The renames are ordered so that a crash between any two of them leaves a readable pair:
 * the checksum moves to `.prev` before its file does (until the file follows, the current file is
 * still there and is checked with SQLite's integrity check), and the new checksum is in place
 * before the new file appears (until then `.prev` is used). Found by the SIGKILL test.
 */
export async function writeSnapshot(
  dir: string,
  bytes: Uint8Array,
  generation: number,
  tmpTag: string,
  keepCurrentAsPrev: boolean,
): Promise<void> {
  const file = dbPath(dir);
  const prev = prevPath(dir);
  const tmp = `${file}.tmp-${tmpTag}`;
  const meta: SnapshotMeta = { sha256: sha256(bytes), size: bytes.byteLength, generation };
  try {
    await writeDurably(tmp, bytes);
    await writeDurably(metaPath(tmp), JSON.stringify(meta));
  } catch (err) {
    // A full disk: take the partial temporary files away again (they hold the space the next try needs).
    fs.rmSync(tmp, { force: true });
    fs.rmSync(metaPath(tmp), { force: true });
    throw err;
  }
  if (keepCurrentAsPrev && fs.existsSync(file)) {
    if (fs.existsSync(metaPath(file))) fs.renameSync(metaPath(file), metaPath(prev));
    else fs.rmSync(metaPath(prev), { force: true });
    fs.renameSync(file, prev);
  }
  fs.renameSync(metaPath(tmp), metaPath(file));
  fs.renameSync(tmp, file);
  fsyncDir(dir);
}

/** Moves a corrupt snapshot aside (never deletes user data) so the next snapshot can take its place. */
export function quarantine(file: string, now: number): string {
  const dest = `${file}.corrupt-${now}`;
  fs.renameSync(file, dest);
  if (fs.existsSync(metaPath(file))) fs.renameSync(metaPath(file), `${dest}.meta.json`);
  return dest;
}
