// Chat history for this window: the session store in the extension's global storage. The first request
// never waits for it: the journal writer opens now (cheap), the database (wasm + snapshot + journal
// replay) in the background; appends meanwhile are journaled at once and replayed into it when it opens.
// A full disk and a store that cannot open are said in the chat and as notifications, never only logged.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../core/ports';
import { openSessionStoreLazily, storageFullNotice, workspaceKey } from '../core/store';
import { errorText } from '../core/util/error-text';
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
  const started = performance.now();
  const store = openSessionStoreLazily({
    dir: o.context.globalStorageUri.fsPath,
    wasmPath: path.join(__dirname, 'sql-wasm.wasm'),
    log: o.log,
    secrets: o.secrets,
    purgeDeletedAfterDays: readSettings().purgeDeletedAfterDays,
    // Sessions remember their workspace, and the agent's memory search stays in it.
    workspace: () => workspaceKey((vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath)),
    onWriteError: (err, dir) => {
      // Said in the chat and as a notification: nothing is lost yet, but it is only in memory.
      const text = storageFullNotice(err, dir);
      o.notice(text);
      void vscode.window.showWarningMessage(`Sextant: ${text}`, 'Show Storage').then((pick) => {
        if (pick) void vscode.commands.executeCommand('sextant.showStorage');
      });
    },
    onWriteRecovered: () => o.notice('Chat history is being saved again; nothing was lost.'),
    onUnavailable: (err) => {
      // The chat must still work; the user is told plainly that this window keeps no history.
      const why = errorText(err);
      o.log.error(`history store unavailable: ${why}`);
      void vscode.window.showErrorMessage(
        `Sextant: chat history is unavailable — ${why} Chats in this window will not be saved.`,
      );
    },
  });
  void store.ready.then((ok) => {
    if (ok) o.log.info(`history store open in ${(performance.now() - started).toFixed(0)} ms`);
  });
  return store;
}
