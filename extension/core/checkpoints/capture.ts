// Reading a file's state for a checkpoint, and the confinement every checkpoint operation obeys:
// only files whose real path lies inside a workspace root (or a user-listed extra write root, where
// writers may write too) are recorded, restored or deleted.
import * as path from 'node:path';
import type { CheckpointBlobs } from './blobs';
import { sha256Hex } from './blobs';
import { errnoCode, isInside, realPathOf } from '../tools/util/paths';
import type { CheckpointFiles, FileState, FileVersion } from './types';

// Error codes, path containment and real-path resolution are the writers' own (tools/util/paths.ts),
// so a checkpoint confines files exactly as the writers do.
export { errnoCode, isInside, realPathOf };

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The real paths of the workspace roots and extra write roots. */
export async function allowedRoots(files: CheckpointFiles): Promise<string[]> {
  const roots = [...files.roots(), ...(files.extraWriteRoots?.() ?? [])];
  return Promise.all(roots.map((r) => realPathOf(files, path.resolve(r))));
}

/**
 * Where `abs` really is, or why it may not be touched: not absolute, outside every root (by real
 * path), or — with `exact` — reached through a symbolic link (a link planted since the checkpoint).
 */
export async function confine(
  files: CheckpointFiles,
  roots: string[],
  abs: string,
  exact = false,
): Promise<{ real: string } | { reason: string }> {
  if (!path.isAbsolute(abs)) return { reason: 'not an absolute path' };
  const normal = path.normalize(abs);
  const real = await realPathOf(files, normal);
  if (!roots.some((r) => isInside(real, r))) {
    const via = real !== normal ? ` (it resolves to ${real})` : '';
    return { reason: `outside the workspace folders${via}` };
  }
  if (exact && real !== normal) return { reason: `now reached through a symbolic link (it resolves to ${real})` };
  return { real };
}

export type Captured = { ok: true; state: FileState } | { ok: false; reason: string };

/**
 * Records the current state of a file (its real path) and stores its bytes as a blob. Files that
 * are not regular files, or larger than `maxBytes`, are refused with a reason. Never throws.
 */
export async function captureBefore(
  files: CheckpointFiles,
  blobs: CheckpointBlobs,
  real: string,
  maxBytes: number,
): Promise<Captured> {
  try {
    const now = files.readNow?.(real, maxBytes);
    if (now) {
      if (now.kind === 'missing') return { ok: true, state: { path: real, existed: false } };
      if (now.kind === 'other') return { ok: false, reason: `not a regular file (${now.type})` };
      if (now.kind === 'large') return { ok: false, reason: tooLarge(now.size, maxBytes) };
      const state: FileState = {
        path: real,
        existed: true,
        hash: await blobs.put(now.bytes),
        size: now.bytes.byteLength,
      };
      if (now.mode !== undefined) state.mode = now.mode;
      return { ok: true, state };
    }
    const st = await files.stat(real);
    if (!st) return { ok: true, state: { path: real, existed: false } };
    if (st.type !== 'file') return { ok: false, reason: `not a regular file (${st.type})` };
    if (st.size > maxBytes) return { ok: false, reason: tooLarge(st.size, maxBytes) };
    let bytes: Uint8Array;
    try {
      bytes = await files.readFile(real, { maxBytes });
    } catch (err) {
      const code = errnoCode(err);
      if (code === 'ENOENT') return { ok: true, state: { path: real, existed: false } };
      if (code === 'EFBIG') return { ok: false, reason: tooLarge(undefined, maxBytes) };
      throw err;
    }
    const hash = await blobs.put(bytes);
    const mode = await files.fileMode?.(real).catch(() => undefined);
    const state: FileState = { path: real, existed: true, hash, size: bytes.byteLength };
    if (mode !== undefined) state.mode = mode;
    return { ok: true, state };
  } catch (err) {
    return { ok: false, reason: `could not be saved: ${messageOf(err)}` };
  }
}

/**
 * The current version of a file, hashed but not stored. `hash` is left out when the file exists
 * but cannot be read in full (too large, not a regular file, unreadable) — it then matches nothing.
 */
export async function currentVersion(files: CheckpointFiles, real: string, maxBytes: number): Promise<FileVersion> {
  const now = files.readNow?.(real, maxBytes);
  if (now)
    return now.kind === 'missing'
      ? { existed: false }
      : now.kind === 'file'
        ? { existed: true, hash: sha256Hex(now.bytes) }
        : { existed: true };
  const st = await files.stat(real).catch(() => undefined);
  if (!st) return { existed: false };
  if (st.type !== 'file' || st.size > maxBytes) return { existed: true };
  try {
    return { existed: true, hash: sha256Hex(await files.readFile(real, { maxBytes })) };
  } catch (err) {
    return errnoCode(err) === 'ENOENT' ? { existed: false } : { existed: true };
  }
}

/** Whether two versions are known to be the same content (an unknown hash matches nothing). */
export function sameVersion(a: FileVersion | undefined, b: FileVersion | undefined): boolean {
  if (!a || !b) return false;
  if (!a.existed || !b.existed) return a.existed === b.existed;
  return a.hash !== undefined && a.hash === b.hash;
}

/** Files read or written at once: enough to overlap I/O, few enough to bound memory (up to 20 MB each). */
export const IO_CONCURRENCY = 8;

/** `Promise.all(items.map(fn))` with at most `limit` calls running at a time; results in input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

function tooLarge(size: number | undefined, max: number): string {
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `too large to keep a copy (${size === undefined ? 'over' : mb(size)}, limit ${mb(max)})`;
}
