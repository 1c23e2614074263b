// A workspace folder as command coverage keeps it between commands, and where each file's bytes would
// come from if a command changed it: git's own objects for a clean tracked file, else a copy saved before
// the command (reused while the file's stat is unchanged), within the per-command copy limits.
import * as path from 'node:path';
import type { CheckpointBlobs } from './blobs';
import type { FolderIndex, IndexWatch } from './folder-index';
import type { GitRepo } from './git-repo';
import type { GitIndex } from './git-index';
import type { CheckpointFiles } from './types';
import { DEFAULT_MAX_FILE_BYTES } from './types';
import { sameStat, type StatEntry } from './workspace-scan';

export const MAX_COPY_BYTES = 64 * 1024 * 1024;
export const MAX_COPY_FILES = 5_000;
/** A copy is reused this long at most: retention removes unnamed staged copies after a day. */
const COPY_REUSE_MS = 12 * 60 * 60 * 1000;

/** Where the bytes a file had before a command come from, if it changes. */
export type Source = { hash: string } | { oid: string; repoPath: string } | { missing: string };

/** One workspace folder's state, kept between commands. */
export interface Folder {
  root: string;
  repo: GitRepo | undefined;
  /** Repository-relative prefix of the root ("" when the root is the repository's top). */
  prefix: string;
  /** Root-relative ignored paths; a folder ends with "/". */
  ignored: Set<string>;
  /** The .gitignore files' stat when `ignored` was read (a change re-reads it). */
  ignoreFiles: string;
  index: { key: string; index: GitIndex | undefined } | undefined;
  /** Copies of untracked or modified files: root-relative path → the stat they were copied at, and hash. */
  copies: Map<string, { stat: StatEntry; hash: string; at: number }>;
  /** The stat index, kept between commands. */
  stats: FolderIndex;
  /** Whether `stats` holds every change up to the feed's last take (so the next take's paths suffice). */
  synced: boolean;
  /** Where each indexed file's bytes would come from if it changed; kept up to date with `stats`. */
  sources: Map<string, Source>;
  /** The git index (`index.key`) `sources` were worked out against. */
  sourcesKey: string | undefined;
  /** Paths whose source could not be saved last time (tried again at the next command). */
  retry: Set<string>;
  /** One refresh at a time (a background command's `after` and the next command's `before` may meet). */
  queue: Promise<unknown>;
  /** The commands running now: each keeps the sources replaced since it started. */
  watches: Set<FolderBefore['watch']>;
}

export interface FolderBefore {
  folder: Folder;
  watch: IndexWatch & { oldSources: Map<string, Source | undefined> };
  notCopied: number;
}

export interface SourceDeps {
  files: CheckpointFiles;
  blobs: CheckpointBlobs;
  options: { maxFileBytes?: number; maxCopyBytes?: number; maxCopyFiles?: number };
}

/**
 * Works out where the bytes of each file changed since the last command would come from (git's objects
 * for a clean tracked file, else a copy saved now). Commands still running keep the sources it replaces,
 * so each knows the ones from its own start.
 */
export async function updateSources(
  folder: Folder,
  touched: Set<string> | 'all',
  index: GitIndex | undefined,
  deps: SourceDeps,
): Promise<number> {
  const key = folder.index?.key;
  const all = touched === 'all' || key !== folder.sourcesKey;
  folder.sourcesKey = key;
  const files = folder.stats.files;
  const todo = new Set<string>(all ? files.keys() : touched);
  for (const rel of folder.retry) todo.add(rel);
  folder.retry.clear();
  const now = Date.now();
  for (const [rel, copy] of folder.copies) if (now - copy.at >= COPY_REUSE_MS) todo.add(rel);
  let copyBytes = 0;
  let copyFiles = 0;
  let notCopied = 0;
  const maxFile = deps.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const setSource = (rel: string, source: Source | undefined) => {
    for (const w of folder.watches) if (!w.oldSources.has(rel)) w.oldSources.set(rel, folder.sources.get(rel));
    if (source) folder.sources.set(rel, source);
    else folder.sources.delete(rel);
    if (source && 'missing' in source) folder.retry.add(rel);
  };
  for (const rel of todo) {
    const st = files.get(rel);
    if (!st) {
      folder.copies.delete(rel);
      setSource(rel, undefined);
      continue;
    }
    if (st.link) {
      setSource(rel, undefined); // a link's target is recorded where it lives, if inside the workspace
      continue;
    }
    const repoPath = folder.prefix ? `${folder.prefix}/${rel}` : rel;
    const entry = index?.entries.get(repoPath);
    if (
      entry &&
      entry.size === st.size % 2 ** 32 &&
      Math.abs(entry.mtimeMs - st.mtimeMs) < 0.001 &&
      entry.ino === st.ino % 2 ** 32 &&
      st.mtimeMs < (index as GitIndex).mtimeMs
    ) {
      setSource(rel, { oid: entry.oid, repoPath });
      continue;
    }
    const copy = folder.copies.get(rel);
    if (copy && sameStat(copy.stat, st) && now - copy.at < COPY_REUSE_MS) {
      setSource(rel, { hash: copy.hash });
      continue;
    }
    if (st.size > maxFile) {
      setSource(rel, { missing: 'too large to keep a copy' });
      continue;
    }
    if (
      copyBytes + st.size > (deps.options.maxCopyBytes ?? MAX_COPY_BYTES) ||
      copyFiles >= (deps.options.maxCopyFiles ?? MAX_COPY_FILES)
    ) {
      setSource(rel, { missing: 'over the copy limit for one command' });
      notCopied++;
      continue;
    }
    const abs = path.join(folder.root, rel);
    const read = deps.files.readNow?.(abs, maxFile);
    let bytes: Uint8Array | undefined;
    if (read?.kind === 'file') bytes = read.bytes;
    else if (!read) bytes = await deps.files.readFile(abs, { maxBytes: maxFile }).catch(() => undefined);
    if (!bytes) {
      setSource(rel, { missing: 'could not be read' });
      continue;
    }
    const hash = await deps.blobs.put(bytes);
    copyBytes += bytes.byteLength;
    copyFiles++;
    folder.copies.set(rel, { stat: st, hash, at: Date.now() });
    setSource(rel, { hash });
  }
  if (all) {
    for (const rel of folder.sources.keys()) if (!files.has(rel)) setSource(rel, undefined);
    for (const rel of folder.copies.keys()) if (!files.has(rel)) folder.copies.delete(rel);
  }
  return notCopied;
}
