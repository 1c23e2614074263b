// "Sextant: Export Session…": renders the current session (Markdown, HTML or JSON, secrets redacted,
// artifacts included) and writes it to a workspace file chosen in a save dialog.
import * as vscode from 'vscode';
import type { Logger } from '../core/ports';
import { EXPORT_EXTENSIONS, exportFileName, type ExportFormat } from '../core/store/export';

const FORMATS: Array<{ label: string; format: ExportFormat }> = [
  { label: 'Markdown', format: 'markdown' },
  { label: 'HTML (self-contained)', format: 'html' },
  { label: 'JSON (versioned schema)', format: 'json' },
];

export interface ExportSource {
  /** The current session's id and title, or undefined while the chat is empty. */
  current(): { id: string; title: string } | undefined;
  render(sessionId: string, format: ExportFormat): string | undefined;
}

export async function exportSessionToWorkspace(
  source: ExportSource,
  format: ExportFormat | undefined,
  log: Logger,
): Promise<void> {
  const session = source.current();
  if (!session) {
    void vscode.window.showInformationMessage('Sextant: nothing to export yet — this chat is empty.');
    return;
  }
  const choice = format
    ? FORMATS.find((f) => f.format === format)
    : await vscode.window.showQuickPick(FORMATS, { title: 'Sextant: Export Session — format' });
  if (!choice) return;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const ext = EXPORT_EXTENSIONS[choice.format];
  const defaultUri = folder
    ? vscode.Uri.joinPath(folder, '.sextant', 'exports', exportFileName(session.title, choice.format))
    : undefined;
  // The default folder exists before the dialog opens, so the dialog never asks to create it;
  // if the user cancels, a folder we created for nothing is removed again.
  const defaultDir = defaultUri ? vscode.Uri.joinPath(defaultUri, '..') : undefined;
  const createdDir = defaultDir ? await ensureDirectory(defaultDir) : false;
  const target = await vscode.window.showSaveDialog({
    title: 'Export Sextant session',
    defaultUri,
    filters: { [choice.label]: [ext] },
  });
  if (!target) {
    if (createdDir && defaultDir) await removeIfEmpty(defaultDir);
    return;
  }
  const content = source.render(session.id, choice.format);
  if (content === undefined) throw new Error('the session could not be read from history');
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(target, '..'));
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(content));
  log.info(`exported session ${session.id} as ${choice.format} to ${target.fsPath}`);
  const open = await vscode.window.showInformationMessage(
    `Sextant: exported to ${vscode.workspace.asRelativePath(target)}.`,
    'Open',
  );
  if (open) await vscode.window.showTextDocument(target);
}

/** Creates the folder; true when it did not exist before. */
async function ensureDirectory(dir: vscode.Uri): Promise<boolean> {
  const existed = await vscode.workspace.fs.stat(dir).then(
    () => true,
    () => false,
  );
  if (!existed) await vscode.workspace.fs.createDirectory(dir);
  return !existed;
}

async function removeIfEmpty(dir: vscode.Uri): Promise<void> {
  try {
    if ((await vscode.workspace.fs.readDirectory(dir)).length === 0) await vscode.workspace.fs.delete(dir);
  } catch {
    /* left as is: only tidiness is at stake */
  }
}
