// /review's findings where the code is: each finding becomes a comment thread on the line it names
// (the Comments API, controller "sextant-review") with an "Apply Fix" action, and an entry in the
// Problems view (a diagnostic collection) that "Sextant: Clear Review Findings" clears. "Apply Fix"
// sends the finding to the agent as a normal Agent request, so the change arrives as an ordinary
// reviewed edit (the diff review opens; nothing is written without the user). Findings replace the
// previous review's; a path outside the workspace folder or a missing file is left out.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { applyFixPrompt, parseReviewFindings, type FindingSeverity, type ReviewFinding } from '../core/git';

export const REVIEW_CONTROLLER_ID = 'sextant-review';
export const APPLY_FIX_COMMAND = 'sextant.review.applyFix';
export const CLEAR_FINDINGS_COMMAND = 'sextant.review.clearFindings';

const SEVERITY: Record<FindingSeverity, vscode.DiagnosticSeverity> = {
  critical: vscode.DiagnosticSeverity.Error,
  high: vscode.DiagnosticSeverity.Error,
  medium: vscode.DiagnosticSeverity.Warning,
  low: vscode.DiagnosticSeverity.Information,
  info: vscode.DiagnosticSeverity.Hint,
};

export class ReviewComments implements vscode.Disposable {
  private readonly controller = vscode.comments.createCommentController(REVIEW_CONTROLLER_ID, 'Sextant review');
  private readonly problems = vscode.languages.createDiagnosticCollection('sextant-review');
  private threads: Array<{ thread: vscode.CommentThread; finding: ReviewFinding }> = [];

  constructor(
    private readonly root: () => string | undefined,
    /** Sends the prompt to the chat as an Agent request. */
    private readonly sendToAgent: (text: string) => Promise<void>,
  ) {}

  /** Shows the findings of a /review answer; returns how many were placed. */
  show(answer: string): number {
    this.clear();
    const root = this.root();
    if (!root) return 0;
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const finding of parseReviewFindings(answer)) {
      const abs = path.resolve(root, finding.path);
      if (path.relative(root, abs).startsWith('..') || !existsSync(abs)) continue;
      const uri = vscode.Uri.file(abs);
      const range = new vscode.Range(finding.line - 1, 0, finding.line - 1, 0);
      const thread = this.controller.createCommentThread(uri, range, [this.comment(finding, this.threads.length)]);
      thread.label = `Sextant review · ${finding.severity}`;
      thread.contextValue = 'sextantFinding';
      thread.canReply = false;
      thread.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
      this.threads.push({ thread, finding });
      const d = new vscode.Diagnostic(range, finding.message, SEVERITY[finding.severity]);
      d.source = 'Sextant review';
      byFile.set(abs, [...(byFile.get(abs) ?? []), d]);
    }
    for (const [file, list] of byFile) this.problems.set(vscode.Uri.file(file), list);
    return this.threads.length;
  }

  /** "Apply Fix" from a thread's title (the thread), a comment's link (its index) or the palette (a pick). */
  async applyFix(arg?: unknown): Promise<void> {
    const entry =
      typeof arg === 'number'
        ? this.threads[arg]
        : this.threads.find((t) => t.thread === arg || (arg as { thread?: unknown } | undefined)?.thread === t.thread);
    const chosen = entry ?? (await this.pick());
    if (!chosen) return;
    await this.sendToAgent(applyFixPrompt(chosen.finding));
  }

  clear(): void {
    for (const t of this.threads) t.thread.dispose();
    this.threads = [];
    this.problems.clear();
  }

  dispose(): void {
    this.clear();
    this.controller.dispose();
    this.problems.dispose();
  }

  private comment(f: ReviewFinding, index: number): vscode.Comment {
    const link = `command:${APPLY_FIX_COMMAND}?${encodeURIComponent(JSON.stringify([index]))}`;
    const text = `**${f.severity}** — ${escapeMarkdown(f.message)}`;
    const body = new vscode.MarkdownString(`${text}\n\n[Apply Fix](${link})`);
    // Only this command may run from the comment's links.
    body.isTrusted = { enabledCommands: [APPLY_FIX_COMMAND] };
    return { body, mode: vscode.CommentMode.Preview, author: { name: 'Sextant review' } };
  }

  private async pick() {
    if (!this.threads.length) {
      void vscode.window.showInformationMessage('Sextant: no review findings to fix (run /review in the chat).');
      return undefined;
    }
    const items = this.threads.map((t) => ({
      label: `${t.finding.path}:${t.finding.line}`,
      description: t.finding.severity,
      detail: t.finding.message,
      entry: t,
    }));
    return (await vscode.window.showQuickPick(items, { title: 'Sextant: Apply Fix' }))?.entry;
  }
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>]/g, (c) => `\\${c}`);
}
