// Content-addressed storage for the bytes checkpoints refer to: a blob's name is the SHA-256 of its
// content, so identical content is stored once however many turns and files share it, and a blob
// read back is checked against its name (a torn or altered file reads as missing, never as wrong bytes).
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  fdatasync,
  promises as fs,
  mkdirSync,
  openSync,
  rmSync,
  writeSync,
} from 'node:fs';
import * as path from 'node:path';

export interface CheckpointBlobs {
  /**
   * Stores bytes (once per distinct content) and returns their SHA-256, hex. The bytes can be read
   * back at once, but are durable only after `sync()` names their hash.
   */
  put(bytes: Uint8Array): Promise<string>;
  /** The bytes stored under `hash`, or undefined when absent or damaged. */
  get(hash: string): Promise<Uint8Array | undefined>;
  has(hash: string): Promise<boolean>;
  /**
   * Makes the blobs named durable in one pass (all at once, not one by one) — call before recording
   * anything that refers to them. Hashes already durable cost nothing.
   */
  sync(hashes: Iterable<string>): Promise<void>;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const HASH = /^[0-9a-f]{64}$/;
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;
const POSIX = process.platform !== 'win32';
/** Prefix of a blob not yet made durable (and of one a crash left behind: retention removes those). */
export const STAGED_PREFIX = '.tmp-';

export interface FileBlobsOptions {
  /** fdatasync new blobs (and their folders) in sync() before they get their names (default true). */
  fsync?: boolean;
}

/**
 * Blobs as files `<dir>/<first two hex digits>/<hash>`, owner-only (files 0600, folders 0700, given
 * at creation).
 *
 * *Batched durability.* `put` writes the bytes to a staged file `<aa>/.tmp-<hash>-<random>` with one
 * synchronous write into the page cache (no fsync: a few microseconds for a small file) and returns.
 * `sync(hashes)` then, for every staged blob named: fdatasyncs all of them at once (in parallel on
 * the thread pool, so the disk commits them together), renames each to its hash, and fsyncs each folder
 * touched once. Crash-safe because a blob gets its final name only after its bytes are on disk, the
 * names are on disk (folder fsync) before `sync` returns, and the caller records a checkpoint only
 * after `sync` returns: a crash at any point leaves either staged files nothing refers to (removed
 * by retention) or durable blobs — never a name that a record trusts with torn bytes behind it.
 * `get` re-hashes, so even a damaged blob reads as missing, never as wrong bytes.
 */
export class FileCheckpointBlobs implements CheckpointBlobs {
  private readonly madeDirs = new Set<string>();
  /** Staged (written, not yet durable) blobs: hash → staged file, and its descriptor while kept open. */
  private readonly staged = new Map<string, { tmp: string; fd: number | undefined }>();
  private openStaged = 0;
  /** Hashes known to have a durable file (put found it, or sync made it). */
  private readonly durable = new Set<string>();
  private readonly fsync: boolean;

  constructor(
    readonly dir: string,
    options: FileBlobsOptions = {},
  ) {
    this.fsync = options.fsync ?? true;
  }

  pathOf(hash: string): string {
    if (!HASH.test(hash)) throw new Error(`not a SHA-256 hash: ${hash}`);
    return path.join(this.dir, hash.slice(0, 2), hash);
  }

  async put(bytes: Uint8Array): Promise<string> {
    const hash = sha256Hex(bytes);
    const staged = this.staged.get(hash);
    // (A staged file kept for long may have been removed by retention: then it is written again.)
    if (staged && (staged.fd !== undefined || existsSync(staged.tmp))) return hash;
    if (staged) this.staged.delete(hash);
    if (this.durable.has(hash)) return hash;
    const file = this.pathOf(hash);
    if (existsSync(file)) {
      this.durable.add(hash);
      return hash;
    }
    const folder = path.dirname(file);
    this.makeDir(folder);
    const tmp = path.join(folder, `${STAGED_PREFIX}${hash.slice(0, 16)}-${randomBytes(6).toString('hex')}`);
    // Synchronous on purpose: one write into the page cache, cheaper than four thread-pool round trips.
    const fd = openSync(tmp, 'wx', FILE_MODE);
    try {
      let done = 0;
      while (done < bytes.byteLength) done += writeSync(fd, bytes, done, bytes.byteLength - done);
    } catch (err) {
      closeSync(fd);
      rmSync(tmp, { force: true });
      throw err;
    }
    // Kept open (up to a bound) so sync() can fdatasync it without opening it again.
    const keep = this.fsync && this.openStaged < MAX_OPEN_STAGED;
    if (keep) this.openStaged++;
    else closeSync(fd);
    this.staged.set(hash, { tmp, fd: keep ? fd : undefined });
    return hash;
  }

  async sync(hashes: Iterable<string>): Promise<void> {
    const batch: Array<{ hash: string; tmp: string; fd: number | undefined }> = [];
    for (const hash of new Set(hashes)) {
      const s = this.staged.get(hash);
      if (s) batch.push({ hash, ...s });
    }
    if (!batch.length) return;
    if (this.fsync) await Promise.all(batch.map((b) => datasyncFile(b.tmp, b.fd)));
    for (const b of batch) {
      if (b.fd === undefined) continue;
      closeSync(b.fd);
      this.openStaged--;
      const s = this.staged.get(b.hash);
      if (s) s.fd = undefined;
    }
    const folders = new Set<string>();
    for (const b of batch) {
      const file = this.pathOf(b.hash);
      await fs.rename(b.tmp, file);
      folders.add(path.dirname(file));
      this.staged.delete(b.hash);
      this.durable.add(b.hash);
    }
    if (this.fsync && POSIX) await Promise.all([...folders].map(fsyncFolder));
  }

  async get(hash: string): Promise<Uint8Array | undefined> {
    let bytes: Buffer;
    try {
      bytes = await fs.readFile(this.staged.get(hash)?.tmp ?? this.pathOf(hash));
    } catch {
      return undefined;
    }
    return sha256Hex(bytes) === hash ? bytes : undefined;
  }

  async has(hash: string): Promise<boolean> {
    if (this.staged.has(hash)) return true;
    try {
      return (await fs.stat(this.pathOf(hash))).isFile();
    } catch {
      return false;
    }
  }

  private makeDir(dir: string): void {
    for (const d of [this.dir, dir]) {
      if (this.madeDirs.has(d)) continue;
      mkdirSync(d, { recursive: true, mode: DIR_MODE });
      if (POSIX) chmodSync(d, DIR_MODE); // narrows a folder that existed with a wider mode
      this.madeDirs.add(d);
    }
  }
}

/** Staged blobs kept open at once: far below any descriptor limit, enough for a large refactor's batch. */
const MAX_OPEN_STAGED = 256;

async function datasyncFile(file: string, fd: number | undefined): Promise<void> {
  if (fd !== undefined) {
    await new Promise<void>((resolve, reject) => fdatasync(fd, (err) => (err ? reject(err) : resolve())));
    return;
  }
  const handle = await fs.open(file, 'r+');
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

async function fsyncFolder(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Blobs in memory, for tests (and hosts with nowhere to write). Keeps copies, not the callers' arrays. */
export class MemoryCheckpointBlobs implements CheckpointBlobs {
  readonly blobs = new Map<string, Uint8Array>();
  /** How many put() calls stored new content (the rest were already there). */
  writes = 0;

  async put(bytes: Uint8Array): Promise<string> {
    const hash = sha256Hex(bytes);
    if (!this.blobs.has(hash)) {
      this.blobs.set(hash, Uint8Array.from(bytes));
      this.writes++;
    }
    return hash;
  }

  async get(hash: string): Promise<Uint8Array | undefined> {
    const b = this.blobs.get(hash);
    return b && Uint8Array.from(b);
  }

  async has(hash: string): Promise<boolean> {
    return this.blobs.has(hash);
  }

  async sync(): Promise<void> {}
}
