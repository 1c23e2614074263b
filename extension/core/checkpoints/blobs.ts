// Content-addressed storage for the bytes checkpoints refer to: a blob's name is the SHA-256 of its
// content, so identical content is stored once however many turns and files share it, and a blob
// read back is checked against its name (a torn or altered file reads as missing, never as wrong bytes).
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

export interface CheckpointBlobs {
  /** Stores bytes (once per distinct content) and returns their SHA-256, hex. */
  put(bytes: Uint8Array): Promise<string>;
  /** The bytes stored under `hash`, or undefined when absent or damaged. */
  get(hash: string): Promise<Uint8Array | undefined>;
  has(hash: string): Promise<boolean>;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const HASH = /^[0-9a-f]{64}$/;
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;
const POSIX = process.platform !== 'win32';

export interface FileBlobsOptions {
  /** fdatasync each new blob before it is renamed into place (default true). */
  fsync?: boolean;
}

/**
 * Blobs as files `<dir>/<first two hex digits>/<hash>`, owner-only (files 0600, folders 0700, given
 * at creation). Each is written to a temporary file and renamed into place, so a reader never sees
 * half a blob and two writers of the same content do no harm.
 */
export class FileCheckpointBlobs implements CheckpointBlobs {
  private readonly madeDirs = new Set<string>();
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
    const file = this.pathOf(hash);
    if (await this.has(hash)) return hash;
    const folder = path.dirname(file);
    await this.makeDir(folder);
    const tmp = path.join(folder, `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
    const handle = await fs.open(tmp, 'wx', FILE_MODE);
    try {
      await handle.writeFile(bytes);
      if (this.fsync) await handle.datasync();
    } catch (err) {
      await handle.close().catch(() => undefined);
      await fs.rm(tmp, { force: true });
      throw err;
    }
    await handle.close();
    await fs.rename(tmp, file);
    return hash;
  }

  async get(hash: string): Promise<Uint8Array | undefined> {
    let bytes: Buffer;
    try {
      bytes = await fs.readFile(this.pathOf(hash));
    } catch {
      return undefined;
    }
    return sha256Hex(bytes) === hash ? bytes : undefined;
  }

  async has(hash: string): Promise<boolean> {
    try {
      return (await fs.stat(this.pathOf(hash))).isFile();
    } catch {
      return false;
    }
  }

  private async makeDir(dir: string): Promise<void> {
    for (const d of [this.dir, dir]) {
      if (this.madeDirs.has(d)) continue;
      await fs.mkdir(d, { recursive: true, mode: DIR_MODE });
      if (POSIX) await fs.chmod(d, DIR_MODE); // narrows a folder that existed with a wider mode
      this.madeDirs.add(d);
    }
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
}
