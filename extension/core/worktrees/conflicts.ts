// The files git names when it refuses or stops: unmerged entries of an index, and the lists in its
// refusals ("Your local changes to the following files would be overwritten …", "patch failed: f:12").
import type { WorktreeGit } from './worktree-git';

/** Paths with unmerged entries in the index (`index`: a temporary one). */
export async function unmergedPaths(git: WorktreeGit, cwd: string, index?: string): Promise<string[]> {
  const out = (await git.run(['ls-files', '-u', '-z'], { cwd, index })).stdout;
  const paths = new Set<string>();
  for (const entry of out.split('\0')) {
    const tab = entry.indexOf('\t');
    if (tab >= 0) paths.add(entry.slice(tab + 1));
  }
  return [...paths].sort();
}

/** `error: <path>: <why>` lines of `git apply`. */
const REFUSED_PATH = new RegExp(
  '^error: (.+?): (?:already exists in (?:working directory|index)|does not exist in index|' +
    'does not match index|patch does not apply)$',
);

/** The paths git lists in a refusal's message (tab-indented lines, `patch failed: <path>:<line>`, `<path>: …`). */
export function pathsInGitMessage(stderr: string): string[] {
  const paths = new Set<string>();
  for (const line of stderr.split('\n')) {
    const listed = /^\t(.+?)\s*$/.exec(line);
    if (listed) paths.add(listed[1]);
    const failed = /^error: patch failed: (.+):\d+$/.exec(line);
    if (failed) paths.add(failed[1]);
    const named = REFUSED_PATH.exec(line);
    if (named) paths.add(named[1]);
    const merge = /^CONFLICT \([^)]*\): .*? in (.+)$/.exec(line);
    if (merge) paths.add(merge[1]);
  }
  return [...paths].sort();
}
