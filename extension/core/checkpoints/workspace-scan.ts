// The stat index of a workspace folder: every file's size, mtime, ctime and inode, read with
// synchronous readdir/lstat calls (microseconds each, no thread-pool round trips), skipping `.git` and
// the folders the caller says are ignored. Comparing two scans tells what a command created, changed
// or deleted without reading a single file.
import { lstatSync, readdirSync, type Stats } from 'node:fs';
import * as path from 'node:path';

export interface StatEntry {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  mode: number;
  /** A symbolic link (recorded as a change, never followed). */
  link?: true;
}

export interface ScanOptions {
  /** Whether a folder or file (path relative to the root, forward slashes) is left out. */
  ignored(rel: string, isDir: boolean): boolean;
  /** At most this many entries; past it the scan stops and says so (`truncated`). */
  maxEntries: number;
}

export interface Scan {
  /** Root-relative path (forward slashes) → stat. */
  files: Map<string, StatEntry>;
  /** Root-relative folders walked (not the root itself). */
  dirs: Set<string>;
  truncated: boolean;
}

/** Scans `root`, or only the folder `under` it (root-relative) when given. */
export function scanFolder(root: string, options: ScanOptions, under = ''): Scan {
  const files = new Map<string, StatEntry>();
  const dirs = new Set<string>();
  let truncated = false;
  const walk = (dir: string, rel: string) => {
    let names: import('node:fs').Dirent[];
    try {
      names = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // gone or unreadable: nothing to record under it
    }
    for (const d of names) {
      if (truncated) return;
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) {
        if (d.name === '.git' || options.ignored(r, true)) continue;
        dirs.add(r);
        walk(`${dir}${path.sep}${d.name}`, r); // (plain joins: path.join's normalising is most of a scan)
        continue;
      }
      if (!d.isFile() && !d.isSymbolicLink()) continue;
      if (options.ignored(r, false)) continue;
      if (files.size >= options.maxEntries) {
        truncated = true;
        return;
      }
      try {
        files.set(r, toEntry(lstatSync(`${dir}${path.sep}${d.name}`)));
      } catch {
        // removed between readdir and lstat: not there
      }
    }
  };
  walk(under ? `${root}${path.sep}${under.split('/').join(path.sep)}` : root, under);
  return { files, dirs, truncated };
}

function toEntry(s: Stats): StatEntry {
  const e: StatEntry = { size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, ino: s.ino, mode: s.mode & 0o7777 };
  if (s.isSymbolicLink()) e.link = true;
  return e;
}

/** One path's stat: a file or link's entry, "dir" for a folder, undefined when gone (or something else). */
export function statPath(abs: string): StatEntry | 'dir' | undefined {
  let s: Stats;
  try {
    s = lstatSync(abs);
  } catch {
    return undefined;
  }
  if (s.isDirectory()) return 'dir';
  return s.isFile() || s.isSymbolicLink() ? toEntry(s) : undefined;
}

/** Whether a file's stat is unchanged between two scans. */
export function sameStat(a: StatEntry, b: StatEntry): boolean {
  return (
    a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino && a.mode === b.mode
  );
}
