// A working tree's diff with only the files the read rules let through. `git diff` prints any tracked
// file's changes — a tracked `.env`, a key file, a file behind a deny rule — which read_file would
// refuse to show: whoever puts a diff in a prompt (`@git`) passes it here, so the diff cannot be a way
// round the read rules. The changed paths are listed first, each judged, and the diff is then asked for
// those allowed paths only (literal pathspecs), so a file that changes between the two git calls is not
// in it unjudged. Renames are split into a deletion and an addition: both names are judged. git runs
// with the host git settings (host-git.ts: no hooks, no fsmonitor, the repository's filter drivers off),
// external diff drivers and textconv filters off.
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { hostGitEnv } from '../security/host-git';

/** Most files a diff is asked for (one pathspec each); the rest are named as left out. */
export const MAX_DIFF_FILES = 2_000;
const MAX_DIFF_BYTES = 4_000_000;
const DIFF_OPTIONS = [
  '--no-pager',
  'diff',
  '--no-ext-diff',
  '--no-textconv',
  '--no-color',
  '--no-renames',
  '--relative',
];

export type DiffReadJudge = (absPath: string) => Promise<{ ok: true } | { ok: false; reason: string }>;

export interface ReadableDiff {
  diff: string;
  /** Changed files left out of the diff, with the read rules' reason. */
  withheld: Array<{ path: string; reason: string }>;
}

/** `git diff <revision>` of the folder `cwd` (paths relative to it), judged file by file. */
export async function readableDiff(cwd: string, revision: string, judge: DiffReadJudge): Promise<ReadableDiff> {
  const names = await git(cwd, [...DIFF_OPTIONS, '--name-only', '-z', revision, '--']);
  const changed = [...new Set(names.split('\0').filter(Boolean))];
  const allowed: string[] = [];
  const withheld: ReadableDiff['withheld'] = [];
  for (const rel of changed) {
    const verdict = await judge(path.join(cwd, rel));
    if (verdict.ok) allowed.push(rel);
    else withheld.push({ path: rel, reason: verdict.reason });
  }
  for (const rel of allowed.splice(MAX_DIFF_FILES))
    withheld.push({ path: rel, reason: `more than ${MAX_DIFF_FILES} changed files` });
  if (!allowed.length) return { diff: '', withheld };
  const diff = await git(cwd, [...DIFF_OPTIONS, revision, '--', ...allowed.map((p) => `:(literal)${p}`)]);
  return { diff, withheld };
}

/** The note that goes with a diff when files were left out of it. */
export function withheldNote(withheld: ReadableDiff['withheld']): string {
  if (!withheld.length) return '';
  const shown = withheld.slice(0, 20).map((w) => `${w.path} (${w.reason})`);
  const more = withheld.length > 20 ? `, and ${withheld.length - 20} more` : '';
  return `[Changes not included, by the read rules: ${shown.join('; ')}${more}.]`;
}

async function git(cwd: string, args: string[]): Promise<string> {
  const env = await hostGitEnv(cwd);
  return new Promise((resolve) => {
    execFile(
      'git',
      args,
      { cwd, env, maxBuffer: MAX_DIFF_BYTES, windowsHide: true, encoding: 'utf8' },
      // Not a repository, no commit yet, git missing: no diff (a diff cut at the buffer cap is kept).
      (err, stdout) => resolve(err && !stdout ? '' : stdout),
    );
  });
}
