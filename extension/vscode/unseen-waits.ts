// Nothing waits silently: an approval or a question in a chat nobody sees (a closed tab, a collapsed
// sidebar, a background session) raises a notification that opens it, and the Agents view's badge on the
// activity bar counts everything that waits.
import * as vscode from 'vscode';
import type { ChatController } from '../core/agent/controller';
import type { SessionSlot, UnseenWait } from '../core/sessions/session-hub';
import { withoutLinks } from '../core/security/plain-text';

export class UnseenWaits implements vscode.Disposable {
  constructor(
    private readonly show: (slotId: string) => Promise<void>,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  notify(slot: SessionSlot<ChatController>, wait: UnseenWait): void {
    const what =
      'approval' in wait
        ? `wants to run ${wait.approval.tool}: ${oneLine(wait.approval.subject)}`
        : `asks: ${oneLine(wait.question.questions[0]?.question ?? '')}`;
    // Text from the model or a repository: no clickable links in a notification.
    const message = withoutLinks(`Sextant: “${slot.status.title}” ${what}`);
    void vscode.window.showWarningMessage(message, 'Show').then(
      async (pick) => {
        if (pick === 'Show') await this.show(slot.id);
      },
      (err: unknown) => this.log.warn(`notification failed: ${String(err)}`),
    );
  }

  dispose(): void {}
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
