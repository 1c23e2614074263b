// What core needs from the editor's language features (the VS Code adapter is
// extension/vscode/adapters/language.ts): diagnostics, and the providers behind definition,
// references, hover, symbols and rename. Positions here are 0-based, paths absolute.

export type DiagnosticSeverity = 'error' | 'warning' | 'info' | 'hint';

export interface FileDiagnostic {
  /** Absolute path of the file. */
  path: string;
  /** 0-based, like the editor's. */
  line: number;
  character: number;
  severity: DiagnosticSeverity;
  message: string;
  /** Who reported it ("ts", "eslint", …). */
  source?: string;
  code?: string;
}

export interface TextPosition {
  /** 0-based. */
  line: number;
  /** 0-based, in UTF-16 code units. */
  character: number;
}

export interface TextRange {
  start: TextPosition;
  end: TextPosition;
}

export interface CodeLocation {
  path: string;
  range: TextRange;
}

export interface CodeSymbol {
  name: string;
  /** "function", "class", "method", … */
  kind: string;
  /** Enclosing symbol's name, when known. */
  container?: string;
  location: CodeLocation;
}

/** One file's edits from a rename, in the order the provider gave them. */
export interface FileTextEdits {
  path: string;
  edits: Array<{ range: TextRange; newText: string }>;
}

/** A rename provider's answer: its text edits per file, and what in it Sextant does not apply. */
export interface RenameEdit {
  files: FileTextEdits[];
  /**
   * Parts of the edit that are not text edits of files on disk (a file created, renamed or deleted;
   * an unsaved document), described for the model: a rename with any is refused whole.
   */
  unsupported: string[];
}

/** What the editor's language support knows about a file. */
export interface LanguageSupport {
  /** The editor's language id ("typescript", "plaintext", …). */
  languageId: string;
  /** Whether some language service reports diagnostics for files of this language. */
  diagnostics: boolean;
}

/** How long to wait for diagnostics to settle after an edit. */
export interface SettleLimits {
  /** No change for this long after the last one: settled. */
  quietMs: number;
  /** Never wait longer than this in all (0: do not wait, and do not report). */
  maxMs: number;
}

export interface LanguagePort {
  /** The wait after an edit (sextant.diagnostics.waitMs, read on every use). */
  settleLimits(): SettleLimits;
  /** Current diagnostics of these files, or of every file the editor has diagnostics for. */
  diagnostics(absPaths?: readonly string[]): FileDiagnostic[];
  /** Calls back with the absolute paths whose diagnostics changed; returns the unsubscribe. */
  onDidChangeDiagnostics(listener: (absPaths: string[]) => void): () => void;
  /**
   * Makes sure the editor tracks the file (opens its document, so its language server sees it) and
   * says what language support it has; `opened` is true when it was not open before, so its
   * diagnostics are not computed yet. Undefined when the file cannot be opened (binary, missing).
   */
  track(absPath: string): Promise<(LanguageSupport & { opened: boolean }) | undefined>;
  definition(absPath: string, at: TextPosition): Promise<CodeLocation[]>;
  references(absPath: string, at: TextPosition): Promise<CodeLocation[]>;
  /** Hover texts (Markdown) at the position. */
  hover(absPath: string, at: TextPosition): Promise<string[]>;
  documentSymbols(absPath: string): Promise<CodeSymbol[]>;
  workspaceSymbols(query: string): Promise<CodeSymbol[]>;
  /**
   * The rename provider's edit; throws with the provider's message when the rename is not possible
   * there. Undefined when no rename provider answered (the language has none).
   */
  rename(absPath: string, at: TextPosition, newName: string): Promise<RenameEdit | undefined>;
}
