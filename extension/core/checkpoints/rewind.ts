// Rewind: put the files the last turns changed back the way they were before those turns.
// planRewind() is the preview (reads only); applyRewind() carries a plan out and returns a redo
// checkpoint — the state just before the rewind — so the rewind itself can be undone with the same
// two functions. A file the user changed after the agent did is kept unless the caller names it.
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import type { CheckpointBlobs } from './blobs';
import {
  allowedRoots,
  captureBefore,
  confine,
  currentVersion,
  errnoCode,
  IO_CONCURRENCY,
  isInside,
  mapLimit,
  sameVersion,
} from './capture';
import type { Checkpoint, CheckpointFiles, CheckpointOptions, FileState, FileVersion, SkippedFile } from './types';
import { DEFAULT_MAX_FILE_BYTES } from './types';

export interface RewindFile {
  /** Absolute real path. */
  path: string;
  /** Relative to its workspace folder (with the folder's name first in a multi-root workspace). */
  displayPath: string;
  /**
   * restore: written back (recreated if the agent deleted it); delete: removed (the agent created
   * it); unchanged: already as it was; skip: cannot be rewound (`reason`).
   */
  action: 'restore' | 'delete' | 'unchanged' | 'skip';
  /** What the file will be: the state before the oldest undone turn that touched it. */
  target: FileVersion & { mode?: number };
  /** What it is now, at planning time (not read for most 'skip' entries: then `{ existed: false }`). */
  current: FileVersion;
  /**
   * Its content now is neither what the agent left nor the target: the user changed it since.
   * Such a file is kept unless the caller passes it in `overwriteUserChanges`.
   */
  changedByUser: boolean;
  /** The user changed it between two of the undone turns; rewinding undoes those edits as well. */
  editedBetweenTurns: boolean;
  reason?: string;
  /** Ids of the undone checkpoints that touched it, oldest first. */
  checkpointIds: string[];
}

export interface RewindCounts {
  /** Files that will be written back (not counting those kept for the user). */
  restore: number;
  /** Files that will be deleted (not counting those kept for the user). */
  delete: number;
  unchanged: number;
  /** Files the user changed since, kept unless asked to overwrite. */
  changedByUser: number;
  skipped: number;
}

export interface RewindPlan {
  /** The index rewound to: the state right after checkpoints[toIndex]'s turn (-1: before the first). */
  toIndex: number;
  /** Ids of the checkpoints undone, oldest first. */
  undone: string[];
  files: RewindFile[];
  counts: RewindCounts;
  /** One line for the preview: "3 files will be restored, 1 deleted; src/x.ts was changed by you since…". */
  summary: string;
}

interface Touch {
  path: string;
  first?: FileState;
  firstSkip?: string;
  lastAfter?: FileVersion;
  between: boolean;
  ids: string[];
}

/**
 * Plans undoing every turn after `toIndex` (checkpoints oldest first; `toIndex` -1 undoes them all,
 * `checkpoints.length - 1` nothing). Reads the workspace, writes nothing.
 */
export async function planRewind(
  checkpoints: readonly Checkpoint[],
  toIndex: number,
  files: CheckpointFiles,
  blobs: CheckpointBlobs,
  options: Pick<CheckpointOptions, 'maxFileBytes'> = {},
): Promise<RewindPlan> {
  if (!Number.isInteger(toIndex) || toIndex < -1 || toIndex >= checkpoints.length) {
    throw new RangeError(`toIndex ${toIndex} is not between -1 and ${checkpoints.length - 1}`);
  }
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const undone = checkpoints.slice(toIndex + 1);
  const touches = new Map<string, Touch>();
  const touch = (p: string, id: string) => {
    let t = touches.get(p);
    if (!t) {
      t = { path: p, between: false, ids: [] };
      touches.set(p, t);
    }
    t.ids.push(id);
    return t;
  };
  for (const cp of undone) {
    for (const s of cp.skipped) {
      const t = touch(s.path, cp.id);
      if (!t.first && t.firstSkip === undefined) t.firstSkip = s.reason;
      t.lastAfter = undefined; // what that turn left is unknown
    }
    for (const f of cp.files) {
      const t = touch(f.path, cp.id);
      if (t.first || t.firstSkip !== undefined) {
        if (t.lastAfter && !sameVersion(t.lastAfter, f)) t.between = true;
      } else {
        t.first = f;
      }
      t.lastAfter = f.after;
    }
  }

  const roots = await allowedRoots(files);
  const planned = await mapLimit([...touches.values()], IO_CONCURRENCY, (t) =>
    planFile(t, files, blobs, roots, maxBytes),
  );
  planned.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const counts: RewindCounts = { restore: 0, delete: 0, unchanged: 0, changedByUser: 0, skipped: 0 };
  for (const f of planned) {
    if (f.action === 'skip') counts.skipped++;
    else if (f.action === 'unchanged') counts.unchanged++;
    else if (f.changedByUser) counts.changedByUser++;
    else counts[f.action]++;
  }
  return { toIndex, undone: undone.map((c) => c.id), files: planned, counts, summary: summarize(planned, counts) };
}

async function planFile(
  t: Touch,
  files: CheckpointFiles,
  blobs: CheckpointBlobs,
  roots: string[],
  maxBytes: number,
): Promise<RewindFile> {
  const base = {
    path: t.path,
    displayPath: displayOf(files, roots, t.path),
    checkpointIds: t.ids,
    editedBetweenTurns: t.between,
    changedByUser: false,
  };
  const skip = (reason: string, target: FileVersion = { existed: false }): RewindFile => ({
    ...base,
    action: 'skip',
    target,
    current: { existed: false },
    reason,
  });
  const first = t.first;
  if (!first) return skip(`not saved before the agent changed it: ${t.firstSkip ?? 'unknown reason'}`);
  const target: RewindFile['target'] = { existed: first.existed };
  if (first.hash !== undefined) target.hash = first.hash;
  if (first.mode !== undefined) target.mode = first.mode;
  const where = await confine(files, roots, t.path, true);
  if ('reason' in where) return skip(where.reason, target);
  if (first.existed && (first.hash === undefined || !(await blobs.has(first.hash)))) {
    return skip('its saved copy is missing', target);
  }
  const st = await files.stat(t.path).catch(() => undefined);
  if (st && st.type !== 'file') return skip(`a ${st.type} is there now, not a file`, target);
  const current = await currentVersion(files, t.path, maxBytes);
  if (sameVersion(current, target)) return { ...base, action: 'unchanged', target, current };
  const changedByUser = !sameVersion(current, t.lastAfter);
  if (!target.existed && !files.deleteFile) {
    return { ...skip('files cannot be deleted here', target), current, changedByUser };
  }
  return { ...base, action: target.existed ? 'restore' : 'delete', target, current, changedByUser };
}

export interface ApplyRewindOptions extends CheckpointOptions {
  /** Paths (absolute or as in `displayPath`) of user-changed files to rewind anyway. */
  overwriteUserChanges?: string[];
  /** The redo checkpoint's turnId. Default `rewind:<toIndex>`. */
  turnId?: string;
}

export interface RewindResult {
  /** The state just before the rewind: planRewind([redo], -1, …) + applyRewind undoes the rewind. */
  redo: Checkpoint;
  restored: string[];
  deleted: string[];
  /** Changed by the user (since the agent, or since the preview) and left as they are. */
  kept: SkippedFile[];
  skipped: SkippedFile[];
  failed: SkippedFile[];
}

/**
 * Carries out a plan (a few files at a time). Each file's state just before is saved first (into the
 * redo checkpoint); a file whose state cannot be saved is not touched, so a rewind never loses
 * anything it could not give back. Bytes are restored exactly. Never throws for one file's sake.
 */
export async function applyRewind(
  plan: RewindPlan,
  options: ApplyRewindOptions,
  files: CheckpointFiles,
  blobs: CheckpointBlobs,
): Promise<RewindResult> {
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const createdAt = (options.now ?? Date.now)();
  const overwrite = new Set(options.overwriteUserChanges ?? []);
  const roots = await allowedRoots(files);
  const result: RewindResult = {
    redo: {
      version: 1,
      id: (options.newId ?? randomUUID)(),
      createdAt,
      turnId: options.turnId ?? `rewind:${plan.toIndex}`,
      kind: 'redo',
      files: [],
      skipped: [],
    },
    restored: [],
    deleted: [],
    kept: [],
    skipped: [],
    failed: [],
  };
  // Every file's current state is saved first, made durable in one pass, and only then overwritten:
  // a crash mid-rewind never loses what the redo would put back.
  const prepared = await mapLimit(plan.files, IO_CONCURRENCY, (f) =>
    prepareFile(f, overwrite.has(f.path) || overwrite.has(f.displayPath), files, blobs, roots, maxBytes),
  );
  await blobs.sync(prepared.flatMap((p) => ('write' in p && p.before.existed && p.before.hash ? [p.before.hash] : [])));
  const outcomes = await mapLimit(
    prepared,
    IO_CONCURRENCY,
    async (p): Promise<Outcome> => ('write' in p ? writeFile(p, files, maxBytes) : p),
  );
  for (const o of outcomes) {
    if (o.redo) result.redo.files.push(o.redo);
    if (o.reason !== undefined) result[o.outcome].push({ path: o.path, reason: o.reason });
    else if (o.outcome !== 'unchanged') result[o.outcome].push(o.path);
  }
  return result;
}

type Outcome =
  | { path: string; redo?: FileState; outcome: 'restored' | 'deleted' | 'unchanged'; reason?: undefined }
  | { path: string; redo?: FileState; outcome: 'kept' | 'skipped' | 'failed'; reason: string };

/** A file ready to be written back: what it is now (saved for redo) and the bytes it gets (none: delete). */
interface Prepared {
  write: true;
  path: string;
  f: RewindFile;
  before: FileState;
  bytes: Uint8Array | undefined;
}

async function prepareFile(
  f: RewindFile,
  forced: boolean,
  files: CheckpointFiles,
  blobs: CheckpointBlobs,
  roots: string[],
  maxBytes: number,
): Promise<Outcome | Prepared> {
  const path = f.path; // (shadows node:path in here)
  if (f.action === 'unchanged') return { path, outcome: 'unchanged' };
  if (f.action === 'skip') return { path, outcome: 'skipped', reason: f.reason ?? 'cannot be rewound' };
  if (f.changedByUser && !forced) return { path, outcome: 'kept', reason: 'changed since the agent changed it' };
  const where = await confine(files, roots, path, true);
  if ('reason' in where) return { path, outcome: 'skipped', reason: where.reason };
  const before = await captureBefore(files, blobs, path, maxBytes);
  if (!before.ok) {
    return { path, outcome: 'skipped', reason: `its current state could not be saved for redo: ${before.reason}` };
  }
  if (!forced && !sameVersion(before.state, f.current)) {
    return { path, outcome: 'kept', reason: 'changed since the preview' };
  }
  let bytes: Uint8Array | undefined;
  if (f.target.existed) {
    bytes = f.target.hash === undefined ? undefined : await blobs.get(f.target.hash);
    if (!bytes) return { path, outcome: 'skipped', reason: 'its saved copy is missing or damaged' };
  }
  return { write: true, path, f, before: before.state, bytes };
}

async function writeFile(p: Prepared, files: CheckpointFiles, maxBytes: number): Promise<Outcome> {
  const { path, f, before, bytes } = p;
  try {
    if (bytes) {
      await files.writeFile(path, bytes);
      if (f.target.mode !== undefined) await files.setFileMode?.(path, f.target.mode);
    } else {
      if (!files.deleteFile) throw new Error('files cannot be deleted here');
      await files.deleteFile(path).catch((err: unknown) => {
        if (errnoCode(err) !== 'ENOENT') throw err;
      });
    }
    const after: FileVersion = bytes ? { existed: true, hash: f.target.hash } : { existed: false };
    return { path, outcome: bytes ? 'restored' : 'deleted', redo: { ...before, after } };
  } catch (err) {
    // It may be half done: keep what it was, so the redo can still put it back.
    const redo = { ...before, after: await currentVersion(files, path, maxBytes) };
    return { path, outcome: 'failed', reason: err instanceof Error ? err.message : String(err), redo };
  }
}

function displayOf(files: CheckpointFiles, realRoots: string[], abs: string): string {
  const count = files.roots().length;
  const i = realRoots.findIndex((r) => isInside(abs, r));
  if (i < 0 || i >= count) return abs; // outside, or in an extra write root
  const rel = path.relative(realRoots[i], abs).split(path.sep).join('/');
  if (count === 1) return rel || '.';
  return `${path.basename(realRoots[i])}/${rel}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function names(list: RewindFile[]): string {
  const shown = list.slice(0, 3).map((f) => f.displayPath);
  return list.length > 3 ? `${shown.join(', ')} and ${list.length - 3} more` : shown.join(', ');
}

function summarize(files: RewindFile[], counts: RewindCounts): string {
  const parts: string[] = [];
  const changes: string[] = [];
  if (counts.restore) changes.push(`${plural(counts.restore, 'file')} will be restored`);
  if (counts.delete)
    changes.push(counts.restore ? `${counts.delete} deleted` : `${plural(counts.delete, 'file')} will be deleted`);
  if (changes.length) parts.push(changes.join(', '));
  const user = files.filter((f) => f.changedByUser && (f.action === 'restore' || f.action === 'delete'));
  if (user.length) {
    parts.push(`${names(user)} ${user.length === 1 ? 'was' : 'were'} changed by you since and will be kept`);
  }
  const skipped = files.filter((f) => f.action === 'skip');
  if (skipped.length === 1) parts.push(`${skipped[0].displayPath} cannot be rewound (${skipped[0].reason})`);
  else if (skipped.length) parts.push(`${names(skipped)} cannot be rewound`);
  return parts.length ? parts.join('; ') : 'No files need to change';
}
