// One chat webview's setup, shared by the sidebar view and editor tabs: its resource roots and HTML (the
// same bundle and Content-Security-Policy), and its message pipe with the error every failure answers.
import * as vscode from 'vscode';
import type { Outbound } from '../protocol/messages';
import { buildWebviewHtml } from './webview-html';

export function setUpChatWebview(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  log: vscode.LogOutputChannel,
  handle: (raw: unknown) => Promise<void>,
): { post(message: Outbound): void; dispose(): void } {
  const dist = vscode.Uri.joinPath(extensionUri, 'dist');
  webview.options = {
    enableScripts: true,
    // Only our own bundle folder and icons; nothing from the workspace.
    localResourceRoots: [dist, vscode.Uri.joinPath(extensionUri, 'media')],
  };
  webview.html = buildWebviewHtml({
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.css')).toString(),
    cspSource: webview.cspSource,
    nonce: nonce(),
  });
  const post = (message: Outbound) => {
    void webview.postMessage(message).then(undefined, (err: unknown) => log.warn(`post failed: ${String(err)}`));
  };
  const sub = webview.onDidReceiveMessage(async (raw: unknown) => {
    try {
      await handle(raw);
    } catch (err) {
      log.error(`message handling failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      post({
        type: 'protocolError',
        error: { code: 'internal', message: `Sextant could not handle that: ${String(err)}`, recoverable: true },
      });
    }
  });
  return { post, dispose: () => sub.dispose() };
}

function nonce(): string {
  const bytes = new Uint8Array(18);
  crypto.getRandomValues(bytes);
  return Buffer.from(bytes)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '');
}
