// The one way the git feature (commit messages, /commit, push, pull requests) runs git: a real `git`
// process with a fixed environment — the scrubbed child environment (no provider keys, no tokens), the
// git safety settings, English messages (LC_ALL=C, so a failure can be recognised), no terminal prompt
// (a push that needs a password fails with git's reason instead of hanging), no editor and no pager.
// Reads also get Sextant's host-git hardening: no hooks, no filter drivers. The commit itself
// (`hooks: true`; also where git is asked which hooks exist) runs the repository's hooks as git runs
// them: the user approved that commit on its card.
import { spawn } from 'node:child_process';
import { defaultChildEnv } from '../security/child-env';
import { hostGitEnv } from '../security/host-git';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface GitRunOptions {
  /** Extra variables (GIT_INDEX_FILE for the commit's own index). */
  env?: Record<string, string>;
  input?: string;
  signal?: AbortSignal;
  /** Run the repository's hooks (only the approved commit does); reads never run them. */
  hooks?: boolean;
  /** The environment to start from (tests put a PATH without `gh` here); default the scrubbed one. */
  baseEnv?: Record<string, string>;
}

/** Variables every git call gets, above whatever the user's environment says. */
export const FIXED_GIT_ENV: Readonly<Record<string, string>> = {
  LC_ALL: 'C',
  LANGUAGE: 'C',
  GIT_TERMINAL_PROMPT: '0',
  GIT_EDITOR: 'true',
  GIT_SEQUENCE_EDITOR: 'true',
  GIT_PAGER: 'cat',
  GIT_OPTIONAL_LOCKS: '0',
};

/** Variables from the extension host that would point git at another repository or index: never passed on. */
const REPOSITORY_VARIABLES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_COMMON_DIR'];

export async function gitEnv(cwd: string, o: GitRunOptions = {}): Promise<Record<string, string>> {
  const base = { ...(o.baseEnv ?? defaultChildEnv()) };
  for (const name of REPOSITORY_VARIABLES) delete base[name];
  const env = o.hooks ? base : await hostGitEnv(cwd, base);
  return { ...env, ...FIXED_GIT_ENV, ...(o.env ?? {}) };
}

/** Runs git in `cwd`; resolves with the exit code and output (never rejects on a non-zero exit). */
export async function runGitCommand(cwd: string, args: string[], o: GitRunOptions = {}): Promise<GitResult> {
  const env = await gitEnv(cwd, o);
  return runProgram('git', args, cwd, env, o);
}

/** Runs a program (git, gh) and collects its output; a program that cannot start is exit code 127. */
export function runProgram(
  file: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  o: { input?: string; signal?: AbortSignal } = {},
): Promise<GitResult> {
  return new Promise((resolve) => {
    const child = spawn(file, args, {
      cwd,
      env,
      stdio: [o.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      windowsHide: true,
      ...(o.signal ? { signal: o.signal } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', (err) => resolve({ code: 127, stdout, stderr: stderr || err.message }));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    if (child.stdin) {
      child.stdin.on('error', () => undefined);
      child.stdin.end(o.input);
    }
  });
}

/** Runs git and returns stdout; throws an error with git's own reason on failure. */
export async function gitOut(cwd: string, args: string[], o: GitRunOptions = {}): Promise<string> {
  const r = await runGitCommand(cwd, args, o);
  if (r.code !== 0) throw new Error(`git ${args[0]}: ${(r.stderr || r.stdout).trim() || `exit ${r.code}`}`);
  return r.stdout;
}
