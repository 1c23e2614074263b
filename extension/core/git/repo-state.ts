// What a commit needs to know about a repository before it starts, and the clear refusals (issue 41
// item 5): not a repository, a detached HEAD, a merge / rebase / cherry-pick in progress, no identity,
// nothing to commit. Each refusal says what is wrong and what the user does about it, so nothing is
// half-done: the checks run before anything is staged.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { type GitRunOptions, runGitCommand } from './git-exec';

export type GitProblemCode =
  | 'not_a_repository'
  | 'detached_head'
  | 'operation_in_progress'
  | 'no_identity'
  | 'no_changes'
  | 'hook_failed'
  | 'push_rejected'
  | 'declined'
  | 'no_remote'
  | 'git_failed';

/** A refusal or failure written for the user: what happened and what to do. */
export class GitProblem extends Error {
  constructor(
    readonly code: GitProblemCode,
    message: string,
  ) {
    super(message);
    this.name = 'GitProblem';
  }
}

export interface RepoState {
  /** The working tree's top folder. */
  top: string;
  gitDir: string;
  /** The current branch, undefined on a detached HEAD. */
  branch: string | undefined;
  /** A merge, rebase, cherry-pick or revert that has not finished. */
  operation: string | undefined;
  identity: { name: string; email: string } | undefined;
  /** Paths relative to `top`. */
  staged: string[];
  unstaged: string[];
  untracked: string[];
}

const OPERATIONS: ReadonlyArray<[file: string, name: string, finish: string]> = [
  ['MERGE_HEAD', 'a merge', 'git merge --continue (or git merge --abort)'],
  ['rebase-merge', 'a rebase', 'git rebase --continue (or git rebase --abort)'],
  ['rebase-apply', 'a rebase', 'git rebase --continue (or git rebase --abort)'],
  ['CHERRY_PICK_HEAD', 'a cherry-pick', 'git cherry-pick --continue (or git cherry-pick --abort)'],
  ['REVERT_HEAD', 'a revert', 'git revert --continue (or git revert --abort)'],
];

export async function readRepoState(cwd: string, o: GitRunOptions = {}): Promise<RepoState> {
  const where = await runGitCommand(cwd, ['rev-parse', '--show-toplevel', '--absolute-git-dir'], o);
  const [top, gitDir] = where.stdout.trim().split('\n');
  if (where.code !== 0 || !top || !gitDir)
    throw new GitProblem(
      'not_a_repository',
      `${cwd} is not in a git repository. Open a folder that is one, or run "git init" there first.`,
    );
  const head = await runGitCommand(top, ['symbolic-ref', '-q', '--short', 'HEAD'], o);
  const operation = OPERATIONS.find(([file]) => existsSync(path.join(gitDir, file)));
  const config = async (key: string) => (await runGitCommand(top, ['config', '--get', key], o)).stdout.trim();
  const name = o.baseEnv?.GIT_AUTHOR_NAME ?? (await config('user.name'));
  const email = o.baseEnv?.GIT_AUTHOR_EMAIL ?? (await config('user.email'));
  const status = await runGitCommand(top, ['status', '--porcelain=v1', '-z', '--untracked-files=all'], o);
  return {
    top,
    gitDir,
    branch: head.code === 0 ? head.stdout.trim() : undefined,
    operation: operation?.[1],
    identity: name && email ? { name, email } : undefined,
    ...parseStatus(status.stdout),
  };
}

/** `git status --porcelain=v1 -z`: XY and a path per entry; a rename or copy is followed by its old path. */
export function parseStatus(z: string): Pick<RepoState, 'staged' | 'unstaged' | 'untracked'> {
  const out = { staged: [] as string[], unstaged: [] as string[], untracked: [] as string[] };
  const parts = z.split('\0');
  for (let i = 0; i < parts.length; i++) {
    const entry = parts[i] ?? '';
    if (entry.length < 4) continue;
    const x = entry[0];
    const y = entry[1];
    const file = entry.slice(3);
    // A staged rename is committed as both its paths: the new file and the old one's removal.
    const old = x === 'R' || x === 'C' ? parts[++i] : undefined;
    if (x === 'R' && old) out.staged.push(old);
    if (x === '?') out.untracked.push(file);
    else {
      if (x !== ' ' && x !== '!') out.staged.push(file);
      if (y !== ' ' && y !== '!') out.unstaged.push(file);
    }
  }
  return out;
}

/** Why a commit cannot be made in this state (with what to do), or undefined when it can. */
export function commitProblem(s: RepoState, o: { needChanges: boolean }): GitProblem | undefined {
  if (!s.branch)
    return new GitProblem(
      'detached_head',
      'HEAD is detached (no branch is checked out), so a commit would belong to no branch. Create one first: ' +
        'git switch -c <new-branch>.',
    );
  if (s.operation) {
    const finish = OPERATIONS.find(([, name]) => name === s.operation)?.[2] ?? '';
    return new GitProblem(
      'operation_in_progress',
      `${s.operation.replace(/^a/, 'A')} is in progress in this repository. Resolve its conflicts and finish it with ` +
        `${finish} before committing here.`,
    );
  }
  if (!s.identity)
    return new GitProblem(
      'no_identity',
      'git does not know who you are, and a commit records its author. Set it once: ' +
        'git config --global user.name "Your Name" and git config --global user.email you@example.com.',
    );
  if (o.needChanges && !s.staged.length && !s.unstaged.length && !s.untracked.length)
    return new GitProblem('no_changes', 'Nothing to commit: the working tree is clean (no staged or changed files).');
  return undefined;
}

/** The files a commit takes when the user named none: the staged ones, or every change when none is staged. */
export function defaultCommitFiles(s: RepoState): { files: string[]; staged: boolean } {
  if (s.staged.length) return { files: [...s.staged], staged: true };
  return { files: [...new Set([...s.unstaged, ...s.untracked])], staged: false };
}
