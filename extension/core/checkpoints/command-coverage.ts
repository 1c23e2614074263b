// Rewind for what commands change. Before each command the agent runs, `before()` refreshes a stat index
// of every workspace folder (size, mtime, ctime, inode — no file is read) and makes sure the bytes of
// every file that could not be got back otherwise are saved; `after()` refreshes the index again and
// turns the difference into checkpoint entries (what each created, changed or deleted file was before).
//
// Cost follows what changed, not the size of the repository:
// - a tracked file that is clean (its stat matches git's index, the way `git status` decides) is not
//   copied: if the command changes or deletes it, its old bytes come from the repository's own objects
//   (`git cat-file --filters`, one process for all of them) and only then go into the blob store;
// - an untracked or modified file is copied once per version (a later command reuses the copy while its
//   stat is unchanged), staged without fsync; only copies a checkpoint names are made durable;
// - ignored paths (.gitignore, .git/info/exclude; without git: node_modules and common build folders)
//   are never scanned or covered, and the checkpoint says so, as the rewind preview does.
// - with a change feed (file-change events, `change-feed.ts`), the stat index is kept between commands
//   and only the paths the events name are looked at again (`folder-index.ts`); whenever the feed cannot
//   vouch for its events (not ready yet, a limit, a possible overflow) the whole folder is scanned, and
//   `onScan` says why;
// Limits, each with a note in the checkpoint rather than a stall: MAX_SCAN_ENTRIES files per folder,
// MAX_COPY_BYTES / MAX_COPY_FILES of new copies per command, files over the checkpoint size limit.
import { realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { CheckpointBlobs } from './blobs';
import type { ChangeFeed } from './change-feed';
import { FolderIndex } from './folder-index';
import { checkIgnored, findRepo, ignoredPaths, readBlobs } from './git-repo';
import { type GitIndex, readGitIndex } from './git-index';
import type { CheckpointFiles, FileState } from './types';
import { type Folder, type FolderBefore, type Source, updateSources } from './command-sources';
import { sameStat, type ScanOptions, type StatEntry } from './workspace-scan';

export { MAX_COPY_BYTES, MAX_COPY_FILES } from './command-sources';

/** Files scanned per folder: about 0.1–0.3 s per scan on a loaded 2-core machine at this size. */
export const MAX_SCAN_ENTRIES = 50_000;
/** Left out of folders that are not in a git repository (there is no .gitignore to ask). */
const DEFAULT_IGNORED_DIRS = new Set(['node_modules', 'dist', 'build', 'out', 'target', '.venv', '__pycache__']);

/** How a folder's stat index was brought up to date for a command. */
export interface ScanReport {
  root: string;
  /** "changes": only the paths file events named; "full": every file was looked at. */
  mode: 'changes' | 'full';
  /** Why the whole folder was scanned (the events could not be trusted, the first time, …). */
  reason?: string;
  /** Paths looked at again ("changes" mode). */
  paths?: number;
}

export interface CommandChanges {
  /** Each file the command created, changed or deleted, as it was before (hash in the blob store). */
  states: FileState[];
  /** What this command's coverage left out, in words for the rewind preview. */
  notes: string[];
}

export interface CommandWatch {
  after(): Promise<CommandChanges>;
}

export interface CommandCoverageOptions {
  maxFileBytes?: number;
  maxScanEntries?: number;
  maxCopyBytes?: number;
  maxCopyFiles?: number;
  /** File-change events: with them, a command's cost follows what changed (else: two full scans). */
  feed?: ChangeFeed;
  /** Told how each folder's index was refreshed (the full-scan fallbacks and their reasons go to the log). */
  onScan?: (report: ScanReport) => void;
}

/** One per window: keeps each folder's ignore list, git index and copies between commands. */
export class CommandCoverage {
  private readonly folders = new Map<string, Promise<Folder>>();

  constructor(
    readonly files: CheckpointFiles,
    readonly blobs: CheckpointBlobs,
    readonly options: CommandCoverageOptions = {},
  ) {}

  /** The workspace's state now, before a command; `after()` on the result records what it changed. */
  async before(): Promise<CommandWatch> {
    const roots = this.files.roots();
    const befores = await Promise.all(roots.map((r) => this.folderBefore(r)));
    return { after: () => this.afterAll(befores) };
  }

  private folderOf(root: string): Promise<Folder> {
    let f = this.folders.get(root);
    if (!f) {
      f = (async () => {
        const real = realpathSync(root);
        const repo = await findRepo(real);
        const prefix = repo ? path.relative(repo.top, real).split(path.sep).join('/') : '';
        const folder: Folder = {
          root: real,
          repo,
          prefix,
          ignored: new Set<string>(),
          ignoreFiles: '\0',
          index: undefined,
          copies: new Map(),
          stats: new FolderIndex(real, { ignored: () => false, maxEntries: this.maxScan() }),
          synced: false,
          sources: new Map(),
          sourcesKey: undefined,
          retry: new Set(),
          queue: Promise.resolve(),
          watches: new Set(),
        };
        // The first time, ask git what it ignores before scanning, so node_modules is never walked.
        if (repo) folder.ignored = await this.readIgnored(folder);
        this.setIgnored(folder);
        return folder;
      })();
      this.folders.set(root, f);
    }
    return f;
  }

  /** Makes the scans and the feed leave out what `folder.ignored` (or, without git, the defaults) says. */
  private setIgnored(folder: Folder): void {
    folder.stats.options = this.scanOptions(folder);
    folder.synced = false;
    this.options.feed?.watch(folder.root, {
      ...(folder.repo ? { paths: [...folder.ignored] } : {}),
      defaultDirs: [...DEFAULT_IGNORED_DIRS],
    });
  }

  /** Runs `fn` after the folder's earlier refreshes (a background command's `after` may meet a `before`). */
  private serial<T>(folder: Folder, fn: () => Promise<T>): Promise<T> {
    const run = folder.queue.then(fn);
    folder.queue = run.catch(() => undefined);
    return run;
  }

  /** Brings the folder's stat index up to date: from the feed's changes when it vouches for them, else a scan. */
  private async refresh(folder: Folder): Promise<void> {
    const feed = this.options.feed;
    const changes = feed ? await feed.take(folder.root) : undefined;
    let reason = changes ? changes.reason : 'no file events';
    if (changes?.trusted && !folder.synced) reason = 'the first command';
    if (changes?.trusted && folder.synced) {
      if (folder.stats.apply(changes.paths)) {
        this.options.onScan?.({ root: folder.root, mode: 'changes', paths: changes.paths.length });
        return;
      }
      reason = `more than ${this.maxScan()} files`;
    }
    folder.stats.scanAll();
    // The scan came after the take: the next take's paths cover everything since (unless cut short).
    folder.synced = !!feed && !folder.stats.truncated;
    this.options.onScan?.({ root: folder.root, mode: 'full', ...(reason ? { reason } : {}) });
  }

  private async folderBefore(root: string): Promise<FolderBefore> {
    const folder = await this.folderOf(root);
    return this.serial(folder, async () => {
      await this.refresh(folder);
      let touched = folder.stats.drainTouched();
      const ignoreKey =
        touched === 'all' || [...touched].some((r) => r === '.gitignore' || r.endsWith('/.gitignore'))
          ? ignoreFilesKey(folder.stats.files)
          : folder.ignoreFiles;
      if (folder.ignoreFiles === '\0') folder.ignoreFiles = ignoreKey;
      if (folder.repo && ignoreKey !== folder.ignoreFiles) {
        // A .gitignore changed: ask git what it ignores, then scan without it.
        folder.ignored = await this.readIgnored(folder);
        folder.ignoreFiles = ignoreKey;
        this.setIgnored(folder);
        await this.refresh(folder);
        touched = folder.stats.drainTouched();
      }
      const notCopied = await updateSources(folder, touched, this.gitIndex(folder), this);
      const watch = Object.assign(folder.stats.open(), { oldSources: new Map<string, Source | undefined>() });
      folder.watches.add(watch);
      return { folder, watch, notCopied };
    });
  }

  private async afterAll(befores: FolderBefore[]): Promise<CommandChanges> {
    const out: CommandChanges = { states: [], notes: [] };
    for (const b of befores) {
      await this.serial(b.folder, () => this.folderAfter(b, out)).finally(() => {
        b.folder.stats.close(b.watch);
        b.folder.watches.delete(b.watch);
      });
    }
    return out;
  }

  private async folderAfter(b: FolderBefore, out: CommandChanges): Promise<void> {
    const { folder, watch } = b;
    await this.refresh(folder);
    const files = folder.stats.files;
    const changed: string[] = [];
    let created: string[] = [];
    // A scan cut at the limit may stop at another file the second time (a new file shifts the order):
    // then only files both scans saw count, so nothing is taken for created or deleted by mistake.
    const partial = watch.partial || folder.stats.truncated;
    for (const [rel, was] of watch.old) {
      const now = files.get(rel);
      if (was) {
        if (now ? !sameStat(now, was) : !partial) changed.push(rel);
      } else if (now && !partial) created.push(rel);
    }
    const sourceOf = (rel: string) => (watch.oldSources.has(rel) ? watch.oldSources.get(rel) : folder.sources.get(rel));
    const fromGit = changed.flatMap((rel) => {
      const s = sourceOf(rel);
      return s && 'oid' in s && !rel.includes('\n') ? [{ oid: s.oid, path: s.repoPath, rel }] : [];
    });
    // The two git processes (old bytes of clean tracked files; which new files git ignores) run side by side.
    const repoPaths = created.map((r) => (folder.prefix ? `${folder.prefix}/${r}` : r));
    const [gitBytes, ignored] = await Promise.all([
      folder.repo && fromGit.length ? readBlobs(folder.repo, fromGit).catch(() => undefined) : undefined,
      folder.repo && created.length ? checkIgnored(folder.repo, repoPaths) : new Set<string>(),
    ]);
    // New files git ignores (a log, a build output) are left out like the rest of the ignored paths.
    created = created.filter((_, i) => !ignored.has(repoPaths[i]));
    const missing: string[] = [];
    for (const rel of changed) {
      const st = watch.old.get(rel) as StatEntry;
      const abs = path.join(folder.root, rel);
      if (st.link) {
        missing.push(`${rel} (a symbolic link)`);
        continue;
      }
      const s = sourceOf(rel);
      let hash: string | undefined;
      if (s && 'hash' in s) hash = s.hash;
      else if (s && 'oid' in s) {
        const bytes = gitBytes?.get(s.repoPath);
        if (bytes) hash = await this.blobs.put(bytes);
      }
      if (!hash) {
        missing.push(`${rel} (${s && 'missing' in s ? s.missing : 'its earlier content could not be read'})`);
        continue;
      }
      out.states.push({ path: abs, existed: true, hash, size: st.size, mode: st.mode });
    }
    for (const rel of created) out.states.push({ path: path.join(folder.root, rel), existed: false });
    if (missing.length) {
      const more = missing.length > 3 ? ` and ${missing.length - 3} more` : '';
      out.notes.push(`A command changed files that cannot be put back: ${missing.slice(0, 3).join(', ')}${more}`);
    }
    if (partial)
      out.notes.push(
        `${folder.root} has more than ${this.maxScan()} files: only changes to the first ${this.maxScan()} were ` +
          'recorded (files that commands created or deleted there are not)',
      );
    if (b.notCopied) out.notes.push(`${b.notCopied} files were over the copy limit for one command`);
  }

  private scanOptions(folder: Folder): ScanOptions {
    const ignored = folder.repo
      ? (rel: string, isDir: boolean) => folder.ignored.has(isDir ? `${rel}/` : rel)
      : (rel: string, isDir: boolean) => isDir && DEFAULT_IGNORED_DIRS.has(path.posix.basename(rel));
    return { ignored, maxEntries: this.maxScan() };
  }

  private maxScan(): number {
    return this.options.maxScanEntries ?? MAX_SCAN_ENTRIES;
  }

  private async readIgnored(folder: Folder): Promise<Set<string>> {
    if (!folder.repo) return new Set();
    const all = await ignoredPaths(folder.repo).catch(() => []);
    const own = folder.prefix ? `${folder.prefix}/` : '';
    return new Set(all.filter((p) => p.startsWith(own)).map((p) => p.slice(own.length)));
  }

  private gitIndex(folder: Folder): GitIndex | undefined {
    if (!folder.repo) return undefined;
    const file = path.join(folder.repo.gitDir, 'index');
    // Re-read only when the index file changed (git add, commit, checkout).
    let key = '';
    try {
      const st = statSync(file);
      key = `${st.size}:${st.mtimeMs}:${st.ino}`;
    } catch {
      return undefined;
    }
    if (folder.index?.key !== key) folder.index = { key, index: readGitIndex(file, folder.repo.oidBytes) };
    return folder.index.index;
  }
}

/** The stat of every .gitignore in the index: when it changes, what git ignores may have changed. */
function ignoreFilesKey(files: Map<string, StatEntry>): string {
  const parts: string[] = [];
  for (const [rel, st] of files)
    if (rel === '.gitignore' || rel.endsWith('/.gitignore')) parts.push(`${rel}:${st.size}:${st.mtimeMs}:${st.ino}`);
  return parts.join('|');
}

/** The note the rewind preview shows about paths command coverage never watches. */
export const IGNORED_NOTE =
  'Files that commands changed are restored too, except in ignored paths (.gitignore; without git: ' +
  'node_modules, dist, build, out, target, .venv, __pycache__).';

/** The files, blobs and command coverage a window's checkpoints use (one coverage for all its chats). */
export function checkpointStorage(
  files: CheckpointFiles,
  blobs: CheckpointBlobs,
  options: CommandCoverageOptions = {},
): { files: CheckpointFiles; blobs: CheckpointBlobs; coverage: CommandCoverage } {
  return { files, blobs, coverage: new CommandCoverage(files, blobs, options) };
}
