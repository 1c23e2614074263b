// A file link in the chat (a path and a line the model wrote) opened in the editor: only a file inside one
// of the workspace folders; anything else is refused and logged, never opened.
import * as path from 'node:path';
import * as vscode from 'vscode';

/** Opens a workspace file at a line; a path outside the workspace folders (or missing) is refused. */
export async function openWorkspaceFile(
  rel: string,
  line: number | undefined,
  log: vscode.LogOutputChannel,
): Promise<void> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  for (const folder of folders) {
    const root = folder.uri.fsPath;
    const abs = path.resolve(root, rel);
    const inside = path.relative(root, abs);
    if (inside.startsWith('..') || path.isAbsolute(inside)) continue;
    try {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(abs));
      const at = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
      await vscode.window.showTextDocument(doc, { selection: new vscode.Range(at, at), preview: true });
      return;
    } catch {
      // not in this folder: try the next
    }
  }
  log.warn('refused to open a file link outside the workspace (or missing)');
}
