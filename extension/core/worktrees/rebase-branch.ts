// Merge back (c): the worktree's branch rebased onto the main working tree's current commit (in the
// worktree, where the branch is checked out), then the main branch fast-forwarded to it — a straight
// history, no merge commit. A rebase that stops on a conflict is aborted (`git rebase --abort` puts
// the branch back as it was) and the conflicting files reported; a fast-forward git refuses because it
// would overwrite the main tree's uncommitted edits leaves the main tree as it was, the branch rebased.
import { firstError } from './merge-branch';
import { pathsInGitMessage, unmergedPaths } from './conflicts';
import type { SessionWorktree } from './types';
import type { WorktreeGit } from './worktree-git';

export interface RebaseOutcome {
  ok: boolean;
  conflicts: string[];
  message: string;
  /** The branch was rebased (its commits now sit on the main branch's commit). */
  rebased: boolean;
}

export async function rebaseBranchOntoMain(
  wt: SessionWorktree,
  inWorktree: WorktreeGit,
  inMain: WorktreeGit,
): Promise<RebaseOutcome> {
  const onto = await inMain.text(['rev-parse', 'HEAD'], { cwd: wt.mainPath });
  const r = await inWorktree.run(['rebase', '--no-autostash', '--no-verify', onto], { cwd: wt.path, ok: [1, 128] });
  if (r.code !== 0) {
    const unmerged = await unmergedPaths(inWorktree, wt.path);
    await inWorktree.run(['rebase', '--abort'], { cwd: wt.path, ok: [1, 128] });
    const conflicts = unmerged.length ? unmerged : pathsInGitMessage(`${r.stdout}\n${r.stderr}`);
    return {
      ok: false,
      rebased: false,
      conflicts,
      message: `${wt.branch} does not rebase cleanly onto the main branch; it is back as it was and nothing was merged`,
    };
  }
  const ff = await inMain.run(['merge', '--ff-only', '--no-verify', wt.branch], { cwd: wt.mainPath, ok: [1, 2, 128] });
  if (ff.code !== 0)
    return {
      ok: false,
      rebased: true,
      conflicts: pathsInGitMessage(ff.stderr),
      message:
        `${wt.branch} is rebased onto the main branch, but the main working tree was not moved to it: ` +
        `${firstError(ff.stderr)}`,
    };
  return {
    ok: true,
    rebased: true,
    conflicts: [],
    message: `Rebased ${wt.branch} and fast-forwarded the main branch.`,
  };
}
