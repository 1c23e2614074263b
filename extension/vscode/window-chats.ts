// The views of this window's chats: the sidebar (one view that moves between chats), editor tabs, the
// Agents view and the notifications of what waits unseen. The chats themselves are hub slots
// (chat-slots.ts); this file only decides where they are shown.
import * as vscode from 'vscode';
import type { ChatController } from '../core/agent/controller';
import type { SessionHub, SessionViewer } from '../core/sessions/session-hub';
import { SessionView } from '../core/sessions/session-view';
import { emptyStatus } from '../core/sessions/session-status';
import type { InterruptedSession } from '../core/ports';
import type { FleetBudget } from '../core/usage/fleet-budget';
import type { AgentsTree } from './agents-tree';
import { AgentsView, type AgentsViewHost } from './agents-view';
import { ChatPanels } from './chat-panels';
import { UnseenWaits } from './unseen-waits';

export interface WindowChatsOptions {
  hub: SessionHub<ChatController>;
  sidebarViewer: SessionViewer;
  agentsTree: AgentsTree | undefined;
  extensionUri: vscode.Uri;
  memento: vscode.Memento;
  channel: vscode.LogOutputChannel;
  /** Resolves once history is open (reopening a session reads it). */
  storeReady: Promise<unknown>;
  /** Told which session the sidebar shows after it moved (a reloaded window reopens it). */
  onSidebarMoved(sessionId: string | undefined): void;
  /** Sessions a closed or crashed window left running (the store's run state), once history is open. */
  interrupted(): InterruptedSession[];
  /** The window's fleet: who waits for a running slot, and the total spent against the total caps. */
  fleet?: FleetBudget;
  newRequestId(): string;
  /** Worktree sessions in the Agents view: their branch and Merge Back… (worktree-chats.ts). */
  worktrees?: Pick<AgentsViewHost, 'worktreeOf' | 'mergeBack'>;
}

export class WindowChats implements vscode.Disposable {
  readonly sidebar: SessionView<ChatController>;
  readonly panels: ChatPanels;
  readonly agents: AgentsView;
  readonly unseen: UnseenWaits;

  constructor(private readonly o: WindowChatsOptions) {
    this.sidebar = new SessionView(o.hub, o.sidebarViewer, o.hub.open({ place: 'sidebar' }), 'sidebar');
    this.sidebar.onMoved((slot) => o.onSidebarMoved(slot.controller.currentSessionRef()?.id));
    this.panels = new ChatPanels(o.extensionUri, o.hub, o.channel);
    this.unseen = new UnseenWaits((slotId) => this.showSlot(slotId), o.channel);
    this.agents = new AgentsView({
      hub: o.hub,
      tree: o.agentsTree,
      memento: o.memento,
      ...(o.fleet ? { fleet: o.fleet } : {}),
      interrupted: () =>
        o.interrupted().map((r) => ({
          status: { ...emptyStatus(), sessionId: r.id, title: r.title, startedAt: r.startedAt, endedAt: r.lastEventAt },
          interrupted: true,
        })),
      showSlot: (slotId) => this.showSlot(slotId),
      openSession: (sessionId) => this.openInEditor(sessionId),
      continueSession: (sessionId) => this.continueInterrupted(sessionId),
      ...o.worktrees,
    });
    // Nothing is lost to a reload or a crash: what was cut off is listed, and said once.
    void o.storeReady.then(() => {
      this.agents.update();
      const cut = o.interrupted();
      if (cut.length)
        void vscode.window
          .showInformationMessage(
            `Sextant: ${cut.length === 1 ? `“${cut[0]?.title}” was` : `${cut.length} chats were`} interrupted ` +
              'when the last window closed. Their work so far is kept; Continue picks up where they stopped.',
            'Show Agents',
          )
          .then((pick) => pick && vscode.commands.executeCommand('sextant.agents.focus'));
    });
  }

  /** Continue on an interrupted session: in an editor tab (the sidebar's chat stays as it is). */
  async continueInterrupted(sessionId: string): Promise<void> {
    await this.o.storeReady;
    const slot = this.o.hub.bySession(sessionId) ?? (await this.o.hub.reopen(sessionId, { place: 'editor' }));
    if (!slot) throw new Error('that chat is no longer in history');
    if (this.sidebar.slot !== slot) await this.panels.show(slot);
    if (!(await slot.controller.continueInterrupted(this.o.newRequestId(), sessionId)))
      void vscode.window.showInformationMessage(
        'Sextant: that chat is no longer interrupted (or runs in another window).',
      );
    this.agents.update();
  }

  /** Sextant: New Chat in Editor (no id), or a session in an editor tab (its live chat if one runs). */
  async openInEditor(sessionId?: string): Promise<void> {
    await this.o.storeReady;
    const hub = this.o.hub;
    const slot = sessionId ? await hub.reopen(sessionId, { place: 'editor' }) : hub.open({ place: 'editor' });
    if (!slot) throw new Error('that chat is no longer in history');
    await this.panels.show(slot);
  }

  async restorePanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    await this.o.storeReady;
    await this.panels.restore(panel, state);
  }

  /** Brings a chat to the front: the sidebar if it shows it, else its tab, else a new tab. */
  async showSlot(slotId: string): Promise<void> {
    const slot = this.o.hub.get(slotId);
    if (!slot) return;
    if (this.sidebar.slot === slot) await vscode.commands.executeCommand('sextant.chat.focus');
    else if (!(await this.panels.reveal(slot))) await this.panels.show(slot);
  }

  dispose(): void {
    this.agents.dispose();
    this.panels.dispose();
    this.unseen.dispose();
  }
}
