// What core needs from the editor's language-model tool registry (VS Code: `vscode.lm.tools` and
// `vscode.lm.invokeTool`, extension/vscode/lm-tools-port.ts). Core never imports `vscode`.

/** A tool another extension registered, as the registry describes it. */
export interface LmToolInfo {
  name: string;
  description: string;
  /** JSON Schema of its input (absent: it takes no input). */
  inputSchema?: Record<string, unknown>;
  tags: readonly string[];
}

export interface LanguageModelToolsPort {
  /** The tools registered now. */
  list(): readonly LmToolInfo[];
  /** Runs one; its result parts as text (non-text parts named). Rejects with the tool's error. */
  invoke(name: string, input: Record<string, unknown>, signal: AbortSignal): Promise<string>;
}
