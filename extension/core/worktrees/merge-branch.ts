// Merge back (b): the worktree's branch merged into the main working tree's current branch with
// `git merge --no-ff` (one merge commit that says where the work came from). Conflicts are found
// first without touching anything (`git merge-tree --write-tree`, the same merge in memory), so a
// conflicting merge never starts: the main tree, its index and its uncommitted edits stay exactly as
// they were. git itself refuses a merge that would overwrite uncommitted edits, before writing; if a
// merge still stops (the tree changed in between), it is aborted and reported.
import { pathsInGitMessage, unmergedPaths } from './conflicts';
import type { SessionWorktree } from './types';
import type { WorktreeGit } from './worktree-git';

export interface MergeOutcome {
  ok: boolean;
  conflicts: string[];
  message: string;
}

export function mergeMessage(wt: SessionWorktree): string {
  return `Merge ${wt.branch} (a Sextant session's worktree)`;
}

export async function mergeBranchIntoMain(wt: SessionWorktree, inMain: WorktreeGit): Promise<MergeOutcome> {
  const cwd = wt.mainPath;
  const dry = await inMain.run(['merge-tree', '--write-tree', '--name-only', '--no-messages', 'HEAD', wt.branch], {
    cwd,
    ok: [1],
  });
  if (dry.code === 1) {
    // First line: the tree with conflict markers; then each conflicting path, up to an empty line.
    const conflicts = dry.stdout.split('\n').slice(1);
    const end = conflicts.indexOf('');
    const files = [...new Set(end >= 0 ? conflicts.slice(0, end) : conflicts)].sort();
    return {
      ok: false,
      conflicts: files,
      message: `${files.length} file(s) conflict between ${wt.branch} and the main branch; nothing was merged`,
    };
  }
  const r = await inMain.run(['merge', '--no-ff', '--no-edit', '--no-verify', '-m', mergeMessage(wt), wt.branch], {
    cwd,
    ok: [1, 2, 128],
  });
  if (r.code === 0) return { ok: true, conflicts: [], message: `Merged ${wt.branch} into the main branch.` };
  const unmerged = await unmergedPaths(inMain, cwd);
  if (unmerged.length) await inMain.run(['merge', '--abort'], { cwd });
  const conflicts = unmerged.length ? unmerged : pathsInGitMessage(r.stderr);
  return {
    ok: false,
    conflicts,
    message: `git did not merge ${wt.branch}; the main working tree is as it was: ${firstError(r.stderr)}`,
  };
}

export function firstError(stderr: string): string {
  const lines = stderr.trim().split('\n');
  return (lines.find((l) => /^(error|fatal):/.test(l)) ?? lines[0] ?? '').replace(/^(error|fatal): /, '');
}
