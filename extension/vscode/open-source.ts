// A report's citation of a workspace file, opened at the cited lines. The path comes from the webview,
// so it is resolved inside the workspace folders only (a "../" or absolute path elsewhere is refused),
// and the file is shown, never run. A PDF (or anything without a text editor) opens with its default
// editor; the line selection applies to text documents.
import * as path from 'node:path';
import * as vscode from 'vscode';

export async function openWorkspaceSource(
  given: string,
  lines: { start?: number; end?: number },
  log: Pick<vscode.LogOutputChannel, 'warn'>,
): Promise<void> {
  const uri = resolveInWorkspace(given);
  if (!uri) {
    log.warn(`openSource: ${given} is not a file in the workspace`);
    void vscode.window.showWarningMessage(`Sextant: ${given} is not a file in this workspace.`);
    return;
  }
  if (/\.(pdf|ipynb)$/i.test(uri.fsPath)) {
    await vscode.commands.executeCommand('vscode.open', uri);
    return;
  }
  const start = Math.max(0, (lines.start ?? 1) - 1);
  const end = Math.max(start, (lines.end ?? lines.start ?? 1) - 1);
  const doc = await vscode.workspace.openTextDocument(uri);
  const last = doc.lineAt(Math.min(end, doc.lineCount - 1));
  const selection = new vscode.Range(Math.min(start, doc.lineCount - 1), 0, last.lineNumber, last.text.length);
  await vscode.window.showTextDocument(doc, { selection, preview: true });
}

/** The path as a file inside one of the workspace folders ("folder/…" names a folder of a multi-root one). */
function resolveInWorkspace(given: string): vscode.Uri | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const rel = given.replace(/\\/g, '/').replace(/#.*$/, '');
  const candidates = folders.flatMap((f) => {
    const root = f.uri.fsPath;
    const [head, ...rest] = rel.split('/');
    const named = folders.length > 1 && f.name === head && rest.length ? [path.join(root, ...rest)] : [];
    return [...named, path.resolve(root, rel)].map((abs) => ({ root, abs }));
  });
  const hit = candidates.find(({ root, abs }) => {
    const r = path.relative(root, abs);
    return r !== '' && !r.startsWith('..') && !path.isAbsolute(r);
  });
  return hit ? vscode.Uri.file(hit.abs) : undefined;
}
