// What resolving `@` references needs from its host: the workspace, the permission gate read_file is
// judged by, and the editor's parts (selection, problems, terminal) through a port. `@git` runs git
// itself (readable-diff.ts), so the read rules judge every file of the diff.
import type { PermissionGate } from '../../agent/permission-gate';
import type { WorkspacePort } from '../../ports';

/** The editor's side: VS Code implements it (extension/vscode/reference-editor.ts); tests fake it. */
export interface EditorReferencePort {
  /** The active editor's selection (or undefined when nothing is selected). */
  selection(): Promise<{ path?: string; text: string; startLine: number; endLine: number } | undefined>;
  /** Diagnostics as text, one per line: `path:line:col severity message`; of one file, or the workspace's. */
  problems(absPath?: string): Promise<string>;
  /** The last command output captured from a terminal (VS Code's shell integration). */
  terminalOutput(): Promise<{ terminal: string; command?: string; output: string } | undefined>;
}

export interface ReferenceServices {
  workspace: WorkspacePort;
  ripgrepPath(): string | undefined;
  /** The same gate read_file is judged by; without it reads inside the workspace pass and others ask. */
  permissions?: PermissionGate;
  editor: EditorReferencePort;
  /** A page through web_fetch's pipeline (URL guard, redirects re-checked, caps, HTML → Markdown). */
  fetchPage?(url: string, signal?: AbortSignal): Promise<{ url: string; title?: string; markdown: string }>;
  /** An MCP resource's text (the connected server's resources/read). */
  readMcpResource?(server: string, uri: string): Promise<string>;
  /** Asks the user whether a read the policy asks about may go ahead (a modal in VS Code). */
  confirmRead(question: { label: string; path: string; reason: string }): Promise<boolean>;
}
