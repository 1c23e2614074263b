// Taking a worktree away after a merge back, or when the user keeps only the branch: `git worktree
// remove` from the main repository, then `prune` (the admin folder of a worktree whose folder is gone).
// Only called once its work is in the main tree or on its branch (merge-back.ts): `--force` then only
// drops what git would not merge anyway (ignored build output) or what was already applied.
import { existsSync } from 'node:fs';
import type { SessionWorktree } from './types';
import { openWorktreeGit, type WorktreeGit } from './worktree-git';

export interface RemoveOptions {
  /** Delete the branch too: 'merged' (only if merged, `branch -d`), 'always' (`-D`), or keep it (default). */
  deleteBranch?: 'merged' | 'always';
}

export interface Removed {
  /** The worktree's folder is gone. */
  removed: boolean;
  branchKept: boolean;
  /** git's reason when the folder could not be removed (a locked worktree …). */
  problem?: string;
}

export async function removeWorktree(wt: SessionWorktree, o: RemoveOptions = {}, git?: WorktreeGit): Promise<Removed> {
  const g = git ?? (await openWorktreeGit(wt.mainPath));
  // A folder already deleted by hand is no error: prune clears what git kept of it.
  const r = await g.run(['worktree', 'remove', '--force', wt.path], { cwd: wt.mainPath, ok: [128] });
  await g.run(['worktree', 'prune'], { cwd: wt.mainPath });
  const removed = !existsSync(wt.path);
  const problem = removed ? undefined : r.stderr.trim() || 'git worktree remove failed';
  // The branch goes only with its worktree (a branch checked out in a worktree cannot be deleted anyway).
  if (!o.deleteBranch || !removed) return { removed, branchKept: true, problem };
  const gone = await g.run(['branch', o.deleteBranch === 'always' ? '-D' : '-d', wt.branch], {
    cwd: wt.mainPath,
    ok: [1],
  });
  return { removed, branchKept: gone.code !== 0, problem };
}
