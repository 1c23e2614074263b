// Before a merge, a rebase or a kept branch, the worktree's uncommitted and untracked work becomes a
// commit on its branch with a message that says so — removing the worktree afterwards then loses
// nothing, and the merge carries everything the review showed.
import { ADD_ALL } from './snapshot';
import type { SessionWorktree } from './types';
import type { WorktreeGit } from './worktree-git';

export function savedWorkMessage(wt: SessionWorktree): string {
  return `Sextant: work left uncommitted in the worktree of ${wt.branch}, saved before merging back`;
}

/** Commits everything not yet committed in the worktree; the new commit's id, or undefined if there was nothing. */
export async function saveUncommittedWork(wt: SessionWorktree, git: WorktreeGit): Promise<string | undefined> {
  await git.run(ADD_ALL, { cwd: wt.path });
  const staged = await git.run(['diff', '--cached', '--quiet', '--no-ext-diff'], { cwd: wt.path, ok: [1] });
  if (staged.code === 0) return undefined;
  await git.run(['commit', '--quiet', '--no-verify', '-m', savedWorkMessage(wt)], { cwd: wt.path });
  return git.text(['rev-parse', 'HEAD'], { cwd: wt.path });
}
