// The worktree part of the runtime, composed in one place: which sessions work in a worktree (kept in
// workspace state), each chat's rooting (worktree-slots.ts), the New Chat in Worktree flow
// (worktree-chats.ts) and the reviewed Merge Back (merge-back-review.ts). runtime.ts makes it before
// the chats (their tools are rooted through it) and attaches the hub and the views once they exist.
import type * as vscode from 'vscode';
import type { ChatController } from '../core/agent/controller';
import type { SessionHub, SessionSlot } from '../core/sessions/session-hub';
import { WorktreeSessions } from '../core/worktrees/session-registry';
import type { AgentsViewHost } from './agents-view';
import { MergeBackReview } from './merge-back-review';
import { WorktreeChats } from './worktree-chats';
import { type RootingDeps, slotRooting } from './worktree-slots';

/** The worktree sessions of this workspace (workspace state). */
const WORKTREE_SESSIONS_KEY = 'sextant.worktreeSessions';

/** Where chats are shown (window-chats.ts): a new tab, a plain New Chat in Editor, the Agents view. */
export interface WorktreeViews {
  panels: { show(slot: SessionSlot<ChatController>): Promise<void> };
  openInEditor(): Promise<void>;
  agents: { update(): void };
}

export class WorktreeHost implements vscode.Disposable {
  readonly sessions: WorktreeSessions;
  private review: MergeBackReview | undefined;
  private chats: WorktreeChats | undefined;

  constructor(
    memento: vscode.Memento,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.sessions = new WorktreeSessions({
      read: () => memento.get(WORKTREE_SESSIONS_KEY),
      write: (records) => void memento.update(WORKTREE_SESSIONS_KEY, records),
    });
  }

  rooting(deps: Omit<RootingDeps, 'sessions'>) {
    return slotRooting({ ...deps, sessions: this.sessions });
  }

  /** What the Agents view shows and offers of worktree sessions. */
  readonly agents: Pick<AgentsViewHost, 'worktreeOf' | 'mergeBack'> = {
    worktreeOf: (sessionId) => this.sessions.get(sessionId)?.worktree,
    mergeBack: (sessionId) => this.mergeBack(sessionId),
  };

  attach(hub: SessionHub<ChatController>, views: WorktreeViews, storeReady: Promise<unknown>): void {
    this.review = new MergeBackReview(hub, this.sessions, this.log);
    this.chats = new WorktreeChats({
      hub,
      sessions: this.sessions,
      show: (slot) => views.panels.show(slot),
      openPlain: () => views.openInEditor(),
      storeReady,
      log: this.log,
    });
    this.sessions.onDidChange(() => views.agents.update());
  }

  /** Sextant: New Chat in Editor (in a worktree per sextant.agents.worktrees). */
  newEditorChat(): Promise<void> {
    return this.attached().chats.newEditorChat();
  }

  newChatInWorktree(): Promise<void> {
    return this.attached().chats.newChatInWorktree();
  }

  mergeBack(sessionId?: string): Promise<void> {
    return this.attached().review.run(sessionId);
  }

  dispose(): void {
    this.review?.dispose();
  }

  private attached(): { chats: WorktreeChats; review: MergeBackReview } {
    if (!this.chats || !this.review) throw new Error('worktree sessions used before the chats exist');
    return { chats: this.chats, review: this.review };
  }
}
