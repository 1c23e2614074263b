// Pushing a branch: the same path as any command the agent runs. The command (`git push -u <remote>
// <branch>`, never --force) is judged by the user's permission policy as a bash call would be; a deny
// rule refuses it, and otherwise the user is asked every time (nothing is pushed without the user),
// then it runs where commands run (in the editor: the box, whose proxy reaches the remote). A remote
// that refuses the push (its branch moved on) is said plainly, with what to do; it is never forced.
//
// The `-u` half is done on the host, not by the pushing git: `git push -u` writes the branch's
// upstream into `.git/config`, which the box keeps read-only (git reads it as code; in a worktree it
// is the repository's common config). So the box runs `git push <remote> refs/heads/<b>:refs/heads/<b>`
// and, once it succeeded, the host records `branch.<b>.remote` / `.merge` — fixed keys and values
// from this code, after the push the user approved; nothing the model runs can reach it.
import { type GitResult, type GitRunOptions, runGitCommand } from './git-exec';
import { GitProblem, readRepoState } from './repo-state';

export interface PushPorts {
  /** The permission policy's verdict on the command, as for a bash call. */
  judge(command: string): Promise<{ decision: 'allow' | 'ask' | 'deny'; reason: string }>;
  /** The approval card: true when the user approved this push. */
  approve(command: string, detail: string): Promise<boolean>;
  /** Runs the approved command in `cwd` (the box in the editor; git itself in tests). */
  run(args: string[], cwd: string): Promise<GitResult>;
}

export interface Pushed {
  remote: string;
  branch: string;
  /** The remote's URL (for the compare link). */
  url: string;
  command: string;
  /** The branch's upstream was recorded on the host (`<remote>/<branch>`); false: why not, in `upstreamProblem`. */
  upstreamSet: boolean;
  upstreamProblem?: string;
}

/** The remote a branch pushes to: its configured one, else `origin`, else the only remote. */
export async function pushRemote(top: string, branch: string, o: GitRunOptions = {}): Promise<string> {
  const configured = (await runGitCommand(top, ['config', '--get', `branch.${branch}.remote`], o)).stdout.trim();
  const remotes = (await runGitCommand(top, ['remote'], o)).stdout.split('\n').filter(Boolean);
  const remote = configured || (remotes.includes('origin') ? 'origin' : remotes.length === 1 ? remotes[0] : '');
  if (!remote || !remotes.includes(remote))
    throw new GitProblem(
      'no_remote',
      remotes.length
        ? `This repository has several remotes (${remotes.join(', ')}) and none is "origin": set the branch's ` +
            `remote with git branch --set-upstream-to or push once by hand.`
        : 'This repository has no remote to push to. Add one: git remote add origin <url>.',
    );
  return remote;
}

/** Work done once the user approved the push, before it runs (a worktree's uncommitted work committed). */
export interface BeforePush {
  /** Said on the approval card, after the commits. */
  detail: string;
  run(): Promise<void>;
}

/** Pushes the current branch after the policy and the user allowed it; throws a GitProblem otherwise. */
export async function pushBranch(
  cwd: string,
  ports: PushPorts,
  o: GitRunOptions = {},
  before?: BeforePush,
): Promise<Pushed> {
  const s = await readRepoState(cwd, o);
  const branch = s.branch;
  if (!branch)
    throw new GitProblem(
      'detached_head',
      'HEAD is detached, so there is no branch to push. Create one first: git switch -c <new-branch>.',
    );
  const remote = await pushRemote(s.top, branch, o);
  const url = (await runGitCommand(s.top, ['remote', 'get-url', remote], o)).stdout.trim();
  // No -u: see the top of this file; the upstream is set below, on the host.
  const args = ['push', remote, `refs/heads/${branch}:refs/heads/${branch}`];
  const command = `git push -u ${remote} ${branch}`;
  const verdict = await ports.judge(command);
  if (verdict.decision === 'deny')
    throw new GitProblem('declined', `Not pushed: your permission rules refuse "${command}" (${verdict.reason}).`);
  // A branch the remote does not have yet: the commits no branch of the remote has.
  const tracked = await runGitCommand(s.top, ['log', '--oneline', '-n', '20', `${remote}/${branch}..HEAD`], o);
  const ahead = (
    tracked.code === 0
      ? tracked
      : await runGitCommand(s.top, ['log', '--oneline', '-n', '20', 'HEAD', '--not', `--remotes=${remote}`], o)
  ).stdout;
  const detail =
    `Push branch ${branch} to ${remote} (${url}).${ahead ? `\n\nCommits:\n${ahead.trim()}` : ''}` +
    (before ? `\n\n${before.detail}` : '');
  if (!(await ports.approve(command, detail))) throw new GitProblem('declined', 'Not pushed: you declined the push.');
  await before?.run();
  const r = await ports.run(args, s.top);
  if (r.code !== 0) throw pushFailure(remote, branch, `${r.stderr}\n${r.stdout}`.trim());
  const upstream = await setUpstream(s.top, remote, branch, o);
  return { remote, branch, url, command, upstreamSet: !upstream, ...(upstream ? { upstreamProblem: upstream } : {}) };
}

/**
 * The `-u` of the approved push, on the host: `branch.<b>.remote` and `branch.<b>.merge`, as `git push -u`
 * writes them (also when the remote-tracking ref was not updated, which `--set-upstream-to` would need).
 * A failure is reported, not thrown: the branch is pushed either way.
 */
async function setUpstream(top: string, remote: string, branch: string, o: GitRunOptions): Promise<string | undefined> {
  for (const [key, value] of [
    [`branch.${branch}.remote`, remote],
    [`branch.${branch}.merge`, `refs/heads/${branch}`],
  ] as const) {
    const r = await runGitCommand(top, ['config', '--local', key, value], o);
    if (r.code !== 0) return `its upstream was not recorded (git config ${key}: ${r.stderr.trim() || r.code})`;
  }
  return undefined;
}

function pushFailure(remote: string, branch: string, output: string): GitProblem {
  if (/\[rejected\]|non-fast-forward|fetch first|\[remote rejected\]/i.test(output))
    return new GitProblem(
      'push_rejected',
      `${remote} refused the push of ${branch}: ${
        /remote rejected/i.test(output)
          ? 'the remote rejected it (a protected branch or a server hook)'
          : 'the remote branch has commits yours does not'
      }. Nothing was forced. Bring them in first (git pull --rebase ${remote} ${branch}), then push again.\n` +
        output.slice(0, 2000),
    );
  return new GitProblem('git_failed', `git push failed: ${output.slice(0, 2000) || 'no reason given'}`);
}
