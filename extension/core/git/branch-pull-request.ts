// "Create branch and pull request" at a session's end: the session's work on a branch of its own (a
// worktree session already has one; on the default branch a new `sextant/<slug>` is made where HEAD
// is), pushed after the user's approval (push.ts), then the pull request (pull-request.ts) with a
// title and body written from the session and its review (pr-text.ts). Uncommitted changes in the main
// checkout are not pushed: the user is told to commit them first (/commit), so the pull request holds
// what they saw. A worktree is the session's alone: its uncommitted work (the agent's edits) is
// committed on its branch — after the push's approval, which says so — and pushed with it.
import { type GitRunOptions, gitOut, runGitCommand } from './git-exec';
import { type PullRequestPorts, type PullRequestResult, openPullRequest } from './pull-request';
import { type BeforePush, type PushPorts, pushBranch } from './push';
import { commitWorktreeWork, worktreeWorkDetail, worktreeWorkFiles } from './worktree-work';
import { GitProblem, readRepoState } from './repo-state';
import { pullRequestText, type SessionSummary } from './pr-text';

export interface BranchPullRequestResult {
  branch: string;
  base: string;
  created: boolean;
  pushed: string;
  /** The push landed but the branch's upstream was not recorded (why). */
  upstreamProblem?: string;
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

export interface BranchPullRequestOptions {
  /** A worktree session's worktree: its uncommitted work is committed (as the session's title) and pushed. */
  worktree?: boolean;
}

export async function createBranchAndPullRequest(
  cwd: string,
  session: SessionSummary,
  ports: PushPorts & PullRequestPorts & { ghEnv?: Record<string, string> },
  o: GitRunOptions = {},
  how: BranchPullRequestOptions = {},
): Promise<BranchPullRequestResult> {
  const s = await readRepoState(cwd, o);
  if (s.operation)
    throw new GitProblem('operation_in_progress', `${s.operation} is in progress: finish or abort it first.`);
  const pending = worktreeWorkFiles([...new Set([...s.staged, ...s.unstaged, ...(how.worktree ? s.untracked : [])])]);
  const message = session.title.trim() || 'Changes';
  const before: BeforePush | undefined =
    how.worktree && pending.length
      ? {
          detail: worktreeWorkDetail(pending, message),
          run: () => commitWorktreeWork(s.top, message),
        }
      : undefined;
  if (!how.worktree && (s.staged.length || s.unstaged.length))
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
  if ((!branch || branch === base) && how.worktree)
    throw new GitProblem('detached_head', 'The worktree is not on its own branch: open it and switch to one first.');
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
  if (ahead === '0' && !before)
    throw new GitProblem('no_changes', `${branch} has no commits that ${base} does not: nothing to propose.`);
  const log = (await runGitCommand(s.top, ['log', '--format=%s', range], o)).stdout;
  const pushed = await pushBranch(s.top, ports, o, before);
  // The commit made of the worktree's work comes first in the list, as git log would put it.
  const text = pullRequestText(session, [...(before ? [message] : []), ...log.split('\n').filter(Boolean)]);
  const pullRequest = await openPullRequest(
    s.top,
    { ...text, base, head: branch, remoteUrl: pushed.url },
    ports,
    ports.ghEnv,
  );
  return {
    branch,
    base,
    created,
    pushed: pushed.command,
    ...(pushed.upstreamProblem ? { upstreamProblem: pushed.upstreamProblem } : {}),
    pullRequest,
  };
}

async function freeBranchName(top: string, name: string, o: GitRunOptions): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : `${name}-${n}`;
    if ((await runGitCommand(top, ['rev-parse', '-q', '--verify', `refs/heads/${candidate}`], o)).code !== 0)
      return candidate;
  }
}
