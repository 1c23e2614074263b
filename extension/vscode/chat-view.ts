// The sidebar chat view. It is not retained when hidden: every time it is re-created the webview
// posts `ready` and the host answers with a full snapshot.
import * as vscode from 'vscode';
import type { Outbound } from '../protocol/messages';
import type { RuntimeHost } from './runtime-host';
import { buildWebviewHtml } from './webview-html';

export const CHAT_VIEW_ID = 'sextant.chat';

export class ChatViewProvider implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly host: RuntimeHost,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    view.webview.options = {
      enableScripts: true,
      // Only our own bundle folder and icons; nothing from the workspace.
      localResourceRoots: [dist, vscode.Uri.joinPath(this.extensionUri, 'media')],
    };
    view.webview.html = buildWebviewHtml({
      scriptUri: view.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
      styleUri: view.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.css')).toString(),
      cspSource: view.webview.cspSource,
      nonce: nonce(),
    });
    const post = (message: Outbound) => {
      void view.webview
        .postMessage(message)
        .then(undefined, (err: unknown) => this.log.warn(`post failed: ${String(err)}`));
    };
    this.host.setPoster(post);
    const sub = view.webview.onDidReceiveMessage(async (raw: unknown) => {
      try {
        const rt = await this.host.get();
        await rt.handle(raw);
      } catch (err) {
        this.log.error(`message handling failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        post({
          type: 'protocolError',
          error: { code: 'internal', message: `Sextant could not handle that: ${String(err)}`, recoverable: true },
        });
      }
    });
    view.onDidDispose(() => {
      sub.dispose();
      if (this.view === view) {
        this.view = undefined;
        this.host.setPoster(undefined);
      }
    });
  }

  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  }
}

function nonce(): string {
  const bytes = new Uint8Array(18);
  crypto.getRandomValues(bytes);
  return Buffer.from(bytes)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '');
}
