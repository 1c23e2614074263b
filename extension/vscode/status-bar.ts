// The status bar item: the active chat's state and this session's cost (core/sessions/status-line.ts),
// repainted whenever the hub's chats change — the same status the Agents view lists. A click shows the
// chat that waits for the user (its approval or question), else the active chat.
import * as vscode from 'vscode';
import type { ChatController } from '../core/agent/controller';
import type { SessionHub } from '../core/sessions/session-hub';
import { statusLine } from '../core/sessions/status-line';

const SHOW_COMMAND = 'sextant.statusBar.show';

export class SessionStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('sextant.status', vscode.StatusBarAlignment.Right, 100);
  private readonly disposables: vscode.Disposable[] = [];
  private slotId: string | undefined;

  constructor(
    private readonly hub: SessionHub<ChatController>,
    /** The window's chats: the sidebar's is the one the user looks at; `showSlot` brings one to the front. */
    private readonly chats: { sidebar: { slot: { id: string } }; showSlot(slotId: string): Promise<void> },
  ) {
    this.item.name = 'Sextant';
    this.item.command = SHOW_COMMAND;
    this.disposables.push(
      vscode.commands.registerCommand(SHOW_COMMAND, async () => {
        if (this.slotId) await chats.showSlot(this.slotId);
        else await vscode.commands.executeCommand('sextant.focusChat');
      }),
    );
    const off = hub.onDidChange(() => this.update());
    this.disposables.push({ dispose: off });
    this.update();
  }

  update(): void {
    const l = statusLine(
      this.hub.slots().map((s) => ({ id: s.id, status: s.status })),
      this.chats.sidebar.slot.id,
    );
    this.slotId = l?.slotId;
    if (!l) {
      this.item.hide();
      return;
    }
    this.item.text = l.text;
    this.item.tooltip = l.tooltip;
    this.item.accessibilityInformation = { label: l.text.replace(/\$\([^)]*\)\s*/g, ''), role: 'button' };
    this.item.backgroundColor =
      l.state === 'waiting' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.item.dispose();
  }
}
