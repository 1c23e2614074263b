// "Sextant: Show Usage": one editor tab with the Usage view (the webview bundle's usage chunk, under the
// chat's Content-Security-Policy), answered by UsageService from the history store. A second run of the
// command brings the open tab to the front.
import * as vscode from 'vscode';
import type { UsageReader } from '../core/usage/usage-service';
import { UsageService } from '../core/usage/usage-service';
import type { UsageOutbound } from '../protocol';
import { buildWebviewHtml } from './webview-html';

export const USAGE_PANEL_TYPE = 'sextant.usagePanel';

export class UsagePanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly store: UsageReader,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  show(): void {
    if (this.panel) {
      this.panel.reveal();
      return;
    }
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const panel = vscode.window.createWebviewPanel(USAGE_PANEL_TYPE, 'Sextant Usage', vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [dist, vscode.Uri.joinPath(this.extensionUri, 'media')],
    });
    this.panel = panel;
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'sextant.svg');
    const w = panel.webview;
    w.html = buildWebviewHtml({
      scriptUri: w.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
      styleUri: w.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.css')).toString(),
      cspSource: w.cspSource,
      nonce: nonce(),
      view: 'usage',
    });
    const post = (m: UsageOutbound) => {
      void w.postMessage(m).then(undefined, (err: unknown) => this.log.warn(`usage post failed: ${String(err)}`));
    };
    const service = new UsageService({
      summary: (q, limit) => this.store.readUsageSummary(q, limit),
      rows: (q) => this.store.readUsageRows(q),
      now: Date.now,
      // getTimezoneOffset is minutes *behind* UTC (−60 in Berlin in winter).
      offsetMinutes: (at) => -new Date(at).getTimezoneOffset(),
      save: (name, text) => saveCsv(name, text),
      post,
    });
    const sub = w.onDidReceiveMessage((raw: unknown) => service.handle(raw));
    panel.onDidDispose(() => {
      sub.dispose();
      this.panel = undefined;
    });
  }

  dispose(): void {
    this.panel?.dispose();
  }
}

/** A save dialog in the first workspace folder (`.sextant/exports/`), then the file; its path, or undefined. */
async function saveCsv(name: string, text: string): Promise<string | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = await vscode.window.showSaveDialog({
    title: 'Export Sextant usage',
    defaultUri: folder ? vscode.Uri.joinPath(folder, '.sextant', 'exports', name) : undefined,
    filters: { CSV: ['csv'] },
  });
  if (!target) return undefined;
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(target, '..'));
  await vscode.workspace.fs.writeFile(target, Buffer.from(text, 'utf8'));
  return vscode.workspace.asRelativePath(target);
}

function nonce(): string {
  const bytes = new Uint8Array(18);
  crypto.getRandomValues(bytes);
  return Buffer.from(bytes)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '');
}
