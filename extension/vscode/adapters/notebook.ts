// Cell edits for notebooks open in VS Code's notebook editor, through the notebook API: the user
// sees the change at once and Undo reverts it. Notebooks that are not open are edited as files by core.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { NotebookCellEdit } from '../../core/ports';

function openNotebook(absPath: string): vscode.NotebookDocument | undefined {
  const want = path.normalize(absPath);
  return vscode.workspace.notebookDocuments.find(
    (d) => d.uri.scheme === 'file' && !d.isClosed && path.normalize(d.uri.fsPath) === want,
  );
}

function cellData(nb: vscode.NotebookDocument, source: string, type: 'code' | 'markdown'): vscode.NotebookCellData {
  if (type === 'markdown') return new vscode.NotebookCellData(vscode.NotebookCellKind.Markup, source, 'markdown');
  // New code cells take the notebook's language (that of its first code cell).
  const language = nb.getCells().find((c) => c.kind === vscode.NotebookCellKind.Code)?.document.languageId ?? 'python';
  return new vscode.NotebookCellData(vscode.NotebookCellKind.Code, source, language);
}

export async function applyNotebookEdit(absPath: string, edit: NotebookCellEdit): Promise<'applied' | 'not-open'> {
  const nb = openNotebook(absPath);
  if (!nb) return 'not-open';
  let cellEdit: vscode.NotebookEdit;
  if (edit.mode === 'delete')
    cellEdit = vscode.NotebookEdit.deleteCells(new vscode.NotebookRange(edit.index, edit.index + 1));
  else if (edit.mode === 'insert')
    cellEdit = vscode.NotebookEdit.insertCells(edit.index, [cellData(nb, edit.source, edit.cellType)]);
  // Replacing the cell (not only its text) also drops outputs that no longer match the source.
  else
    cellEdit = vscode.NotebookEdit.replaceCells(new vscode.NotebookRange(edit.index, edit.index + 1), [
      cellData(nb, edit.source, edit.cellType),
    ]);
  const we = new vscode.WorkspaceEdit();
  we.set(nb.uri, [cellEdit]);
  if (!(await vscode.workspace.applyEdit(we))) throw new Error('VS Code refused the notebook edit');
  if (!(await nb.save())) throw new Error('the notebook was edited in its editor but could not be saved');
  return 'applied';
}
