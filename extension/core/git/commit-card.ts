// What the /commit card (the git_commit tool's approval) shows, computed the same way when the card is
// drawn and when the approved commit runs: which files, taken from where (staged or working tree), the
// message, whether it amends, the hooks that will run, and the diff itself one click away.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { type GitRunOptions, runGitCommand } from './git-exec';
import type { CommitRequest } from './commit';
import type { RepoState } from './repo-state';

export const CARD_DIFF_MAX = 30_000;
const HOOKS = ['pre-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit'];

/** Staged files commit as staged (the user chose those hunks); a list with any unstaged file takes the working tree. */
export function commitSource(s: RepoState, files: string[]): CommitRequest['from'] {
  const staged = new Set(s.staged);
  return files.every((f) => staged.has(f)) ? 'index' : 'worktree';
}

/** The repository's hooks a commit runs (as git runs them: on the host, with your rights). */
export async function commitHooks(top: string, o: GitRunOptions = {}): Promise<string[]> {
  const found: string[] = [];
  for (const hook of HOOKS) {
    const file = (
      await runGitCommand(top, ['rev-parse', '--git-path', `hooks/${hook}`], { ...o, hooks: true })
    ).stdout.trim();
    if (file && existsSync(path.resolve(top, file))) found.push(hook);
  }
  return found;
}

/** The diff of exactly the files on the card, from the side the commit takes them. */
export async function cardDiff(s: RepoState, files: string[], o: GitRunOptions = {}): Promise<string> {
  const from = commitSource(s, files);
  const lit = files.map((f) => `:(literal)${f}`);
  const base = ['diff', '--no-ext-diff', '--no-textconv', '--no-color', '--stat', '--patch'];
  const tracked = (
    await runGitCommand(
      s.top,
      from === 'index' ? [...base, '--cached', '--', ...lit] : [...base, 'HEAD', '--', ...lit],
      o,
    )
  ).stdout;
  const untracked = files.filter((f) => s.untracked.includes(f)).map((f) => `new file: ${f}`);
  const diff = [tracked.trim(), ...untracked].filter(Boolean).join('\n');
  return diff.length > CARD_DIFF_MAX ? `${diff.slice(0, CARD_DIFF_MAX)}\n[… the diff goes on]` : diff;
}

export function commitCardText(
  req: Pick<CommitRequest, 'files' | 'message' | 'amend'>,
  from: CommitRequest['from'],
  s: RepoState,
  hooks: string[],
  diff: string,
): string {
  const lines = [
    req.amend ? `AMENDS the last commit on ${s.branch} (it is replaced).` : `Commit on ${s.branch}`,
    `Author: ${s.identity ? `${s.identity.name} <${s.identity.email}>` : '(no identity set)'}`,
    '',
    'Message:',
    req.message.trim(),
    '',
    `Files (${from === 'index' ? 'as staged' : 'as in the working tree'}; nothing else is staged or committed):`,
    ...req.files.map((f) => `  ${f}`),
  ];
  const others = s.staged.filter((f) => !req.files.includes(f));
  if (others.length) lines.push('', `Staged but not in this commit (they stay staged): ${others.join(', ')}`);
  lines.push(
    '',
    hooks.length ? `Hooks that run: ${hooks.join(', ')} (on your machine, as git runs them)` : 'No hooks.',
  );
  if (diff) lines.push('', 'Diff:', diff);
  return lines.join('\n');
}
