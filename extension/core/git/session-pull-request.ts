// Which session a "Create Branch and Pull Request" acts on, and where: the palette's acts on the sidebar
// chat's session, the Agents view's on its row's, the chat's end-of-run button on that chat's. A session
// that works in a worktree pushes the worktree's own branch from the worktree (its uncommitted work
// committed on that branch first, after the approval); one in the main checkout uses the first workspace
// folder and gets a new branch when it is on the default one (branch-pull-request.ts).
import type { SessionSummary } from './pr-text';

export interface PullRequestSessions {
  /** The session's title and last answer (live or ended in this window), if it is known. */
  session(sessionId: string): { title: string; summary?: string } | undefined;
  /** The worktree the session works in, if any. */
  worktreeOf(sessionId: string): { path: string; branch: string } | undefined;
  /** The session's /review answer, if it ran one. */
  review(sessionId: string): string | undefined;
  /** The main checkout (the first workspace folder). */
  root(): string | undefined;
  /** Whether the session's run is still going (its work is not finished: nothing is pushed mid-run). */
  running?(sessionId: string): boolean;
}

export interface PullRequestTarget {
  sessionId: string;
  /** Where git runs: the worktree, or the main checkout. */
  cwd: string;
  session: SessionSummary;
  /** Set for a worktree session: its branch is pushed as it is, and the box's root is the worktree. */
  worktree?: { path: string; branch: string };
}

export type TargetResult = { ok: true; target: PullRequestTarget } | { ok: false; problem: string };

export function pullRequestTarget(sessionId: string | undefined, s: PullRequestSessions): TargetResult {
  if (sessionId && s.running?.(sessionId))
    return { ok: false, problem: 'that chat is still running: stop it or let it finish first.' };
  const known = sessionId ? s.session(sessionId) : undefined;
  const worktree = sessionId ? s.worktreeOf(sessionId) : undefined;
  const cwd = worktree?.path ?? s.root();
  if (!cwd) return { ok: false, problem: 'open a folder that is a git repository first.' };
  const review = sessionId ? s.review(sessionId) : undefined;
  const session: SessionSummary = {
    title: known?.title || 'Changes',
    ...(known?.summary ? { summary: known.summary } : {}),
    ...(review ? { review } : {}),
  };
  return { ok: true, target: { sessionId: sessionId ?? '', cwd, session, ...(worktree ? { worktree } : {}) } };
}

/**
 * The session a command's argument names (`{ sessionId }`: the Agents view's row, the chat's button);
 * none from the palette.
 */
export function sessionIdOf(arg: unknown): string | undefined {
  const id = arg && typeof arg === 'object' ? (arg as { sessionId?: unknown }).sessionId : undefined;
  return typeof id === 'string' && id ? id : undefined;
}
