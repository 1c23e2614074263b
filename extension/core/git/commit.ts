// The approved commit: exactly the files the card showed, with the card's message and the user's
// identity. Staging happens in a temporary index file (GIT_INDEX_FILE in the repository's git folder),
// never in the user's index: it starts as HEAD's tree, takes each file on the card (the staged version
// when the card commits staged changes, the working tree's otherwise), and `git commit` runs on it with
// the repository's hooks. A hook that refuses, or any failure, deletes the temporary file: the user's
// index is exactly as it was and nothing is committed. Only after the commit succeeded are the committed
// paths of the real index set to the new HEAD (`git reset -q -- <paths>`), so everything else the user
// had staged stays staged. Never `--no-verify`; `--amend` only when the card said so.
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { type GitRunOptions, gitOut, runGitCommand } from './git-exec';
import { commitProblem, GitProblem, readRepoState } from './repo-state';

export interface CommitRequest {
  /** Paths relative to the repository's top folder, as the card lists them. */
  files: string[];
  message: string;
  /** Take each file as it is staged (the card said "staged"), else as it is in the working tree. */
  from: 'index' | 'worktree';
  /** Replace the last commit: only when the user asked for it on the card. */
  amend?: boolean;
}

export interface CommitDone {
  sha: string;
  branch: string;
  subject: string;
  files: string[];
}

const OUTPUT_MAX = 4_000;

/** Commits the request, or throws a GitProblem that says why and what to do; the index is never left changed. */
export async function commitFiles(cwd: string, req: CommitRequest, o: GitRunOptions = {}): Promise<CommitDone> {
  const message = req.message.trim();
  if (!message) throw new GitProblem('git_failed', 'The commit message is empty: write one on the card.');
  const files = [...new Set(req.files.map((f) => f.trim()).filter(Boolean))];
  if (!files.length) throw new GitProblem('no_changes', 'No files to commit: the card names none.');
  const s = await readRepoState(cwd, o);
  const problem = commitProblem(s, { needChanges: true });
  if (problem) throw problem;
  const changed = new Set([...s.staged, ...s.unstaged, ...s.untracked]);
  const outside = files.filter((f) => path.isAbsolute(f) || f.split(/[\\/]/).includes('..'));
  if (outside.length) throw new GitProblem('git_failed', `Not a path in this repository: ${outside.join(', ')}.`);
  const unchanged = files.filter((f) => !changed.has(f));
  if (unchanged.length)
    throw new GitProblem('no_changes', `No changes to commit in ${unchanged.join(', ')} (git status lists none).`);

  const index = path.join(s.gitDir, `sextant-commit-index-${randomBytes(6).toString('hex')}`);
  const withIndex: GitRunOptions = { ...o, env: { ...(o.env ?? {}), GIT_INDEX_FILE: index } };
  try {
    const hasHead = (await runGitCommand(s.top, ['rev-parse', '-q', '--verify', 'HEAD'], o)).code === 0;
    await gitOut(s.top, hasHead ? ['read-tree', 'HEAD'] : ['read-tree', '--empty'], withIndex);
    await stageInto(s.top, files, req.from, o, withIndex);
    const args = ['commit', '-q', '--cleanup=strip', '-F', '-', ...(req.amend ? ['--amend'] : [])];
    const done = await runGitCommand(s.top, args, { ...withIndex, hooks: true, input: `${message}\n` });
    if (done.code !== 0) throw await commitFailure(s.top, done.stdout, done.stderr, o);
  } finally {
    rmSync(index, { force: true });
    rmSync(`${index}.lock`, { force: true });
  }
  // The committed paths of the user's index now match the commit; the rest of the index is untouched.
  await runGitCommand(s.top, ['reset', '-q', 'HEAD', '--', ...files.map(literal)], o);
  const sha = (await gitOut(s.top, ['rev-parse', 'HEAD'], o)).trim();
  return { sha, branch: s.branch ?? '', subject: message.split('\n')[0] ?? '', files };
}

/** `:(literal)` so a path with `*` or `:` is that path, not a pattern. */
function literal(p: string): string {
  return `:(literal)${p}`;
}

async function stageInto(
  top: string,
  files: string[],
  from: CommitRequest['from'],
  real: GitRunOptions,
  temp: GitRunOptions,
): Promise<void> {
  if (from === 'worktree') {
    await gitOut(top, ['add', '-A', '--', ...files.map(literal)], temp);
    return;
  }
  // The staged version of each file: its entry copied from the user's index, or removed when staged as deleted.
  const entries = await gitOut(top, ['ls-files', '-s', '-z', '--', ...files.map(literal)], real);
  const present = new Set(
    entries
      .split('\0')
      .filter(Boolean)
      .map((e) => e.slice(e.indexOf('\t') + 1)),
  );
  const removed = files.filter((f) => !present.has(f));
  if (removed.length)
    await gitOut(top, ['rm', '-q', '--cached', '--ignore-unmatch', '--', ...removed.map(literal)], temp);
  if (entries) await gitOut(top, ['update-index', '-z', '--index-info'], { ...temp, input: entries });
}

/** Why `git commit` failed, said for the user; a hook that refused is named with what it printed. */
async function commitFailure(top: string, stdout: string, stderr: string, o: GitRunOptions): Promise<GitProblem> {
  const output = `${stderr}\n${stdout}`.trim().slice(0, OUTPUT_MAX);
  for (const hook of ['pre-commit', 'commit-msg', 'prepare-commit-msg']) {
    const file = (
      await runGitCommand(top, ['rev-parse', '--git-path', `hooks/${hook}`], { ...o, hooks: true })
    ).stdout.trim();
    if (file && existsSync(path.resolve(top, file)) && !/nothing to commit|no changes added/i.test(output))
      return new GitProblem(
        'hook_failed',
        `The repository's ${hook} hook refused the commit, so nothing was committed and your staged changes are ` +
          `as they were. Fix what it reports and commit again${output ? `:\n${output}` : '.'}`,
      );
  }
  if (/nothing to commit|no changes added/i.test(output))
    return new GitProblem('no_changes', 'Nothing to commit: these files have no changes against HEAD.');
  return new GitProblem('git_failed', `git commit failed, and nothing was committed: ${output || 'no reason given'}`);
}
