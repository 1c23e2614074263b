// The end of a worktree session, the user's choice after the diff review (the "Merge back: <branch>"
// group): apply the changes to the main working tree, merge the branch, rebase it onto the main
// branch, or keep the branch. The worktree is removed only once its work is safe — in the main tree
// or committed on the kept branch; on a conflict or a refusal nothing is removed and the main working
// tree is as it was, so the user can resolve by hand in the worktree and choose again.
import { applyToMainTree } from './apply-to-main';
import { unmergedPaths } from './conflicts';
import { mergeBranchIntoMain } from './merge-branch';
import { rebaseBranchOntoMain } from './rebase-branch';
import { removeWorktree } from './remove';
import { saveUncommittedWork } from './save-work';
import type { MergeBackChoice, MergeBackResult, SessionWorktree } from './types';
import { openWorktreeGit } from './worktree-git';

export interface MergeBackOptions {
  /** Keep the worktree folder after a successful merge back (default: removed). */
  keepWorktree?: boolean;
}

export async function mergeBack(
  wt: SessionWorktree,
  choice: MergeBackChoice,
  o: MergeBackOptions = {},
): Promise<MergeBackResult> {
  const inWorktree = await openWorktreeGit(wt.path);
  const inMain = await openWorktreeGit(wt.mainPath);
  const failed = (conflicts: string[], message: string, savedCommit?: string): MergeBackResult => ({
    choice,
    ok: false,
    conflicts,
    message,
    savedCommit,
    worktreeRemoved: false,
    branchKept: true,
  });
  // A merge or rebase the agent left half-done in the worktree: its conflict markers are no work to bring back.
  const unresolved = await unmergedPaths(inWorktree, wt.path);
  if (unresolved.length)
    return failed(unresolved, 'the worktree has unresolved conflicts of its own; resolve them there, then merge back');
  let savedCommit: string | undefined;
  if (choice !== 'apply') {
    try {
      savedCommit = await saveUncommittedWork(wt, inWorktree);
    } catch (e) {
      return failed(
        [],
        `the worktree's uncommitted work could not be committed, so nothing was merged: ${(e as Error).message}`,
      );
    }
  }
  let message: string;
  if (choice === 'apply') {
    const r = await applyToMainTree(wt, inWorktree, inMain);
    if (!r.ok) return failed(r.conflicts, r.message);
    message = r.message;
  } else if (choice === 'merge') {
    const r = await mergeBranchIntoMain(wt, inMain);
    if (!r.ok) return failed(r.conflicts, r.message, savedCommit);
    message = r.message;
  } else if (choice === 'rebase') {
    const r = await rebaseBranchOntoMain(wt, inWorktree, inMain);
    if (!r.ok) return failed(r.conflicts, r.message, savedCommit);
    message = r.message;
  } else {
    message = `Kept ${wt.branch}${savedCommit ? ' (uncommitted work committed on it)' : ''}.`;
  }
  if (o.keepWorktree)
    return { choice, ok: true, conflicts: [], message, savedCommit, worktreeRemoved: false, branchKept: true };
  // Merged or rebased: the branch is in the main branch (`-d` checks). Applied: its changes are in the
  // main tree, which is what the user chose over keeping it. Kept: the branch stays, by definition.
  const deleteBranch = choice === 'keep' ? undefined : choice === 'apply' ? 'always' : 'merged';
  const removed = await removeWorktree(wt, { deleteBranch }, inMain);
  const note = removed.removed ? '' : ` The worktree folder stays: ${removed.problem}.`;
  return {
    choice,
    ok: true,
    conflicts: [],
    message: `${message}${note}`,
    savedCommit,
    worktreeRemoved: removed.removed,
    branchKept: removed.branchKept,
  };
}
