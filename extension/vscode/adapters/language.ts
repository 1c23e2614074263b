// The LanguagePort over VS Code's language features: diagnostics (languages.getDiagnostics and its
// change event) and the built-in `vscode.execute…Provider` commands, which reach whatever language
// extensions are installed (TypeScript/JavaScript, JSON, CSS are built in).
import * as vscode from 'vscode';
import { DEFAULT_SETTLE } from '../../core/language/diagnostics';
import type {
  CodeLocation,
  CodeSymbol,
  DiagnosticSeverity,
  FileDiagnostic,
  FileTextEdits,
  LanguagePort,
  RenameEdit,
  TextPosition,
  TextRange,
} from '../../core/language/types';

/**
 * Languages whose diagnostics come with VS Code itself. Any other language counts once a diagnostic
 * for a file of it has been seen in this window (an installed linter or language server reports).
 */
const BUILT_IN_DIAGNOSTICS = [
  'typescript',
  'typescriptreact',
  'javascript',
  'javascriptreact',
  'json',
  'jsonc',
  'css',
  'scss',
  'less',
];

const SEVERITY: Record<vscode.DiagnosticSeverity, DiagnosticSeverity> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'info',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

function toDiagnostic(uri: vscode.Uri, d: vscode.Diagnostic): FileDiagnostic {
  const code = typeof d.code === 'object' ? d.code.value : d.code;
  return {
    path: uri.fsPath,
    line: d.range.start.line,
    character: d.range.start.character,
    severity: SEVERITY[d.severity],
    message: d.message,
    ...(d.source ? { source: d.source } : {}),
    ...(code !== undefined ? { code: String(code) } : {}),
  };
}

const range = (r: vscode.Range): TextRange => ({
  start: { line: r.start.line, character: r.start.character },
  end: { line: r.end.line, character: r.end.character },
});

function toLocation(l: vscode.Location | vscode.LocationLink): CodeLocation {
  if ('targetUri' in l) return { path: l.targetUri.fsPath, range: range(l.targetSelectionRange ?? l.targetRange) };
  return { path: l.uri.fsPath, range: range(l.range) };
}

const kindName = (k: vscode.SymbolKind) => (vscode.SymbolKind[k] ?? 'symbol').toLowerCase();

function flatten(uri: vscode.Uri, items: Array<vscode.DocumentSymbol | vscode.SymbolInformation>): CodeSymbol[] {
  const out: CodeSymbol[] = [];
  const walk = (s: vscode.DocumentSymbol | vscode.SymbolInformation, container?: string) => {
    if ('location' in s) {
      out.push({
        name: s.name,
        kind: kindName(s.kind),
        ...(s.containerName ? { container: s.containerName } : {}),
        location: toLocation(s.location),
      });
      return;
    }
    out.push({
      name: s.name,
      kind: kindName(s.kind),
      ...(container ? { container } : {}),
      location: { path: uri.fsPath, range: range(s.selectionRange) },
    });
    for (const child of s.children ?? []) walk(child, s.name);
  };
  for (const s of items ?? []) walk(s);
  return out;
}

function hoverText(c: vscode.MarkdownString | vscode.MarkedString): string {
  if (typeof c === 'string') return c;
  if ('language' in c) return `\`\`\`${c.language}\n${c.value}\n\`\`\``;
  return c.value;
}

/**
 * Whatever the extension host's WorkspaceEdit holds besides text edits. The public API lists text
 * edits only (`entries()`); file operations (create, rename, delete) are seen through its internal
 * `_allEntries()` where it has one, so a rename that would also move a file is refused, not half done.
 */
function fileOperations(edit: vscode.WorkspaceEdit): string[] {
  const all = (edit as unknown as { _allEntries?: () => unknown[] })._allEntries;
  if (typeof all !== 'function') return [];
  const out: string[] = [];
  for (const e of all.call(edit) ?? []) {
    if (typeof e !== 'object' || e === null || !('from' in e || 'to' in e)) continue;
    const { from, to } = e as { from?: vscode.Uri; to?: vscode.Uri };
    const what = from && to ? 'renames' : to ? 'creates' : 'deletes';
    out.push(`it ${what} the file ${from?.fsPath ?? to?.fsPath ?? '?'}${from && to ? ` to ${to.fsPath}` : ''}`);
  }
  return out;
}

function renameEdit(edit: vscode.WorkspaceEdit): RenameEdit {
  const files: FileTextEdits[] = [];
  const unsupported = fileOperations(edit);
  for (const [uri, edits] of edit.entries()) {
    if (uri.scheme !== 'file') {
      unsupported.push(`it edits ${uri.toString(true)}, which is not a file on disk`);
      continue;
    }
    files.push({ path: uri.fsPath, edits: edits.map((e) => ({ range: range(e.range), newText: e.newText })) });
  }
  return { files, unsupported };
}

const pos = (p: TextPosition) => new vscode.Position(p.line, p.character);

export function createLanguagePort(): LanguagePort & vscode.Disposable {
  const learned = new Set<string>(BUILT_IN_DIAGNOSTICS);
  const learn = (uris: readonly vscode.Uri[]) => {
    for (const uri of uris) {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      if (doc && vscode.languages.getDiagnostics(uri).length) learned.add(doc.languageId);
    }
  };
  const learning = vscode.languages.onDidChangeDiagnostics((e) => learn(e.uris));
  const file = (abs: string) => vscode.Uri.file(abs);
  const run = <T>(command: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(command, ...args);
  const open = async (abs: string) => {
    await vscode.workspace.openTextDocument(file(abs));
    return file(abs);
  };

  return {
    settleLimits() {
      const v = vscode.workspace.getConfiguration('sextant.diagnostics').get<unknown>('waitMs');
      const maxMs =
        typeof v === 'number' && Number.isFinite(v)
          ? Math.min(Math.max(Math.round(v), 0), 30_000)
          : DEFAULT_SETTLE.maxMs;
      return { quietMs: DEFAULT_SETTLE.quietMs, maxMs };
    },
    diagnostics(absPaths) {
      if (absPaths)
        return absPaths.flatMap((p) => vscode.languages.getDiagnostics(file(p)).map((d) => toDiagnostic(file(p), d)));
      return vscode.languages
        .getDiagnostics()
        .filter(([uri]) => uri.scheme === 'file')
        .flatMap(([uri, list]) => list.map((d) => toDiagnostic(uri, d)));
    },
    onDidChangeDiagnostics(listener) {
      const sub = vscode.languages.onDidChangeDiagnostics((e) => {
        const paths = e.uris.filter((u) => u.scheme === 'file').map((u) => u.fsPath);
        if (paths.length) listener(paths);
      });
      return () => sub.dispose();
    },
    async track(abs) {
      const uri = file(abs);
      const wasOpen = vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString());
      let doc: vscode.TextDocument;
      try {
        doc = await vscode.workspace.openTextDocument(uri);
      } catch {
        return undefined;
      }
      const diagnostics = learned.has(doc.languageId) || vscode.languages.getDiagnostics(uri).length > 0;
      return { languageId: doc.languageId, diagnostics, opened: !wasOpen };
    },
    async definition(abs, at) {
      const found = await run<Array<vscode.Location | vscode.LocationLink>>(
        'vscode.executeDefinitionProvider',
        await open(abs),
        pos(at),
      );
      return (found ?? []).map(toLocation);
    },
    async references(abs, at) {
      const found = await run<vscode.Location[]>('vscode.executeReferenceProvider', await open(abs), pos(at));
      return (found ?? []).map(toLocation);
    },
    async hover(abs, at) {
      const found = await run<vscode.Hover[]>('vscode.executeHoverProvider', await open(abs), pos(at));
      return (found ?? []).flatMap((h) => h.contents.map(hoverText));
    },
    async documentSymbols(abs) {
      const uri = await open(abs);
      return flatten(
        uri,
        (await run<Array<vscode.DocumentSymbol | vscode.SymbolInformation>>(
          'vscode.executeDocumentSymbolProvider',
          uri,
        )) ?? [],
      );
    },
    async workspaceSymbols(query) {
      const found = await run<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', query);
      return flatten(vscode.Uri.file('/'), found ?? []);
    },
    async rename(abs, at, newName) {
      const edit = await run<vscode.WorkspaceEdit | undefined>(
        'vscode.executeDocumentRenameProvider',
        await open(abs),
        pos(at),
        newName,
      );
      return edit ? renameEdit(edit) : undefined;
    },
    dispose() {
      learning.dispose();
    },
  };
}
