// The git feature's editor side (issue 41) in one place for the runtime: the Source Control button's
// commit message (git-commit-message.ts), the branch and pull request (git-pull-request.ts) and /review's
// findings as comments and Problems (review-comments.ts). Built lazily with the runtime; the commands are
// registered at activation (commands.ts) and call in here.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { PermissionGate } from '../core/agent/permission-gate';
import type { MayRead } from '../core/extensions/untracked-files';
import { type CommitMessageDeps, type PullRequestSessions, pullRequestTarget, sessionIdOf } from '../core/git';
import type { SandboxPort } from '../core/sandbox/types';
import { generateCommitMessage } from './git-commit-message';
import { createPullRequestCommand } from './git-pull-request';
import { ReviewComments } from './review-comments';

export interface GitHostDeps {
  resolveModel: CommitMessageDeps['resolveModel'];
  budget: NonNullable<CommitMessageDeps['budget']>;
  chatModel(): string;
  gate: PermissionGate;
  sandbox(): SandboxPort | undefined;
  mayRead?: MayRead;
  /** The sidebar chat's session: the palette's Create Branch and Pull Request acts on it. */
  sidebarSessionId(): string | undefined;
  /** Any session's title and last answer (the pull request's text) and its worktree. */
  sessions: Pick<PullRequestSessions, 'session' | 'worktreeOf' | 'running'>;
  /** Sends a message to the sidebar chat in Agent mode. */
  sendToAgent(text: string): Promise<void>;
}

export class GitHost implements vscode.Disposable {
  private readonly review: ReviewComments;
  /** Each session's last /review answer (session id → answer): the pull request's Review section. */
  private readonly reviews = new Map<string, string>();
  /** Sessions whose branch and pull request are being made. */
  private readonly pullRequests = new Set<string>();

  constructor(private readonly deps: GitHostDeps) {
    this.review = new ReviewComments(root, deps.sendToAgent);
  }

  generateCommitMessage(arg?: unknown): Promise<void> {
    const { resolveModel, budget, chatModel, mayRead } = this.deps;
    return generateCommitMessage(
      { message: { resolveModel, budget }, chatModel, ...(mayRead ? { mayRead } : {}) },
      arg,
    );
  }

  /**
   * Create Branch and Pull Request for `{ sessionId }` (the Agents view's row, the chat's button), else for
   * the sidebar chat's session (the palette).
   */
  async createPullRequest(arg?: unknown): Promise<void> {
    const target = pullRequestTarget(sessionIdOf(arg) ?? this.deps.sidebarSessionId(), {
      ...this.deps.sessions,
      review: (id) => this.reviews.get(id),
      root,
    });
    // One at a time per session: a second click while the first waits on its approval does nothing.
    const key = target.ok ? target.target.sessionId || target.target.cwd : '';
    if (this.pullRequests.has(key)) return;
    this.pullRequests.add(key);
    try {
      await createPullRequestCommand({ target, gate: this.deps.gate, sandbox: this.deps.sandbox });
    } finally {
      this.pullRequests.delete(key);
    }
  }

  /** A /review turn of `sessionId` ended with this answer: its findings go beside the code. */
  reviewAnswered(answer: string, sessionId?: string): void {
    if (sessionId) this.reviews.set(sessionId, answer);
    this.review.show(answer);
  }

  applyFix(arg?: unknown): Promise<void> {
    return this.review.applyFix(arg);
  }

  clearFindings(): void {
    this.review.clear();
  }

  dispose(): void {
    this.review.dispose();
  }
}

function root(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

interface GitChat {
  currentModel(): string;
  isRunning(): boolean;
  currentSessionRef(): { id: string; title: string } | undefined;
  lastAnswerText(): string;
}

/** The GitHost over the runtime's parts: the sidebar chat's model and session, the window's fleet and policy. */
export function createGitHost(o: {
  providers: { resolve: CommitMessageDeps['resolveModel'] };
  fleet: {
    check: NonNullable<CommitMessageDeps['budget']>['check'];
    report(id: string, s: { tokens: number; costUsd?: number }): unknown;
  };
  gate: PermissionGate;
  ports: { sandbox?: SandboxPort };
  sidebar: {
    slot: { controller: GitChat };
    handle(raw: unknown): Promise<void>;
  };
  /** This window's live and ended sessions. */
  hub: {
    bySession(id: string): { controller: GitChat } | undefined;
    endedSessions(): { sessionId: string; title: string }[];
  };
  /** Which sessions work in a worktree (worktree-host.ts). */
  worktrees: { sessions: { get(id: string): { worktree: { path: string; branch: string } } | undefined } };
}): GitHost {
  const chat = () => o.sidebar.slot.controller;
  return new GitHost({
    resolveModel: (ref) => o.providers.resolve(ref),
    // The message call counts against the window's caps like a chat's request (its own fleet entry).
    budget: { check: () => o.fleet.check(), report: (s) => void o.fleet.report('git-commit-message', s) },
    chatModel: () => chat().currentModel(),
    gate: o.gate,
    sandbox: () => o.ports.sandbox,
    sidebarSessionId: () => chat().currentSessionRef()?.id,
    sessions: {
      session: (id) => {
        const live = o.hub.bySession(id)?.controller;
        if (live) return { title: live.currentSessionRef()?.title ?? 'Changes', summary: live.lastAnswerText() };
        const ended = o.hub.endedSessions().find((s) => s.sessionId === id);
        return ended ? { title: ended.title } : undefined;
      },
      worktreeOf: (id) => o.worktrees.sessions.get(id)?.worktree,
      running: (id) => o.hub.bySession(id)?.controller.isRunning() ?? false,
    },
    sendToAgent: async (text) => {
      await vscode.commands.executeCommand('sextant.focusChat');
      await o.sidebar.handle({ type: 'send', requestId: randomUUID(), text, mode: 'agent' });
    },
  });
}
