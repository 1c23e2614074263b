// WorkspacePort over the local file system and VS Code's open documents: reads prefer unsaved
// editor text, and edits to open documents go through a WorkspaceEdit (undoable) and are saved.
import { homedir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WorkspacePort } from '../../core/ports';
import { localFiles } from '../../core/local-files';
import { applyNotebookEdit } from './notebook';
import { readPermissionSettings } from '../settings';

const caseInsensitiveFs = process.platform === 'win32' || process.platform === 'darwin';

function samePath(a: string, b: string): boolean {
  const na = path.normalize(a);
  const nb = path.normalize(b);
  return caseInsensitiveFs ? na.toLowerCase() === nb.toLowerCase() : na === nb;
}

function openDocument(absPath: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find(
    (d) => d.uri.scheme === 'file' && !d.isClosed && samePath(d.uri.fsPath, absPath),
  );
}

function enabledGlobs(section: string, key: string, scope: vscode.Uri | undefined): string[] {
  const value = vscode.workspace.getConfiguration(section, scope).get<Record<string, unknown>>(key) ?? {};
  // `true` entries only; `{ when: … }` sibling conditions are not expressible as plain globs.
  return Object.entries(value)
    .filter(([, v]) => v === true)
    .map(([k]) => k);
}

/** True when the bytes are exactly the UTF-8 encoding of the text (a BOM allowed). */
function isUtf8Of(text: string, bytes: Uint8Array): boolean {
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  return Buffer.from(text, 'utf8').equals(body);
}

async function loadDocument(absPath: string): Promise<vscode.TextDocument | undefined> {
  try {
    return await vscode.workspace.openTextDocument(vscode.Uri.file(absPath));
  } catch {
    return undefined; // a new file, or one VS Code will not open as text: write it directly
  }
}

export function createWorkspacePort(): WorkspacePort {
  return {
    ...localFiles,
    roots() {
      return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    },
    extraWriteRoots() {
      // The user's setting only (a workspace cannot widen where writers go); `~/` is the home folder.
      return readPermissionSettings()
        .extraWriteRoots.filter((r): r is string => typeof r === 'string' && r.trim() !== '')
        .map((r) => (r.startsWith('~/') ? path.join(homedir(), r.slice(2)) : r))
        .filter((r) => path.isAbsolute(r));
    },
    async dirtyText(absPath) {
      const doc = openDocument(absPath);
      return doc?.isDirty ? doc.getText() : undefined;
    },
    async applyTextEdit(absPath, newText, encodedBytes) {
      // UTF-8 files go through the editor model even when no editor shows them, so every agent
      // edit lands on VS Code's undo stack; other encodings are written byte-exact to disk, since
      // VS Code might decode them differently than the tool did.
      const utf8 = isUtf8Of(newText, encodedBytes);
      // A document open only in an editor that is closing (a diff review closes as the change is
      // approved) can be disposed under us: then it is loaded again and the edit made once more.
      for (let attempt = 0; attempt < 2; attempt++) {
        const doc =
          (attempt === 0 ? openDocument(absPath) : undefined) ?? (utf8 ? await loadDocument(absPath) : undefined);
        if (!doc) break;
        try {
          const edit = new vscode.WorkspaceEdit();
          const all = new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length));
          edit.replace(doc.uri, all, newText);
          // Once more: the first edit may have landed on the reloaded document already (one Undo step).
          const landed = attempt > 0 && doc.getText() === newText;
          if (landed || (await vscode.workspace.applyEdit(edit))) {
            // Saved so the disk matches what the model believes; Undo in the editor still reverts it.
            if (await doc.save()) return 'editor';
          }
          if (!doc.isClosed) break;
        } catch (err) {
          if (!doc.isClosed) throw err;
        }
      }
      await localFiles.writeFile(absPath, encodedBytes);
      return 'disk';
    },
    applyNotebookEdit,
    excludeGlobs() {
      const scope = vscode.workspace.workspaceFolders?.[0]?.uri;
      return [...new Set([...enabledGlobs('files', 'exclude', scope), ...enabledGlobs('search', 'exclude', scope)])];
    },
  };
}
