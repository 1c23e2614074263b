// "Create branch and pull request" at a session's end: the session's work on a branch of its own (a
// worktree session already has one; on the default branch a new `sextant/<slug>` is made where HEAD
// is), pushed after the user's approval (push.ts), then the pull request (pull-request.ts) with a
// title and body written from the session and its review (pr-text.ts). Uncommitted changes are not
// pushed: the user is told to commit them first (/commit), so the pull request holds what they saw.
import { type GitRunOptions, gitOut, runGitCommand } from './git-exec';
import { type PullRequestPorts, type PullRequestResult, openPullRequest } from './pull-request';
import { type PushPorts, pushBranch } from './push';
import { GitProblem, readRepoState } from './repo-state';
import { pullRequestText, type SessionSummary } from './pr-text';

export interface BranchPullRequestResult {
  branch: string;
  base: string;
  created: boolean;
  pushed: string;
  pullRequest: PullRequestResult;
}

/** The branch pull requests go into: the remote's default branch, else main or master, else `fallback`. */
export async function baseBranch(top: string, remote: string, fallback: string, o: GitRunOptions = {}) {
  const head = await runGitCommand(top, ['symbolic-ref', '-q', '--short', `refs/remotes/${remote}/HEAD`], o);
  if (head.code === 0 && head.stdout.trim()) return head.stdout.trim().slice(remote.length + 1);
  for (const name of ['main', 'master'])
    if ((await runGitCommand(top, ['rev-parse', '-q', '--verify', `refs/heads/${name}`], o)).code === 0) return name;
  return fallback;
}

/** A branch name from the session's title: `sextant/<words>` in lower-case ASCII. */
export function branchNameFor(title: string): string {
  const slug = title
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return `sextant/${slug || 'changes'}`;
}

export async function createBranchAndPullRequest(
  cwd: string,
  session: SessionSummary,
  ports: PushPorts & PullRequestPorts & { ghEnv?: Record<string, string> },
  o: GitRunOptions = {},
): Promise<BranchPullRequestResult> {
  const s = await readRepoState(cwd, o);
  if (s.operation)
    throw new GitProblem('operation_in_progress', `${s.operation} is in progress: finish or abort it first.`);
  if (s.staged.length || s.unstaged.length)
    throw new GitProblem(
      'git_failed',
      `You have uncommitted changes (${[...new Set([...s.staged, ...s.unstaged])].slice(0, 5).join(', ')}). ` +
        'Commit them first (/commit or the Source Control view), so the pull request holds them.',
    );
  const remotes = (await runGitCommand(s.top, ['remote'], o)).stdout.split('\n').filter(Boolean);
  const remote = remotes.includes('origin') ? 'origin' : (remotes[0] ?? 'origin');
  const base = await baseBranch(s.top, remote, s.branch ?? 'main', o);
  let branch = s.branch;
  let created = false;
  if (!branch || branch === base) {
    branch = await freeBranchName(s.top, branchNameFor(session.title), o);
    await gitOut(s.top, ['switch', '-q', '-c', branch], o);
    created = true;
  }
  // Against the remote's base when it is known: local commits on main are what the pull request proposes.
  const remoteBase = `refs/remotes/${remote}/${base}`;
  const known = (await runGitCommand(s.top, ['rev-parse', '-q', '--verify', remoteBase], o)).code === 0;
  const range = `${known ? remoteBase : base}..HEAD`;
  const ahead = (await runGitCommand(s.top, ['rev-list', '--count', range], o)).stdout.trim();
  if (ahead === '0')
    throw new GitProblem('no_changes', `${branch} has no commits that ${base} does not: nothing to propose.`);
  const log = (await runGitCommand(s.top, ['log', '--format=%s', range], o)).stdout;
  const pushed = await pushBranch(s.top, ports, o);
  const text = pullRequestText(session, log.split('\n').filter(Boolean));
  const pullRequest = await openPullRequest(
    s.top,
    { ...text, base, head: branch, remoteUrl: pushed.url },
    ports,
    ports.ghEnv,
  );
  return { branch, base, created, pushed: pushed.command, pullRequest };
}

async function freeBranchName(top: string, name: string, o: GitRunOptions): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : `${name}-${n}`;
    if ((await runGitCommand(top, ['rev-parse', '-q', '--verify', `refs/heads/${candidate}`], o)).code !== 0)
      return candidate;
  }
}
