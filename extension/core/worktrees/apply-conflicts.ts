// The files a failed apply names: the unmerged entries its three-way merge left in the temporary
// index, else the paths in git's message.
import { pathsInGitMessage, unmergedPaths } from './conflicts';
import type { WorktreeGit } from './worktree-git';

export async function conflictingPaths(
  git: WorktreeGit,
  cwd: string,
  index: string | undefined,
  stderr: string,
  readIndex = true,
): Promise<string[]> {
  const unmerged = readIndex ? await unmergedPaths(git, cwd, index) : [];
  return unmerged.length ? unmerged : pathsInGitMessage(stderr);
}
