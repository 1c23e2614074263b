// The `sextant-proposal:` file system: proposals under review live here, in memory, so the diff
// view's right side is a real, editable document (a TextDocumentContentProvider is read-only). Saving
// it only keeps the text here; the workspace file changes when the user approves.
import * as vscode from 'vscode';

export const PROPOSAL_SCHEME = 'sextant-proposal';

/** Files are told apart by path and query: the query holds the review's number, the path the file's own. */
const keyOf = (uri: vscode.Uri) => `${uri.path}?${uri.query}`;

interface Entry {
  data: Uint8Array;
  ctime: number;
  mtime: number;
  readonly: boolean;
}

export class ProposalFileSystem implements vscode.FileSystemProvider {
  private readonly files = new Map<string, Entry>();
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;

  /** Puts a file here; `readonly` for the empty left side of a new file. */
  put(uri: vscode.Uri, text: string, readonly: boolean): void {
    const now = Date.now();
    const existed = this.files.has(keyOf(uri));
    this.files.set(keyOf(uri), { data: Buffer.from(text, 'utf8'), ctime: now, mtime: now, readonly });
    this.changed.fire([{ type: existed ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri }]);
  }

  remove(uri: vscode.Uri): void {
    if (this.files.delete(keyOf(uri))) this.changed.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
  }

  /** The saved text of a file here, if it exists. */
  text(uri: vscode.Uri): string | undefined {
    const e = this.files.get(keyOf(uri));
    return e ? Buffer.from(e.data).toString('utf8') : undefined;
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const e = this.files.get(keyOf(uri));
    // Parent "folders" exist implicitly, so the explorer-less editor can resolve the path.
    if (!e) {
      const prefix = uri.path.endsWith('/') ? uri.path : `${uri.path}/`;
      if ([...this.files.keys()].some((k) => k.startsWith(prefix) && uri.query === ''))
        return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    return {
      type: vscode.FileType.File,
      ctime: e.ctime,
      mtime: e.mtime,
      size: e.data.byteLength,
      ...(e.readonly ? { permissions: vscode.FilePermission.Readonly } : {}),
    };
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const e = this.files.get(keyOf(uri));
    if (!e) throw vscode.FileSystemError.FileNotFound(uri);
    return e.data;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const e = this.files.get(keyOf(uri));
    // Only a proposal under review may be saved; nothing new appears here from outside.
    if (!e) throw vscode.FileSystemError.NoPermissions('Only a proposal under review can be saved here.');
    if (e.readonly) throw vscode.FileSystemError.NoPermissions(uri);
    this.files.set(keyOf(uri), { ...e, data: content, mtime: Date.now() });
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  dispose(): void {
    this.changed.dispose();
    this.files.clear();
  }
}
