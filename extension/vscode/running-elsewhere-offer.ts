// A send refused because another VS Code window runs the session now (core/sessions/running-elsewhere.ts):
// the notification says so and offers the two ways on — the session read-only here (its latest saved state,
// read again from history; sends stay refused while the other window runs it) or a new chat.
import * as vscode from 'vscode';
import type { ChatController } from '../core/agent/controller';

const OPEN_READ_ONLY = 'Open Read-Only';
const NEW_CHAT = 'New Chat';

export async function offerRunningElsewhere(controller: ChatController, sessionId: string, message: string) {
  const pick = await vscode.window.showWarningMessage(`Sextant: ${message}`, OPEN_READ_ONLY, NEW_CHAT);
  if (pick === OPEN_READ_ONLY) await controller.resume(sessionId);
  else if (pick === NEW_CHAT) await controller.newChat();
}
