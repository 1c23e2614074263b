// The sidebar chat view. It is not retained when hidden: every time it is re-created the webview
// posts `ready` and the host answers with a full snapshot. Its chat goes on while it is hidden.
import * as vscode from 'vscode';
import type { RuntimeHost } from './runtime-host';
import { setUpChatWebview } from './chat-webview';

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
    const pipe = setUpChatWebview(view.webview, this.extensionUri, this.log, async (raw) => {
      const rt = await this.host.get();
      await rt.handle(raw);
    });
    this.host.setPoster(pipe.post, () => view.visible);
    view.onDidDispose(() => {
      pipe.dispose();
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
