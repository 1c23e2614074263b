// Chats in editor tabs (Sextant: New Chat in Editor, "Open in Editor" on a History entry). Each tab is a
// view of a hub slot: closing the tab leaves a running chat running (the Agents view lists it), and a
// reloaded window restores the tab on the session its webview last showed.
import * as vscode from 'vscode';
import type { ChatController } from '../core/agent/controller';
import type { SessionHub, SessionSlot } from '../core/sessions/session-hub';
import { SessionView } from '../core/sessions/session-view';
import { setUpChatWebview } from './chat-webview';

export const CHAT_PANEL_TYPE = 'sextant.chatPanel';

interface OpenPanel {
  panel: vscode.WebviewPanel;
  view: SessionView<ChatController>;
}

export class ChatPanels implements vscode.Disposable {
  private readonly panels = new Set<OpenPanel>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly hub: SessionHub<ChatController>,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.unsubscribe = hub.onDidChange(() => this.retitle());
  }

  /** A new tab showing `slot`. */
  async show(slot: SessionSlot<ChatController>): Promise<void> {
    if (await this.reveal(slot)) return;
    const panel = vscode.window.createWebviewPanel(CHAT_PANEL_TYPE, title(slot), vscode.ViewColumn.Active, {
      enableFindWidget: true,
    });
    this.adopt(panel, slot);
  }

  /** A tab VS Code restored after a reload: the session its webview's state names, else a new chat. */
  async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const id = (state as { sessionId?: unknown } | undefined)?.sessionId;
    const slot =
      (typeof id === 'string' && id ? await this.hub.reopen(id, { place: 'editor' }) : undefined) ??
      this.hub.open({ place: 'editor' });
    this.adopt(panel, slot);
  }

  /** Brings the tab showing `slot` to the front; false when no tab shows it. */
  async reveal(slot: SessionSlot<ChatController>): Promise<boolean> {
    for (const p of this.panels)
      if (p.view.slot === slot) {
        p.panel.reveal();
        return true;
      }
    return false;
  }

  dispose(): void {
    this.unsubscribe();
    for (const p of [...this.panels]) p.panel.dispose();
  }

  private adopt(panel: vscode.WebviewPanel, slot: SessionSlot<ChatController>): void {
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'sextant.svg');
    panel.title = title(slot);
    let view: SessionView<ChatController> | undefined;
    const pipe = setUpChatWebview(panel.webview, this.extensionUri, this.log, async (raw) => view?.handle(raw));
    view = new SessionView(this.hub, { post: pipe.post, visible: () => panel.visible }, slot, 'editor');
    const open: OpenPanel = { panel, view };
    this.panels.add(open);
    view.onMoved((s) => {
      panel.title = title(s);
    });
    panel.onDidDispose(() => {
      this.panels.delete(open);
      pipe.dispose();
      void open.view.close();
    });
  }

  private retitle(): void {
    for (const p of this.panels) {
      const t = title(p.view.slot);
      if (p.panel.title !== t) p.panel.title = t;
    }
  }
}

function title(slot: SessionSlot<ChatController>): string {
  return `Sextant: ${slot.status.title || 'New chat'}`;
}
