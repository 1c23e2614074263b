// "Sextant: Export Session…": renders the current session (Markdown, HTML or JSON, secrets redacted)
// and writes it to a workspace file chosen in a save dialog.
import * as vscode from 'vscode';
import type { ChatController } from '../core/agent/controller';
import type { Logger } from '../core/ports';
import { renderExport, type ExportFormat } from '../core/store/export';

const FORMATS: Array<{ label: string; format: ExportFormat; ext: string }> = [
  { label: 'Markdown', format: 'markdown', ext: 'md' },
  { label: 'HTML (self-contained)', format: 'html', ext: 'html' },
  { label: 'JSON (versioned schema)', format: 'json', ext: 'json' },
];

export async function exportSessionToWorkspace(controller: ChatController, format: ExportFormat | undefined, log: Logger): Promise<void> {
  const session = controller.currentStoredSession();
  if (!session || session.messages.length === 0) {
    void vscode.window.showInformationMessage('Sextant: nothing to export yet — this chat is empty.');
    return;
  }
  const choice = format
    ? FORMATS.find((f) => f.format === format)
    : await vscode.window.showQuickPick(FORMATS, { title: 'Sextant: Export Session — format' });
  if (!choice) return;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const safeTitle = session.title.replace(/[^\p{L}\p{N}\- _.]+/gu, '').trim().slice(0, 80) || 'session';
  const defaultUri = folder ? vscode.Uri.joinPath(folder, '.sextant', 'exports', `${safeTitle}.${choice.ext}`) : undefined;
  const target = await vscode.window.showSaveDialog({
    title: 'Export Sextant session',
    defaultUri,
    filters: { [choice.label]: [choice.ext] },
  });
  if (!target) return;
  const content = renderExport(session, choice.format);
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(target, '..'));
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(content));
  log.info(`exported session ${session.id} as ${choice.format} to ${target.fsPath}`);
  const open = await vscode.window.showInformationMessage(`Sextant: exported to ${vscode.workspace.asRelativePath(target)}.`, 'Open');
  if (open) await vscode.window.showTextDocument(target);
}
