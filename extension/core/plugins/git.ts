// Marketplaces and plugins from git are fetched with the real `git` (the user's credentials helpers and
// proxy settings apply, as for Claude Code). Never a shell: the URL is one argument. A failure says which
// repository and git's own last line (an unreachable host, a missing repository, no access).
import { execFile } from 'node:child_process';

const TIMEOUT_MS = 120_000;

export interface GitRunner {
  /** Runs `git args…` in `cwd`; rejects with git's message. */
  run(args: string[], cwd?: string): Promise<string>;
}

export const systemGit: GitRunner = {
  run: (args, cwd) =>
    new Promise((resolve, reject) => {
      execFile(
        'git',
        args,
        {
          cwd,
          timeout: TIMEOUT_MS,
          maxBuffer: 4 * 1024 * 1024,
          // Never a prompt for a password on a terminal nobody sees: fail instead.
          env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '' },
        },
        (err, stdout, stderr) => {
          if (!err) return resolve(stdout);
          const last = `${stderr}`.trim().split('\n').filter(Boolean).pop();
          const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
          reject(new Error(missing ? 'git is not installed (or not on PATH)' : (last ?? err.message)));
        },
      );
    }),
};

/** A shallow clone of `url` (at `ref` when given) into `dir`. */
export async function cloneRepository(git: GitRunner, url: string, dir: string, ref?: string): Promise<void> {
  // `--` ends the options: a URL that starts with "-" is not read as one.
  const args = ['clone', '--depth', '1', ...(ref ? ['--branch', ref] : []), '--', url, dir];
  try {
    await git.run(args);
  } catch (err) {
    throw new Error(`could not clone ${url}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Brings a clone to its remote's newest commit of the branch it follows (local changes are dropped). */
export async function pullRepository(git: GitRunner, dir: string): Promise<void> {
  try {
    await git.run(['fetch', '--depth', '1', 'origin'], dir);
    await git.run(['reset', '--hard', 'FETCH_HEAD'], dir);
  } catch (err) {
    throw new Error(`could not update ${dir}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** A source as typed: a local folder, a git URL, or GitHub's `owner/repo`. */
export function classifySource(
  text: string,
  isFolder: (path: string) => boolean,
): { kind: 'folder'; path: string } | { kind: 'git'; url: string } {
  const t = text.trim();
  if (t.startsWith('/') || t.startsWith('.') || t.startsWith('~') || isFolder(t)) return { kind: 'folder', path: t };
  if (/^(https?|ssh|git|file):\/\//.test(t) || /^[\w.-]+@[\w.-]+:/.test(t) || t.endsWith('.git'))
    return { kind: 'git', url: t };
  if (/^[A-Za-z0-9][\w.-]*\/[\w.-]+$/.test(t)) return { kind: 'git', url: `https://github.com/${t}.git` };
  return { kind: 'folder', path: t };
}
