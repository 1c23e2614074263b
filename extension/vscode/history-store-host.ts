// Chat history for this window: the engine's session store (extension/engine/history-store.ts) in the
// extension's global storage. A full disk and a store that cannot open are said in the chat and as
// notifications, never only logged.
import * as vscode from 'vscode';
import type { Logger } from '../core/ports';
import { openHistoryStore as openEngineStore } from '../engine/history-store';
import { readSettings } from './settings';

export interface HistoryStoreHostOptions {
  context: vscode.ExtensionContext;
  log: Logger;
  /** The secret values to redact from every record (kept up to date by the providers host). */
  secrets: () => Iterable<string>;
  /** A line in the current chat (the controller's notice; it exists by the time a write fails). */
  notice: (text: string) => void;
}

export function openHistoryStore(o: HistoryStoreHostOptions) {
  return openEngineStore({
    dir: o.context.globalStorageUri.fsPath,
    bundleDir: __dirname,
    log: o.log,
    secrets: o.secrets,
    purgeDeletedAfterDays: readSettings().purgeDeletedAfterDays,
    workspaceFolders: () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
    onWriteError: (text) => {
      // Said in the chat and as a notification: nothing is lost yet, but it is only in memory.
      o.notice(text);
      void vscode.window.showWarningMessage(`Sextant: ${text}`, 'Show Storage').then((pick) => {
        if (pick) void vscode.commands.executeCommand('sextant.showStorage');
      });
    },
    onWriteRecovered: () => o.notice('Chat history is being saved again; nothing was lost.'),
    onUnavailable: (why) =>
      // The chat must still work; the user is told plainly that this window keeps no history.
      void vscode.window.showErrorMessage(
        `Sextant: chat history is unavailable — ${why} Chats in this window will not be saved.`,
      ),
  });
}
