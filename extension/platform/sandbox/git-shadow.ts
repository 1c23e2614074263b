// The box's view of a repository's `.git` (core/sandbox/git-in-box.ts says what and why): a folder of
// the box's own on the host, bound over `.git`, holding copies of the files git rewrites (index, HEAD
// …) and the mount points for the repository's own entries — objects, refs, logs, lfs bound
// writable, everything else read-only. When the box ends, each copy the command changed goes back to
// the repository the way git writes it (an exclusive `<name>.lock`, then a rename, so a git running
// on the host meanwhile never reads half a file); a file git removed (MERGE_HEAD after a commit) is
// removed. Anything else the command made in `.git` — commondir, config.worktree, a hooks folder of a
// worktree — never reaches the repository: it is kept beside it (`.git.sextant-refused-<time>`),
// never deleted, and reported like any other refusal.
import {
  closeSync,
  cpSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { gitNotCarriedReason, isCarriedState, isGitLock } from '../../core/sandbox/git-in-box';
import type { BoxPlan, BoxRefusal, GitInBox } from '../../core/sandbox/types';

/** How long a copy waits for a git on the host to release its lock before it is kept aside instead. */
const LOCK_TRIES = 100;
const LOCK_WAIT_MS = 20;

interface Copied {
  ino: number;
  mtimeMs: number;
  size: number;
}

export interface GitShadows {
  /** bwrap arguments that put each shadow in place (after the writable roots). */
  args: string[];
  /** Carries the changed copies back and reports what was not carried; removes the shadows. */
  release(): BoxRefusal[];
}

/** Makes the shadow of each planned `.git` under `folder` (a per-box folder on the host). */
export function prepareGitShadows(plan: BoxPlan, folder: string): GitShadows {
  const made: Array<{ g: GitInBox; shadow: string; copied: Map<string, Copied> }> = [];
  const args: string[] = [];
  plan.git.forEach((g, i) => {
    const shadow = join(folder, `git-${i}`);
    mkdirSync(shadow, { recursive: true, mode: 0o755 });
    const copied = new Map<string, Copied>();
    for (const name of g.state) {
      const from = join(g.path, name);
      const to = join(shadow, name);
      try {
        const st = statSync(from);
        writeFileSync(to, readFileSync(from), { mode: st.mode & 0o777 });
        // Same times as the repository's: git's "racily clean" check compares the index's mtime with files'.
        utimesSync(to, st.atime, st.mtime);
        const c = statSync(to);
        copied.set(name, { ino: c.ino, mtimeMs: c.mtimeMs, size: c.size });
      } catch {
        /* gone since the plan was made: the command starts without it */
      }
    }
    args.push('--bind', shadow, g.path);
    for (const name of g.live) {
      mkdirSync(join(shadow, name));
      args.push('--bind', join(g.path, name), join(g.path, name));
    }
    for (const e of g.readOnly) {
      if (e.kind === 'dir') mkdirSync(join(shadow, e.name));
      else writeFileSync(join(shadow, e.name), '');
      args.push('--ro-bind', join(g.path, e.name), join(g.path, e.name));
    }
    made.push({ g, shadow, copied });
  });
  let released = false;
  return {
    args,
    release: () => {
      if (released) return [];
      released = true;
      const out: BoxRefusal[] = [];
      for (const m of made) {
        out.push(...carryBack(m.g, m.shadow, m.copied, plan.cwd));
        rmSync(m.shadow, { recursive: true, force: true });
      }
      return out;
    },
  };
}

function carryBack(g: GitInBox, shadow: string, copied: Map<string, Copied>, cwd: string): BoxRefusal[] {
  const bound = new Set([...g.live, ...g.readOnly.map((e) => e.name)]);
  const refused: string[] = [];
  const failed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(shadow);
  } catch {
    return [];
  }
  for (const name of names) {
    if (bound.has(name) || isGitLock(name)) continue;
    const at = join(shadow, name);
    const st = lstatSync(at, { throwIfNoEntry: false });
    if (!st) continue;
    if (isCarriedState(g, name) && st.isFile()) {
      const before = copied.get(name);
      const changed = !before || before.ino !== st.ino || before.mtimeMs !== st.mtimeMs || before.size !== st.size;
      if (changed && !writeUnderLock(join(g.path, name), at)) failed.push(name);
      continue;
    }
    refused.push(name);
  }
  for (const name of copied.keys()) {
    if (!names.includes(name) && !removeUnderLock(join(g.path, name))) failed.push(name);
  }
  const out: BoxRefusal[] = [];
  if (refused.length || failed.length) {
    const keep = `${g.via}.sextant-refused-${Date.now()}`;
    for (const name of [...refused, ...failed]) {
      try {
        mkdirSync(keep, { recursive: true });
        cpSync(join(shadow, name), join(keep, name), { recursive: true });
      } catch {
        /* a removal git made (nothing to keep), or the copy failed: reported below either way */
      }
    }
    const shownKeep = shown(keep, cwd);
    if (refused.length)
      out.push({
        kind: 'protected',
        target: shown(join(g.via, refused[0]), cwd),
        rule: `${gitNotCarriedReason(refused)}; what the command made is kept in ${shownKeep}`,
      });
    if (failed.length)
      out.push({
        kind: 'protected',
        target: shown(join(g.via, failed[0]), cwd),
        rule:
          `git on the host held ${failed.map((n) => `.git/${n}`).join(', ')} locked, so the command's ` +
          `version was not carried back; it is kept in ${shownKeep}`,
      });
  }
  return out;
}

/** `target` replaced by the bytes of `from`, as git does it: an exclusive `target.lock`, then a rename. */
function writeUnderLock(target: string, from: string): boolean {
  return underLock(target, (lock, fd) => {
    const st = statSync(from);
    writeSync(fd, readFileSync(from));
    closeSync(fd);
    utimesSync(lock, st.atime, st.mtime);
    renameSync(lock, target);
  });
}

function removeUnderLock(target: string): boolean {
  return underLock(target, (lock, fd) => {
    closeSync(fd);
    rmSync(target, { force: true });
    unlinkSync(lock);
  });
}

function underLock(target: string, work: (lock: string, fd: number) => void): boolean {
  const lock = `${target}.lock`;
  const waiter = new Int32Array(new SharedArrayBuffer(4));
  for (let i = 0; i < LOCK_TRIES; i++) {
    let fd: number;
    try {
      fd = openSync(lock, 'wx', 0o644);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return false;
      // A git on the host is writing this file: it holds the lock for milliseconds.
      Atomics.wait(waiter, 0, 0, LOCK_WAIT_MS);
      continue;
    }
    try {
      work(lock, fd);
      return true;
    } catch {
      rmSync(lock, { force: true });
      return false;
    }
  }
  return false;
}

function shown(path: string, cwd: string): string {
  return path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path;
}

/** Where a box's shadows go: beside its other files in the state folder. */
export function shadowFolder(stateRoot: string, name: string): string {
  const folder = join(stateRoot, name);
  mkdirSync(dirname(folder), { recursive: true, mode: 0o700 });
  return folder;
}
