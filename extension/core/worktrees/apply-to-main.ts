// Merge back (a): the worktree's changes applied to the main working tree as uncommitted edits, the
// way `git apply --3way` would — but the main tree is touched only when everything applies. The
// three-way merge is done first in a temporary index seeded with the main tree's whole state
// (uncommitted and untracked edits included, snapshot.ts): a file the user edited in the same lines
// comes out unmerged there, and is reported, with nothing written. When it is clean, the difference
// between the main tree's state and the merged one is applied to the working tree by a plain
// `git apply`, which writes all files or none (so an edit made meanwhile fails it whole, too).
import { conflictingPaths } from './apply-conflicts';
import { snapshotTree, withTemporaryIndex } from './snapshot';
import type { SessionWorktree } from './types';
import type { WorktreeGit } from './worktree-git';

export interface ApplyOutcome {
  ok: boolean;
  conflicts: string[];
  message: string;
  /** Files changed in the main working tree. */
  applied: number;
}

const DIFF = ['diff-tree', '-r', '-p', '--binary', '--full-index', '-M', '--no-ext-diff', '--no-textconv'];

export async function applyToMainTree(
  wt: SessionWorktree,
  inWorktree: WorktreeGit,
  inMain: WorktreeGit,
): Promise<ApplyOutcome> {
  const after = await snapshotTree(inWorktree, wt.path, wt.gitDir);
  const patch = (await inMain.run([...DIFF, wt.base, after], { cwd: wt.mainPath })).bytes;
  if (patch.length === 0)
    return { ok: true, conflicts: [], applied: 0, message: 'The worktree has no changes against its base.' };
  const mainGitDir = await inMain.text(['rev-parse', '--absolute-git-dir'], { cwd: wt.mainPath });
  const mainState = await snapshotTree(inMain, wt.mainPath, mainGitDir);
  const merged = await withTemporaryIndex<{ tree?: string; conflicts: string[] }>(
    inMain,
    wt.mainPath,
    mainState,
    async (index) => {
      const r = await inMain.run(['apply', '--cached', '--3way', '--binary', '-'], {
        cwd: wt.mainPath,
        index,
        input: patch,
        ok: [1, 128],
      });
      if (r.code !== 0) return { conflicts: await conflictingPaths(inMain, wt.mainPath, index, r.stderr) };
      return { tree: await inMain.text(['write-tree'], { cwd: wt.mainPath, index }), conflicts: [] };
    },
  );
  if (!merged.tree)
    return {
      ok: false,
      conflicts: merged.conflicts,
      applied: 0,
      message:
        `${merged.conflicts.length} file(s) conflict with the main working tree's own edits; nothing was applied ` +
        'and the main working tree is as it was',
    };
  const final = (await inMain.run([...DIFF, mainState, merged.tree], { cwd: wt.mainPath })).bytes;
  if (final.length === 0)
    return { ok: true, conflicts: [], applied: 0, message: 'The main working tree already has these changes.' };
  const written = await inMain.run(['apply', '--binary', '-'], { cwd: wt.mainPath, input: final, ok: [1, 128] });
  if (written.code !== 0) {
    const conflicts = await conflictingPaths(inMain, wt.mainPath, undefined, written.stderr, false);
    return {
      ok: false,
      conflicts,
      applied: 0,
      message:
        'the main working tree changed while the changes were being applied (or holds an ignored file in their ' +
        `way); nothing was applied: ${written.stderr.trim().split('\n')[0]}`,
    };
  }
  const applied = (await inMain.run(['apply', '--numstat', '-'], { cwd: wt.mainPath, input: final })).stdout
    .split('\n')
    .filter(Boolean).length;
  return { ok: true, conflicts: [], applied, message: `Applied ${applied} file(s) to the main working tree.` };
}
