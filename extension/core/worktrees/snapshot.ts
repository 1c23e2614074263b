// A working tree's whole state as one tree object — committed, staged, unstaged and untracked files
// (not ignored ones) — made in a temporary index, so neither the tree nor its real index is touched.
// The real index is copied in first: its cached file times let `git add -A` hash only what changed.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorktreeGit } from './worktree-git';

/**
 * `git add -A` over the whole tree, but not what the box kept aside (`.git.sextant-refused-<time>`:
 * a config or hook a command tried to plant in `.git`) — that must never become part of the work.
 */
export const ADD_ALL: readonly string[] = ['add', '-A', '--', '.', ':(exclude,glob)**/.git.sextant-refused-*/**'];

/** The tree id of `top`'s working tree as it is now; `gitDir` is its admin folder (where its index is). */
export async function snapshotTree(git: WorktreeGit, top: string, gitDir: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-snapshot-'));
  const index = join(dir, 'index');
  try {
    try {
      copyFileSync(join(gitDir, 'index'), index);
    } catch {
      // No index yet (nothing ever staged): start from HEAD's tree.
      await git.run(['read-tree', 'HEAD'], { cwd: top, index });
    }
    await git.run(ADD_ALL, { cwd: top, index });
    return await git.text(['write-tree'], { cwd: top, index });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Uses a temporary index for `work`, seeded with `tree`'s entries, removed after. */
export async function withTemporaryIndex<T>(
  git: WorktreeGit,
  cwd: string,
  tree: string,
  work: (index: string) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-index-'));
  const index = join(dir, 'index');
  try {
    await git.run(['read-tree', tree], { cwd, index });
    return await work(index);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
