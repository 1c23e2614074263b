// What the chat controller asks about models, in VS Code: the engine's model services
// (extension/engine/model-services.ts) over the user's settings, global state and the window's folders.
import * as vscode from 'vscode';
import type { ModelServices } from '../core/agent/chat-services';
import { modelServices as engineModelServices } from '../engine/model-services';
import type { ProvidersHost } from './providers-host';
import { vscodeSettings } from './settings';

export function modelServices(providers: ProvidersHost, globalState: vscode.Memento): ModelServices {
  return engineModelServices(providers, globalState, vscodeSettings, () =>
    (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
  );
}
