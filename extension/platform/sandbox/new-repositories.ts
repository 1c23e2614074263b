// Repositories a boxed command made inside the workspace (`git init sub`, `git clone … vendor/x`, a
// `.git` file pointing anywhere). The box cannot forbid a name, and such a repository's config and
// hooks are the command's own: the next git run in that folder on the host — VS Code opens a new
// repository by itself, a shell prompt runs `git status` — would run what they name. So when the box
// ends, every `.git` born during the command below a writable root is put aside: renamed to
// `.git.sextant-refused-<time>` (never deleted; the folder is then no repository) and reported.
//
// Found by walking the writable workspace folders, not descending into node_modules (VS Code neither
// scans nor watches repositories there; a project's dependencies hold tens of thousands of folders)
// nor into any `.git`. "Born during the command": the file system's birth time where it keeps one
// (ext4, btrfs, xfs, tmpfs), else the change time of the repository's config (or the `.git` file).
// The walk stops after MAX_FOLDERS folders, so a huge tree cannot stall every command. It runs anyway,
// so it also tells the caller every repository that is still there (nested-repositories.ts keeps that
// list, so the next box guards those repositories' `.git` without a walk of its own).
import { type Dirent, lstatSync, readdirSync, renameSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BoxPlan, BoxRefusal } from '../../core/sandbox/types';

/** Folders looked at, at most, per writable root (about 0.3 s on a loaded machine). */
export const MAX_FOLDERS = 20_000;
const SKIPPED = new Set(['node_modules', '.git']);
/**
 * File times come from the kernel's coarse clock, which lags Date.now() by up to a tick (1–10 ms): a
 * `.git` made in the first instant of the command must not look older than the launch.
 */
export const CLOCK_SLACK_MS = 20;

/**
 * Notes the time; the returned check puts aside the repositories made since, and reports them.
 * `walked` hears, per root, the folders below it that still hold a `.git` once that is done.
 */
export function guardNewRepositories(
  plan: BoxPlan,
  now = Date.now() - CLOCK_SLACK_MS,
  walked?: (root: string, repositories: string[]) => void,
): () => BoxRefusal[] {
  const roots = plan.writable.filter((w) => w.why === 'workspace' || w.why === 'extra root').map((w) => w.path);
  let checked = false;
  return () => {
    if (checked) return [];
    checked = true;
    const out: BoxRefusal[] = [];
    for (const root of roots) {
      const kept: string[] = [];
      for (const g of gitEntriesBelow(root)) {
        if (!bornSince(g.path, g.isDir, now)) kept.push(dirname(g.path));
        else if (!putAside(g.path, plan.cwd, out)) kept.push(dirname(g.path));
      }
      walked?.(root, kept);
    }
    return out;
  };
}

/** Every `.git` entry (folder, file or link) below `root`, not its own, in at most MAX_FOLDERS folders. */
export function gitEntriesBelow(root: string): Array<{ path: string; isDir: boolean }> {
  const found: Array<{ path: string; isDir: boolean }> = [];
  const stack = [root];
  let seen = 0;
  while (stack.length && seen < MAX_FOLDERS) {
    const dir = stack.pop() as string;
    seen++;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (e.name === '.git') {
        if (dir !== root) found.push({ path: join(dir, e.name), isDir: e.isDirectory() });
        continue;
      }
      if (e.isDirectory() && !SKIPPED.has(e.name)) stack.push(join(dir, e.name));
    }
  }
  return found;
}

function bornSince(path: string, isDir: boolean, since: number): boolean {
  try {
    const st = lstatSync(path);
    if (st.birthtimeMs > 0) return st.birthtimeMs >= since;
    const probe = isDir ? statSync(join(path, 'config'), { throwIfNoEntry: false }) : st;
    return (probe ?? st).ctimeMs >= since;
  } catch {
    return false;
  }
}

/** Renames `git` aside and reports it in `out`; false when it is still there (the rename failed). */
function putAside(git: string, cwd: string, out: BoxRefusal[]): boolean {
  const shown = git.startsWith(`${cwd}/`) ? git.slice(cwd.length + 1) : git;
  const why =
    'a repository made in the box has a config and hooks of the command’s own, and git run in that folder on the ' +
    'host (VS Code opens new repositories by itself) would run what they name';
  const keptAs = `${git}.sextant-refused-${Date.now()}`;
  try {
    renameSync(git, keptAs);
  } catch (e) {
    out.push({
      kind: 'protected',
      target: shown,
      rule: `${why} — putting it aside failed (${(e as Error).message}); check ${shown} before running git there`,
    });
    return false;
  }
  const kept = keptAs.startsWith(`${cwd}/`) ? keptAs.slice(cwd.length + 1) : keptAs;
  out.push({
    kind: 'protected',
    target: shown,
    rule: `${why} — it is kept as ${kept} (no longer a repository); run git init or git clone outside the box`,
  });
  return true;
}
