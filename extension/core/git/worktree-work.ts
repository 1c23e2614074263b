// A worktree session's uncommitted work (the agent's edits, new files included) committed on the
// worktree's branch before its push, so the pull request holds what the session did. Done only after
// the user approved the push (whose card lists these files), through the worktree code's hardened host
// git (worktrees/worktree-git.ts: no hooks, no signing program, a named identity when the user has
// none) — as Merge Back's "keep the branch" saves the same work. The main checkout is never touched:
// the worktree has its own index and HEAD.
import { ADD_ALL } from '../worktrees/snapshot';
import { openWorktreeGit } from '../worktrees/worktree-git';
import { GitProblem } from './repo-state';

/** What the box set aside in a worktree (a refused `.git` write) is never part of the work. */
const REFUSED = /(^|\/)\.git\.sextant-refused-/;

/** The files to commit, without what the box set aside. */
export function worktreeWorkFiles(pending: readonly string[]): string[] {
  return pending.filter((f) => !REFUSED.test(f));
}

/** The approval card's lines about the commit made before the push. */
export function worktreeWorkDetail(pending: readonly string[], message: string): string {
  const files = worktreeWorkFiles(pending);
  const list = files.slice(0, 10).join(', ') + (files.length > 10 ? ` and ${files.length - 10} more` : '');
  return `First, the worktree's uncommitted work is committed on its branch as "${message}": ${list}.`;
}

export async function commitWorktreeWork(top: string, message: string): Promise<void> {
  try {
    const git = await openWorktreeGit(top);
    await git.run(ADD_ALL, { cwd: top });
    const staged = await git.run(['diff', '--cached', '--quiet', '--no-ext-diff'], { cwd: top, ok: [1] });
    if (staged.code === 0) return;
    await git.run(['commit', '--quiet', '--no-verify', '-F', '-'], { cwd: top, input: message });
  } catch (err) {
    throw new GitProblem(
      'git_failed',
      `The worktree's work was not committed, so nothing was pushed: ${err instanceof Error ? err.message : err}`,
    );
  }
}
