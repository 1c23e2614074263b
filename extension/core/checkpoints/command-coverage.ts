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
// Limits, each with a note in the checkpoint rather than a stall: MAX_SCAN_ENTRIES files per folder,
// MAX_COPY_BYTES / MAX_COPY_FILES of new copies per command, files over the checkpoint size limit.
import { realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { CheckpointBlobs } from './blobs';
import { checkIgnored, findRepo, type GitRepo, ignoredPaths, readBlobs } from './git-repo';
import { type GitIndex, readGitIndex } from './git-index';
import type { CheckpointFiles, FileState } from './types';
import { DEFAULT_MAX_FILE_BYTES } from './types';
import { sameStat, type Scan, type StatEntry, scanFolder } from './workspace-scan';

/** Files scanned per folder: about 0.1–0.3 s per scan on a loaded 2-core machine at this size. */
export const MAX_SCAN_ENTRIES = 50_000;
export const MAX_COPY_BYTES = 64 * 1024 * 1024;
export const MAX_COPY_FILES = 5_000;
/** A copy is reused this long at most: retention removes unnamed staged copies after a day. */
const COPY_REUSE_MS = 12 * 60 * 60 * 1000;
/** Left out of folders that are not in a git repository (there is no .gitignore to ask). */
const DEFAULT_IGNORED_DIRS = new Set(['node_modules', 'dist', 'build', 'out', 'target', '.venv', '__pycache__']);

/** Where the bytes a file had before a command come from, if it changes. */
type Source = { hash: string } | { oid: string; repoPath: string } | { missing: string };

/** One workspace folder's state, kept between commands. */
interface Folder {
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
}

/** One per window: keeps each folder's ignore list, git index and copies between commands. */
export class CommandCoverage {
  private readonly folders = new Map<string, Promise<Folder>>();

  constructor(
    private readonly files: CheckpointFiles,
    private readonly blobs: CheckpointBlobs,
    private readonly options: CommandCoverageOptions = {},
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
        return {
          root: real,
          repo,
          prefix,
          ignored: new Set<string>(),
          ignoreFiles: '\0',
          index: undefined,
          copies: new Map(),
        };
      })();
      this.folders.set(root, f);
    }
    return f;
  }

  private async folderBefore(root: string): Promise<FolderBefore> {
    const folder = await this.folderOf(root);
    // The first time, ask git what it ignores before scanning, so node_modules is never walked.
    if (folder.repo && folder.ignoreFiles === '\0') folder.ignored = await this.readIgnored(folder);
    let scan = this.scan(folder);
    const ignoreKey = ignoreFilesKey(scan);
    if (folder.ignoreFiles === '\0') folder.ignoreFiles = ignoreKey;
    if (folder.repo && ignoreKey !== folder.ignoreFiles) {
      // First command, or a .gitignore changed: ask git what it ignores, then scan without it.
      folder.ignored = await this.readIgnored(folder);
      folder.ignoreFiles = ignoreKey;
      scan = this.scan(folder);
    }
    const index = this.gitIndex(folder);
    const sources = new Map<string, Source>();
    let copyBytes = 0;
    let copyFiles = 0;
    let notCopied = 0;
    const maxFile = this.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    for (const [rel, st] of scan.files) {
      if (st.link) continue; // a link's target is recorded where it lives, if inside the workspace
      const repoPath = folder.prefix ? `${folder.prefix}/${rel}` : rel;
      const entry = index?.entries.get(repoPath);
      if (
        entry &&
        entry.size === st.size % 2 ** 32 &&
        Math.abs(entry.mtimeMs - st.mtimeMs) < 0.001 &&
        entry.ino === st.ino % 2 ** 32 &&
        st.mtimeMs < (index as GitIndex).mtimeMs
      ) {
        sources.set(rel, { oid: entry.oid, repoPath });
        continue;
      }
      const copy = folder.copies.get(rel);
      if (copy && sameStat(copy.stat, st) && Date.now() - copy.at < COPY_REUSE_MS) {
        sources.set(rel, { hash: copy.hash });
        continue;
      }
      if (st.size > maxFile) {
        sources.set(rel, { missing: 'too large to keep a copy' });
        continue;
      }
      if (
        copyBytes + st.size > (this.options.maxCopyBytes ?? MAX_COPY_BYTES) ||
        copyFiles >= (this.options.maxCopyFiles ?? MAX_COPY_FILES)
      ) {
        sources.set(rel, { missing: 'over the copy limit for one command' });
        notCopied++;
        continue;
      }
      const abs = path.join(folder.root, rel);
      const now = this.files.readNow?.(abs, maxFile);
      let bytes: Uint8Array | undefined;
      if (now?.kind === 'file') bytes = now.bytes;
      else if (!now) bytes = await this.files.readFile(abs, { maxBytes: maxFile }).catch(() => undefined);
      if (!bytes) {
        sources.set(rel, { missing: 'could not be read' });
        continue;
      }
      const hash = await this.blobs.put(bytes);
      copyBytes += bytes.byteLength;
      copyFiles++;
      folder.copies.set(rel, { stat: st, hash, at: Date.now() });
      sources.set(rel, { hash });
    }
    for (const rel of folder.copies.keys()) if (!scan.files.has(rel)) folder.copies.delete(rel);
    return { folder, scan, sources, notCopied };
  }

  private async afterAll(befores: FolderBefore[]): Promise<CommandChanges> {
    const out: CommandChanges = { states: [], notes: [] };
    for (const b of befores) await this.folderAfter(b, out);
    return out;
  }

  private async folderAfter(b: FolderBefore, out: CommandChanges): Promise<void> {
    const { folder } = b;
    const scan = this.scan(folder);
    const changed: string[] = [];
    let created: string[] = [];
    // A scan cut at the limit may stop at another file the second time (a new file shifts the order):
    // then only files both scans saw count, so nothing is taken for created or deleted by mistake.
    const partial = b.scan.truncated || scan.truncated;
    for (const [rel, st] of b.scan.files) {
      const now = scan.files.get(rel);
      if (now ? !sameStat(now, st) : !partial) changed.push(rel);
    }
    if (!partial) for (const rel of scan.files.keys()) if (!b.scan.files.has(rel)) created.push(rel);
    if (folder.repo && created.length) {
      // New files git ignores (a log, a build output) are left out like the rest of the ignored paths.
      const repoPaths = created.map((r) => (folder.prefix ? `${folder.prefix}/${r}` : r));
      const ignored = await checkIgnored(folder.repo, repoPaths);
      created = created.filter((_, i) => !ignored.has(repoPaths[i]));
    }
    const fromGit = changed.flatMap((rel) => {
      const s = b.sources.get(rel);
      return s && 'oid' in s && !rel.includes('\n') ? [{ oid: s.oid, path: s.repoPath, rel }] : [];
    });
    const gitBytes =
      folder.repo && fromGit.length ? await readBlobs(folder.repo, fromGit).catch(() => undefined) : undefined;
    const missing: string[] = [];
    for (const rel of changed) {
      const st = b.scan.files.get(rel) as StatEntry;
      const abs = path.join(folder.root, rel);
      if (st.link) {
        missing.push(`${rel} (a symbolic link)`);
        continue;
      }
      const s = b.sources.get(rel);
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
    if (b.scan.truncated || scan.truncated)
      out.notes.push(
        `${folder.root} has more than ${this.maxScan()} files: only changes to the first ${this.maxScan()} were ` +
          'recorded (files that commands created or deleted there are not)',
      );
    if (b.notCopied) out.notes.push(`${b.notCopied} files were over the copy limit for one command`);
  }

  private scan(folder: Folder): Scan {
    const ignored = folder.repo
      ? (rel: string, isDir: boolean) => folder.ignored.has(isDir ? `${rel}/` : rel)
      : (rel: string, isDir: boolean) => isDir && DEFAULT_IGNORED_DIRS.has(path.posix.basename(rel));
    return scanFolder(folder.root, { ignored, maxEntries: this.maxScan() });
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

interface FolderBefore {
  folder: Folder;
  scan: Scan;
  sources: Map<string, Source>;
  notCopied: number;
}

/** The stat of every .gitignore in a scan: when it changes, what git ignores may have changed. */
function ignoreFilesKey(scan: Scan): string {
  const parts: string[] = [];
  for (const [rel, st] of scan.files)
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
): { files: CheckpointFiles; blobs: CheckpointBlobs; coverage: CommandCoverage } {
  return { files, blobs, coverage: new CommandCoverage(files, blobs) };
}
