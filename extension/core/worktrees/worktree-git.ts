// The one way the worktree code runs git on the host. Every call goes through Sextant's hardened host
// git (security/host-git.ts: a scrubbed environment, no hooks, fsmonitor off, the repository's own
// filter and merge drivers off) — a worktree's config, or the main repository's, must not run code on
// the host either. On top of that, what a write command (commit, merge, rebase, apply) could still run
// or decide silently is pinned here: no signing program, no background gc, no editor, no recorded
// conflict resolution (rerere would resolve a conflict without asking), no moving of other branches.
import { spawn } from 'node:child_process';
import { hostGitEnv } from '../security/host-git';
import { withGitConfig } from '../security/git-safety';

/** Settings every worktree git call adds to the host-git ones (read like `-c`, above every config file). */
export const WORKTREE_GIT_CONFIG: ReadonlyArray<readonly [string, string]> = [
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  ['rerere.enabled', 'false'],
  ['rebase.updateRefs', 'false'],
  ['rebase.autoStash', 'false'],
  ['merge.autoStash', 'false'],
  ['core.quotePath', 'false'],
];

/** Who commits when the user has no identity configured (a fresh machine): named, never made up per user. */
const FALLBACK_NAME = 'Sextant';
const FALLBACK_EMAIL = 'sextant@localhost';

export interface GitOutput {
  code: number;
  stdout: string;
  /** stdout as bytes (a blob's content). */
  bytes: Buffer;
  stderr: string;
}

export interface GitCall {
  /** Folder git runs in (default: the runner's). */
  cwd?: string;
  /** Bytes for stdin. */
  input?: string | Buffer;
  /** A temporary index file (GIT_INDEX_FILE), so the real index is never touched. */
  index?: string;
  /** Exit codes that are answers, not failures (default: only 0). */
  ok?: readonly number[];
}

export interface WorktreeGit {
  readonly cwd: string;
  /** Runs git; rejects with git's own message on an exit code not in `ok`. */
  run(args: readonly string[], call?: GitCall): Promise<GitOutput>;
  /** stdout of a successful run, trimmed. */
  text(args: readonly string[], call?: GitCall): Promise<string>;
}

/** A runner for the repository at `cwd`, its environment worked out once (host-git's overrides included). */
export async function openWorktreeGit(cwd: string): Promise<WorktreeGit> {
  let env = withGitConfig(await hostGitEnv(cwd), WORKTREE_GIT_CONFIG);
  // No editor, ever: every message is given; a command that would open one gets an empty answer and stops.
  env = { ...env, GIT_EDITOR: 'true', GIT_SEQUENCE_EDITOR: 'true', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };
  const base = env;
  const run = (args: readonly string[], call: GitCall = {}): Promise<GitOutput> =>
    spawnGit(call.cwd ?? cwd, args, call.index ? { ...base, GIT_INDEX_FILE: call.index } : base, call.input).then(
      (out) => {
        if (out.code === 0 || call.ok?.includes(out.code)) return out;
        throw new Error(`git ${args[0]}: ${out.stderr.trim() || `exit ${out.code}`}`);
      },
    );
  const identity = await run(['config', '--get-regexp', '^user\\.(name|email)$'], { ok: [1] });
  if (!/^user\.name /m.test(identity.stdout)) {
    env.GIT_AUTHOR_NAME = FALLBACK_NAME;
    env.GIT_COMMITTER_NAME = FALLBACK_NAME;
  }
  if (!/^user\.email /m.test(identity.stdout)) {
    env.GIT_AUTHOR_EMAIL = FALLBACK_EMAIL;
    env.GIT_COMMITTER_EMAIL = FALLBACK_EMAIL;
  }
  return {
    cwd,
    run,
    text: async (args, call) => (await run(args, call)).stdout.trim(),
  };
}

function spawnGit(
  cwd: string,
  args: readonly string[],
  env: Record<string, string>,
  input: string | Buffer | undefined,
): Promise<GitOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...args], {
      cwd,
      env,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (d: Buffer) => out.push(d));
    child.stderr?.on('data', (d: Buffer) => err.push(d));
    child.on('error', (e) => reject(new Error(`git could not be started: ${e.message}`)));
    child.on('close', (code) =>
      resolve({
        code: code ?? 1,
        bytes: Buffer.concat(out),
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
    if (child.stdin) {
      // git may exit before reading everything (an error): its exit code says so, not the broken pipe.
      child.stdin.on('error', () => undefined);
      child.stdin.end(input);
    }
  });
}
