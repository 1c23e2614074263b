// The editor's side of `@` references (core/extensions/references): the active selection, diagnostics,
// the last command output of a terminal (VS Code's shell integration: each command's output is read as
// it runs and the last one per terminal kept, capped). Also the modal that asks
// before attaching a file the read rules ask about, and a slash command's allowed-tools approval.
import * as vscode from 'vscode';
import type { GrantHost } from '../core/extensions/command-grants';
import type { EditorReferencePort } from '../core/extensions/references/types';

const MAX_TERMINAL_CHARS = 200_000;
const GRANTS_KEY = 'sextant.commandGrants';

// Colours, cursor moves and VS Code's own shell-integration sequences (OSC 633 / 133).
const ANSI = /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[@-Z\\-_]/g;

interface Captured {
  terminal: string;
  command?: string;
  output: string;
}

export class EditorReferences implements EditorReferencePort, vscode.Disposable {
  private readonly last = new Map<vscode.Terminal, Captured>();
  private lastAny: Captured | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor() {
    // Shell integration exists from VS Code 1.93; older hosts simply capture nothing.
    const onStart = vscode.window.onDidStartTerminalShellExecution;
    if (onStart) this.subscriptions.push(onStart((e) => void this.capture(e.terminal, e.execution)));
    this.subscriptions.push(vscode.window.onDidCloseTerminal((t) => this.last.delete(t)));
  }

  private async capture(terminal: vscode.Terminal, execution: vscode.TerminalShellExecution): Promise<void> {
    const entry: Captured = { terminal: terminal.name, command: execution.commandLine?.value, output: '' };
    this.last.set(terminal, entry);
    this.lastAny = entry;
    try {
      for await (const chunk of execution.read()) {
        entry.output += chunk.replace(ANSI, '');
        if (entry.output.length > MAX_TERMINAL_CHARS) entry.output = entry.output.slice(-MAX_TERMINAL_CHARS);
      }
    } catch {
      // A terminal closed mid-command: keep what was read.
    }
  }

  async selection() {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.selection.isEmpty) return undefined;
    const doc = editor.document;
    return {
      ...(doc.uri.scheme === 'file' ? { path: doc.uri.fsPath } : {}),
      text: doc.getText(editor.selection),
      startLine: editor.selection.start.line + 1,
      endLine: editor.selection.end.line + 1,
    };
  }

  async problems(absPath?: string): Promise<string> {
    const entries: Array<[vscode.Uri, readonly vscode.Diagnostic[]]> = absPath
      ? [[vscode.Uri.file(absPath), vscode.languages.getDiagnostics(vscode.Uri.file(absPath))]]
      : vscode.languages.getDiagnostics();
    const lines: string[] = [];
    for (const [uri, diags] of entries)
      for (const d of diags) {
        const { line, character } = d.range.start;
        const where = `${vscode.workspace.asRelativePath(uri)}:${line + 1}:${character + 1}`;
        const source = d.source ? ` [${d.source}]` : '';
        lines.push(`${where} ${vscode.DiagnosticSeverity[d.severity].toLowerCase()}${source}: ${d.message}`);
      }
    return lines.join('\n');
  }

  async terminalOutput(): Promise<Captured | undefined> {
    const active = vscode.window.activeTerminal;
    const found = (active && this.last.get(active)) ?? this.lastAny;
    return found?.output.trim() ? found : undefined;
  }

  /** Staged and unstaged changes; no external diff programs or textconv filters a repository could name. */
  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}

/** The read rules asked about a reference (outside the workspace): attach it only when the user says so. */
export async function confirmReferenceRead(q: { label: string; path: string; reason: string }): Promise<boolean> {
  const choice = await vscode.window.showWarningMessage(
    `Attach ${q.path} to your message?`,
    { modal: true, detail: `${q.label}: ${q.reason}. Its content would be sent to the model.` },
    'Attach',
  );
  return choice === 'Attach';
}

/** A workspace command's allowed-tools: approved once per version of its file (workspace state). */
export function commandGrantHost(state: vscode.Memento): GrantHost {
  const all = () => state.get<Record<string, string>>(GRANTS_KEY) ?? {};
  return {
    trusted: () => vscode.workspace.isTrusted,
    approvedHash: (file) => all()[file],
    remember: async (file, hash) => state.update(GRANTS_KEY, { ...all(), [file]: hash }),
    async ask(q) {
      const dropped = q.dropped.length ? `\n\nLeft out: ${q.dropped.join('; ')}.` : '';
      const choice = await vscode.window.showWarningMessage(
        `The workspace command /${q.command} asks to run these without asking, for this turn:`,
        {
          modal: true,
          detail:
            `${q.rules.join(', ')}\n\nFrom ${vscode.workspace.asRelativePath(q.file)}. Deny rules, protected paths ` +
            `and the sandbox still apply. Asked again whenever the file changes.${dropped}`,
        },
        'Allow for this command',
        'Run without',
      );
      return choice === 'Allow for this command';
    },
  };
}
