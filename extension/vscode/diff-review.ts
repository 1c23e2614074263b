// Diff review in the editor: each file writer's proposal waiting for approval opens in VS Code's
// diff view — the file on the left, the proposal on the right as an editable `sextant-proposal:`
// document — with Approve / Deny in the title bar. It implements core's DiffReviewPort; deciding goes
// through the same pending approval as the chat card's buttons, so either may answer.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ApprovalDecision, DiffReviewPort, DiffReviewSession, DiffReviewUpdate, Logger } from '../core/ports';
import { withoutLinks } from '../core/security/plain-text';
import type { ProposedChange } from '../core/tools/types';
import { PROPOSAL_SCHEME, ProposalFileSystem } from './proposal-fs';

/** Set while a proposal waits, so the palette offers Approve / Deny Change only then. */
const PENDING_CONTEXT = 'sextant.changeUnderReview';

interface Review {
  callId: string;
  change: ProposedChange;
  left: vscode.Uri;
  right: vscode.Uri;
  title: string;
  update: (u: DiffReviewUpdate) => void;
  state: DiffReviewUpdate;
  watchers: vscode.Disposable[];
}

export interface DiffReviewOptions {
  /** Answers a pending approval, exactly as the chat card's buttons do. */
  decide(callId: string, decision: ApprovalDecision): void;
  log: Logger;
}

const norm = (s: string) => s.replace(/\r\n/g, '\n');

function reviewSettings(): { openDiff: 'auto' | 'manual'; focusDiff: boolean } {
  const c = vscode.workspace.getConfiguration('sextant.review');
  return { openDiff: c.get('openDiff') === 'manual' ? 'manual' : 'auto', focusDiff: c.get('focusDiff') === true };
}

function samePath(a: string, b: string): boolean {
  const ci = process.platform === 'win32' || process.platform === 'darwin';
  return ci
    ? path.normalize(a).toLowerCase() === path.normalize(b).toLowerCase()
    : path.normalize(a) === path.normalize(b);
}

export class DiffReviews implements DiffReviewPort, vscode.Disposable {
  private readonly fs = new ProposalFileSystem();
  private readonly reviews = new Map<string, Review>();
  private readonly disposables: vscode.Disposable[] = [];
  private next = 0;

  constructor(private readonly opts: DiffReviewOptions) {
    this.disposables.push(
      vscode.workspace.registerFileSystemProvider(PROPOSAL_SCHEME, this.fs, { isCaseSensitive: true }),
      this.fs,
    );
    // Proposal tabs restored from before a reload have nothing behind them any more.
    void this.closeTabs(() => true);
  }

  open(review: { callId: string; change: ProposedChange }, update: (u: DiffReviewUpdate) => void): DiffReviewSession {
    const { callId, change } = review;
    // Notebooks are JSON underneath; their change is reviewed on the card only.
    if (change.path.toLowerCase().endsWith('.ipynb')) return { editedText: () => undefined, close: () => undefined };
    const id = ++this.next;
    const name = change.displayPath.replace(/\\/g, '/').replace(/^\/+/, '');
    // The file's own path, so the breadcrumbs and the language match the file; the query tells reviews apart.
    const right = vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${name}`, query: `proposed-${id}` });
    const left = change.isNew
      ? vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${name}`, query: `original-${id}` })
      : vscode.Uri.file(change.path);
    if (change.isNew) this.fs.put(left, '', true);
    this.fs.put(right, change.after, false);
    const title = `${path.basename(change.path)} ${change.isNew ? '(new file)' : ''} ↔ Sextant's proposal`.replace(
      /\s+/g,
      ' ',
    );
    const r: Review = { callId, change, left, right, title, update, state: { edited: false }, watchers: [] };
    this.reviews.set(callId, r);
    this.watch(r);
    void vscode.commands.executeCommand('setContext', PENDING_CONTEXT, true);
    if (reviewSettings().openDiff === 'auto') void this.show(r);
    return {
      editedText: () => this.editedText(r),
      close: () => void this.close(r),
    };
  }

  /** Shows a pending proposal's diff again (the card's "Open diff"); false when none is pending. */
  async reveal(callId: string): Promise<boolean> {
    const r = this.reviews.get(callId);
    if (!r) return false;
    await this.show(r, true);
    return true;
  }

  /** Approve or Deny from the title bar, a key or the palette: the proposal of `target` or of the active tab. */
  async decideActive(decision: 'approve' | 'deny', target?: unknown): Promise<void> {
    const r = this.reviewFor(target);
    if (!r) {
      void vscode.window.showInformationMessage(
        this.reviews.size
          ? 'Sextant: open the diff of the change to approve or deny (or use its card in the chat).'
          : 'Sextant: no change is waiting for review.',
      );
      return;
    }
    if (decision === 'approve') return this.opts.decide(r.callId, { decision: 'approve' });
    const reason = await vscode.window.showInputBox({
      title: `Deny the change to ${r.change.displayPath}`,
      prompt: 'Reason for denying (optional): it goes back to the model. Escape keeps the change pending.',
      placeHolder: 'Reason for denying (optional)',
    });
    if (reason === undefined) return;
    if (!this.reviews.has(r.callId)) return; // decided elsewhere meanwhile
    this.opts.decide(r.callId, { decision: 'deny', ...(reason.trim() ? { reason: reason.trim() } : {}) });
  }

  private reviewFor(target: unknown): Review | undefined {
    const byUri = (uri: vscode.Uri) =>
      [...this.reviews.values()].find(
        (r) => r.right.toString() === uri.toString() || r.left.toString() === uri.toString(),
      );
    if (target instanceof vscode.Uri && target.scheme === PROPOSAL_SCHEME) return byUri(target);
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    if (input instanceof vscode.TabInputTextDiff) return byUri(input.modified);
    const active = vscode.window.activeTextEditor?.document.uri;
    if (active?.scheme === PROPOSAL_SCHEME) return byUri(active);
    // With a single change pending there is no doubt which one is meant.
    return this.reviews.size === 1 ? [...this.reviews.values()][0] : undefined;
  }

  private async show(r: Review, focus = false): Promise<void> {
    const preserveFocus = !(focus || reviewSettings().focusDiff);
    try {
      await vscode.commands.executeCommand('vscode.diff', r.left, r.right, r.title, { preview: false, preserveFocus });
    } catch (err) {
      this.opts.log.warn(`could not open the diff of ${r.change.displayPath}: ${String(err)}`);
    }
  }

  /** The proposal as the user left it (the open document's text, saved or not), when it differs. */
  private editedText(r: Review): string | undefined {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === r.right.toString());
    const text = doc && !doc.isClosed ? doc.getText() : this.fs.text(r.right);
    return text !== undefined && norm(text) !== norm(r.change.after) ? text : undefined;
  }

  /** Follows the proposal (edited?) and the file (changed since the proposal was made?) while pending. */
  private watch(r: Review): void {
    const refresh = async () => {
      const edited = this.editedText(r) !== undefined;
      const stale = await this.staleReason(r);
      if (!this.reviews.has(r.callId)) return;
      if (edited === r.state.edited && stale === r.state.stale) return;
      if (stale && stale !== r.state.stale) void vscode.window.showWarningMessage(withoutLinks(`Sextant: ${stale}`));
      r.state = { edited, ...(stale ? { stale } : {}) };
      r.update(r.state);
    };
    const isFile = (uri: vscode.Uri) => uri.scheme === 'file' && samePath(uri.fsPath, r.change.path);
    const fileWatcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(path.dirname(r.change.path)), path.basename(r.change.path)),
    );
    r.watchers.push(
      fileWatcher,
      fileWatcher.onDidChange(() => void refresh()),
      fileWatcher.onDidCreate(() => void refresh()),
      fileWatcher.onDidDelete(() => void refresh()),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.toString() === r.right.toString() || isFile(e.document.uri)) void refresh();
      }),
    );
  }

  /** Why the file no longer matches the proposal's original text; undefined while it does. */
  private async staleReason(r: Review): Promise<string | undefined> {
    const c = r.change;
    const doc = vscode.workspace.textDocuments.find(
      (d) => d.uri.scheme === 'file' && !d.isClosed && samePath(d.uri.fsPath, c.path),
    );
    let current: string | undefined;
    if (doc) current = doc.getText();
    else {
      try {
        current = Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.file(c.path))).toString('utf8');
      } catch {
        current = undefined;
      }
    }
    const advice = 'approving it now is refused; deny it and ask again, or undo the change to the file.';
    if (c.isNew)
      return current === undefined ? undefined : `${c.displayPath} was created since the proposal: ${advice}`;
    if (current === undefined) return `${c.displayPath} was deleted since the proposal: ${advice}`;
    // A file in another encoding decodes differently here; core's own check at approval is the authority.
    return norm(current) === norm(c.before) ? undefined : `${c.displayPath} changed since the proposal: ${advice}`;
  }

  private async close(r: Review): Promise<void> {
    if (this.reviews.get(r.callId) !== r) return;
    this.reviews.delete(r.callId);
    for (const w of r.watchers) w.dispose();
    if (!this.reviews.size) void vscode.commands.executeCommand('setContext', PENDING_CONTEXT, false);
    // Saved first (into memory), so closing an edited proposal does not ask whether to save it.
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === r.right.toString());
    if (doc?.isDirty) await doc.save().then(undefined, () => false);
    // The file's document stays loaded when its diff closes (an extension's reference keeps it), so an
    // approved change is applied to it — on its undo stack — rather than to a document being disposed.
    if (r.left.scheme === 'file') await vscode.workspace.openTextDocument(r.left).then(undefined, () => undefined);
    await this.closeTabs((uri) => uri.toString() === r.right.toString());
    this.fs.remove(r.right);
    if (r.left.scheme === PROPOSAL_SCHEME) this.fs.remove(r.left);
  }

  private async closeTabs(matches: (modified: vscode.Uri) => boolean): Promise<void> {
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter(
        (t) =>
          t.input instanceof vscode.TabInputTextDiff &&
          t.input.modified.scheme === PROPOSAL_SCHEME &&
          matches(t.input.modified),
      );
    if (tabs.length) await vscode.window.tabGroups.close(tabs, true).then(undefined, () => false);
  }

  dispose(): void {
    for (const r of [...this.reviews.values()]) void this.close(r);
    for (const d of this.disposables) d.dispose();
  }
}
