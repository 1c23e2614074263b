// "Merge Back…" of a worktree session: the worktree's changes against its base in VS Code's multi-file
// diff editor (`vscode.changes`: every file, one after another, base on the left, the worktree's file on
// the right), then the user's choice — apply to the working tree, merge the branch, rebase it, keep the
// branch, or discard. core/worktrees/merge-back.ts does it; on a conflict nothing changed and the files
// are listed, with one click to see each side by side. Nothing is resolved for the user.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatController } from '../core/agent/controller';
import type { SessionHub } from '../core/sessions/session-hub';
import { readChangeBlob, worktreeChanges } from '../core/worktrees/changes';
import { mergeBack } from '../core/worktrees/merge-back';
import { removeWorktree } from '../core/worktrees/remove';
import type { WorktreeSessions } from '../core/worktrees/session-registry';
import type { MergeBackChoice, SessionWorktree, WorktreeChanges } from '../core/worktrees/types';

/** The base side of a file: `sextant-worktree-base:/<path>?<session id>#<blob>`. */
const BASE_SCHEME = 'sextant-worktree-base';

type Choice = MergeBackChoice | 'discard';

const CHOICES: { choice: Choice; label: string; detail: string }[] = [
  {
    choice: 'apply',
    label: 'Apply to the working tree',
    detail: 'The changes become uncommitted edits in your working tree; the branch and worktree are removed',
  },
  { choice: 'merge', label: 'Merge the branch', detail: 'Commits the worktree’s work on its branch, then git merge' },
  { choice: 'rebase', label: 'Rebase the branch', detail: 'Rebases it onto your branch, then fast-forwards' },
  { choice: 'keep', label: 'Keep the branch, remove the worktree', detail: 'Its work is committed on the branch' },
  { choice: 'discard', label: 'Discard', detail: 'Deletes the worktree and its branch with every change in it' },
];

export class MergeBackReview implements vscode.Disposable {
  private readonly provider: vscode.Disposable;

  constructor(
    private readonly hub: SessionHub<ChatController>,
    private readonly sessions: WorktreeSessions,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.provider = vscode.workspace.registerTextDocumentContentProvider(BASE_SCHEME, {
      provideTextDocumentContent: async (uri) => {
        const wt = this.sessions.record(uri.query)?.worktree;
        return wt ? (await readChangeBlob(wt, uri.fragment)).toString('utf8') : '';
      },
    });
  }

  /** Merge Back… on the Agents view's row of a session, or picked among the worktree sessions. */
  async run(sessionId?: string): Promise<void> {
    const id = sessionId || (await this.pickSession());
    if (!id) return;
    const wt = this.sessions.record(id)?.worktree;
    if (!wt) {
      void vscode.window.showInformationMessage('Sextant: that chat does not work in a worktree (any more).');
      return;
    }
    if (this.hub.bySession(id)?.controller.isRunning()) {
      void vscode.window.showInformationMessage(
        `Sextant: the chat in ${wt.branch} is still running: stop it or let it finish first.`,
      );
      return;
    }
    const changes = await worktreeChanges(wt);
    if (changes.files.length) await this.openReview(id, wt, changes);
    const picked = await vscode.window.showQuickPick(
      CHOICES.map((c) => ({ ...c, description: c.choice === 'apply' ? 'recommended' : undefined })),
      {
        title: `Merge back ${wt.branch}: ${describe(changes)}`,
        placeHolder: 'What to do with this worktree’s changes (the review stays open)',
        ignoreFocusOut: true,
      },
    );
    if (!picked) return;
    if (picked.choice === 'discard') return this.discard(id, wt, changes);
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Sextant: ${picked.label.toLowerCase()}…` },
      () => mergeBack(wt, picked.choice as MergeBackChoice),
    );
    this.log.info(`merge back ${wt.branch} (${result.choice}): ${result.message}`);
    if (result.ok) {
      // Its work is in the working tree or on the kept branch: the chat no longer works in a worktree.
      this.sessions.delete(id);
      void vscode.window.showInformationMessage(`Sextant: ${result.message}`);
      return;
    }
    await this.showConflicts(wt, result.message, result.conflicts);
  }

  dispose(): void {
    this.provider.dispose();
  }

  private async pickSession(): Promise<string | undefined> {
    const records = this.sessions.all();
    if (!records.length) {
      void vscode.window.showInformationMessage('Sextant: no chat works in a worktree.');
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(
      records.map((r) => ({
        label: r.worktree.branch,
        description: this.hub.bySession(r.sessionId)?.status.title,
        detail: r.worktree.path,
        id: r.sessionId,
      })),
      { title: 'Sextant: merge back which worktree?' },
    );
    return pick?.id;
  }

  /** Every changed file in one multi-file diff editor, base ↔ worktree. */
  private async openReview(sessionId: string, wt: SessionWorktree, changes: WorktreeChanges): Promise<void> {
    const base = (p: string, blob: string | undefined) =>
      blob ? vscode.Uri.from({ scheme: BASE_SCHEME, path: `/${p}`, query: sessionId, fragment: blob }) : undefined;
    const resources = changes.files.map((f) => {
      const after = f.afterFile ? vscode.Uri.file(f.afterFile) : undefined;
      const before = base(f.oldPath ?? f.path, f.baseBlob);
      return [after ?? vscode.Uri.file(path.join(wt.path, f.path)), before, after];
    });
    await vscode.commands.executeCommand('vscode.changes', `Merge back: ${wt.branch}`, resources);
  }

  private async discard(id: string, wt: SessionWorktree, changes: WorktreeChanges): Promise<void> {
    const sure = await vscode.window.showWarningMessage(
      `Discard ${wt.branch}? ${describe(changes)} will be lost with its worktree and branch.`,
      { modal: true },
      'Discard',
    );
    if (sure !== 'Discard') return;
    const removed = await removeWorktree(wt, { deleteBranch: 'always' });
    if (removed.removed) this.sessions.delete(id);
    void vscode.window.showInformationMessage(
      removed.removed ? `Sextant: discarded ${wt.branch}.` : `Sextant: the worktree stays: ${removed.problem}.`,
    );
  }

  /** Nothing changed: the files that conflict, each openable beside the worktree's version. */
  private async showConflicts(wt: SessionWorktree, message: string, conflicts: string[]): Promise<void> {
    const list = conflicts.length
      ? ` Conflicting: ${conflicts.slice(0, 5).join(', ')}${conflicts.length > 5 ? ' …' : ''}.`
      : '';
    const action = await vscode.window.showErrorMessage(
      `Sextant: not merged back — ${message}.${list} Your working tree is as it was; the worktree keeps its work.`,
      ...(conflicts.length ? ['Open Conflicts'] : []),
      'Open Worktree Folder',
    );
    if (action === 'Open Worktree Folder')
      await vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(wt.path));
    if (action !== 'Open Conflicts') return;
    const resources = conflicts.map((f) => {
      const mine = vscode.Uri.file(path.join(wt.mainPath, f));
      return [mine, mine, vscode.Uri.file(path.join(wt.path, f))];
    });
    await vscode.commands.executeCommand('vscode.changes', `Conflicts: working tree ↔ ${wt.branch}`, resources);
  }
}

function describe(changes: WorktreeChanges): string {
  const n = changes.files.length;
  return n ? `${n} changed file${n === 1 ? '' : 's'}` : 'no changes';
}
