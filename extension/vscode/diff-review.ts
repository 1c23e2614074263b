// Diff review in the editor: each file writer's proposal waiting for approval opens in VS Code's
// diff view — the file on the left, the proposal on the right as an editable `sextant-proposal:`
// document — with Approve / Deny in the title bar. A change of several files (rename) opens one diff
// per file, each editable, all answered by one decision. It implements core's DiffReviewPort;
// deciding goes through the same pending approval as the chat card's buttons, so either may answer.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ApprovalDecision, DiffReviewPort, DiffReviewSession, DiffReviewUpdate, Logger } from '../core/ports';
import { withoutLinks } from '../core/security/plain-text';
import { isChangeSet, type Proposal, type ProposedChange } from '../core/tools/types';
import { PROPOSAL_SCHEME, ProposalFileSystem } from './proposal-fs';

/** Set while a proposal waits, so the palette offers Approve / Deny Change only then. */
const PENDING_CONTEXT = 'sextant.changeUnderReview';

/** One file of a review: its change and the two sides of its diff. */
interface FileReview {
  change: ProposedChange;
  left: vscode.Uri;
  right: vscode.Uri;
  title: string;
}

interface Review {
  callId: string;
  files: FileReview[];
  /** What the change is called in a prompt: the file, or "N files". */
  label: string;
  update: (u: DiffReviewUpdate) => void;
  state: DiffReviewUpdate;
  watchers: vscode.Disposable[];
}

/** Diffs of a change of several files opened by themselves; the card's "Open diff" shows any other. */
const AUTO_OPEN_FILES = 5;

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

  open(review: { callId: string; change: Proposal }, update: (u: DiffReviewUpdate) => void): DiffReviewSession {
    const { callId, change } = review;
    const set = isChangeSet(change);
    // Notebooks are JSON underneath; their change is reviewed on the card only.
    const changes = (set ? change.files : [change]).filter((c) => !c.path.toLowerCase().endsWith('.ipynb'));
    if (!changes.length) return { editedText: () => undefined, close: () => undefined };
    const id = ++this.next;
    const files = changes.map((c, k) => {
      const name = c.displayPath.replace(/\\/g, '/').replace(/^\/+/, '');
      // The file's own path, so the breadcrumbs and the language match the file; the query tells reviews apart.
      const right = vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${name}`, query: `proposed-${id}-${k}` });
      const left = c.isNew
        ? vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${name}`, query: `original-${id}-${k}` })
        : vscode.Uri.file(c.path);
      if (c.isNew) this.fs.put(left, '', true);
      this.fs.put(right, c.after, false);
      const of = set ? ` (${k + 1} of ${changes.length})` : '';
      const title = `${path.basename(c.path)} ${c.isNew ? '(new file)' : ''} ↔ Sextant's proposal${of}`.replace(
        /\s+/g,
        ' ',
      );
      return { change: c, left, right, title };
    });
    const label = set ? `${changes.length} file${changes.length > 1 ? 's' : ''}` : changes[0].displayPath;
    const r: Review = { callId, files, label, update, state: { edited: false }, watchers: [] };
    this.reviews.set(callId, r);
    this.watch(r);
    void vscode.commands.executeCommand('setContext', PENDING_CONTEXT, true);
    if (reviewSettings().openDiff === 'auto') void this.showAll(r);
    return {
      editedText: (file?: string) => {
        const f = file === undefined ? r.files[0] : r.files.find((x) => samePath(x.change.path, file));
        return f ? this.editedText(f) : undefined;
      },
      close: () => void this.close(r),
    };
  }

  /** Shows a pending proposal's diff again (the card's "Open diff"); false when none is pending. */
  async reveal(callId: string, file?: string): Promise<boolean> {
    const r = this.reviews.get(callId);
    const f = file === undefined ? r?.files[0] : r?.files.find((x) => x.change.displayPath === file);
    if (!f) return false;
    await this.show(f, true);
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
      title: `Deny the change to ${r.label}`,
      prompt: 'Reason for denying (optional): it goes back to the model. Escape keeps the change pending.',
      placeHolder: 'Reason for denying (optional)',
    });
    if (reason === undefined) return;
    if (!this.reviews.has(r.callId)) return; // decided elsewhere meanwhile
    this.opts.decide(r.callId, { decision: 'deny', ...(reason.trim() ? { reason: reason.trim() } : {}) });
  }

  private reviewFor(target: unknown): Review | undefined {
    const byUri = (uri: vscode.Uri) =>
      [...this.reviews.values()].find((r) =>
        r.files.some((f) => f.right.toString() === uri.toString() || f.left.toString() === uri.toString()),
      );
    if (target instanceof vscode.Uri && target.scheme === PROPOSAL_SCHEME) return byUri(target);
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    if (input instanceof vscode.TabInputTextDiff) return byUri(input.modified);
    const active = vscode.window.activeTextEditor?.document.uri;
    if (active?.scheme === PROPOSAL_SCHEME) return byUri(active);
    // With a single change pending there is no doubt which one is meant.
    return this.reviews.size === 1 ? [...this.reviews.values()][0] : undefined;
  }

  /** Opens the diffs of a review (of several files: the first few, the rest from the card). */
  private async showAll(r: Review): Promise<void> {
    for (const f of r.files.slice(0, AUTO_OPEN_FILES)) await this.show(f);
  }

  private async show(f: FileReview, focus = false): Promise<void> {
    const preserveFocus = !(focus || reviewSettings().focusDiff);
    try {
      await vscode.commands.executeCommand('vscode.diff', f.left, f.right, f.title, { preview: false, preserveFocus });
    } catch (err) {
      this.opts.log.warn(`could not open the diff of ${f.change.displayPath}: ${String(err)}`);
    }
  }

  /** A file's proposal as the user left it (the open document's text, saved or not), when it differs. */
  private editedText(f: FileReview): string | undefined {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === f.right.toString());
    const text = doc && !doc.isClosed ? doc.getText() : this.fs.text(f.right);
    return text !== undefined && norm(text) !== norm(f.change.after) ? text : undefined;
  }

  /** Follows the proposals (edited?) and the files (changed since the proposal was made?) while pending. */
  private watch(r: Review): void {
    const refresh = async () => {
      const edited = r.files.some((f) => this.editedText(f) !== undefined);
      let stale: string | undefined;
      for (const f of r.files) stale ??= await this.staleReason(f.change);
      if (!this.reviews.has(r.callId)) return;
      if (edited === r.state.edited && stale === r.state.stale) return;
      if (stale && stale !== r.state.stale) void vscode.window.showWarningMessage(withoutLinks(`Sextant: ${stale}`));
      r.state = { edited, ...(stale ? { stale } : {}) };
      r.update(r.state);
    };
    const isOurs = (uri: vscode.Uri) =>
      r.files.some(
        (f) => uri.toString() === f.right.toString() || (uri.scheme === 'file' && samePath(uri.fsPath, f.change.path)),
      );
    for (const f of r.files) {
      const fileWatcher = vscode.workspace.createFileSystemWatcher(
        new vscode.RelativePattern(vscode.Uri.file(path.dirname(f.change.path)), path.basename(f.change.path)),
      );
      r.watchers.push(
        fileWatcher,
        fileWatcher.onDidChange(() => void refresh()),
        fileWatcher.onDidCreate(() => void refresh()),
        fileWatcher.onDidDelete(() => void refresh()),
      );
    }
    r.watchers.push(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (isOurs(e.document.uri)) void refresh();
      }),
    );
  }

  /** Why the file no longer matches the proposal's original text; undefined while it does. */
  private async staleReason(c: ProposedChange): Promise<string | undefined> {
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
    for (const f of r.files) {
      // Saved first (into memory), so closing an edited proposal does not ask whether to save it.
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === f.right.toString());
      if (doc?.isDirty) await doc.save().then(undefined, () => false);
      // The file's document stays loaded when its diff closes (an extension's reference keeps it), so an
      // approved change is applied to it — on its undo stack — rather than to a document being disposed.
      if (f.left.scheme === 'file') await vscode.workspace.openTextDocument(f.left).then(undefined, () => undefined);
    }
    const rights = new Set(r.files.map((f) => f.right.toString()));
    await this.closeTabs((uri) => rights.has(uri.toString()));
    for (const f of r.files) {
      this.fs.remove(f.right);
      if (f.left.scheme === PROPOSAL_SCHEME) this.fs.remove(f.left);
    }
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
