// The git feature's editor side (issue 41) in one place for the runtime: the Source Control button's
// commit message (git-commit-message.ts), the branch and pull request (git-pull-request.ts) and /review's
// findings as comments and Problems (review-comments.ts). Built lazily with the runtime; the commands are
// registered at activation (commands.ts) and call in here.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { PermissionGate } from '../core/agent/permission-gate';
import type { MayRead } from '../core/extensions/untracked-files';
import type { CommitMessageDeps } from '../core/git';
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
  /** The chat's title and last answer (the pull request's text). */
  session(): { title: string; summary: string };
  /** Sends a message to the sidebar chat in Agent mode. */
  sendToAgent(text: string): Promise<void>;
}

export class GitHost implements vscode.Disposable {
  private readonly review: ReviewComments;
  private lastReview = '';

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

  createPullRequest(): Promise<void> {
    return createPullRequestCommand({
      root,
      gate: this.deps.gate,
      sandbox: this.deps.sandbox,
      session: () => ({ ...this.deps.session(), ...(this.lastReview ? { review: this.lastReview } : {}) }),
    });
  }

  /** A /review turn ended with this answer: its findings go beside the code. */
  reviewAnswered(answer: string): void {
    this.lastReview = answer;
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
    slot: {
      controller: {
        currentModel(): string;
        currentSessionRef(): { title: string } | undefined;
        lastAnswerText(): string;
      };
    };
    handle(raw: unknown): Promise<void>;
  };
}): GitHost {
  const chat = () => o.sidebar.slot.controller;
  return new GitHost({
    resolveModel: (ref) => o.providers.resolve(ref),
    // The message call counts against the window's caps like a chat's request (its own fleet entry).
    budget: { check: () => o.fleet.check(), report: (s) => void o.fleet.report('git-commit-message', s) },
    chatModel: () => chat().currentModel(),
    gate: o.gate,
    sandbox: () => o.ports.sandbox,
    session: () => ({ title: chat().currentSessionRef()?.title ?? 'Changes', summary: chat().lastAnswerText() }),
    sendToAgent: async (text) => {
      await vscode.commands.executeCommand('sextant.focusChat');
      await o.sidebar.handle({ type: 'send', requestId: randomUUID(), text, mode: 'agent' });
    },
  });
}
