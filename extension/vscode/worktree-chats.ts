// Chats in their own git worktree (issue 37): "Sextant: New Chat in Worktree", and "New Chat in Editor"
// under sextant.agents.worktrees ("ask" / "always"). The worktree is made before the chat's tab shows
// (`git worktree add --no-checkout` on a new branch, tens of ms), so no message can reach the chat
// before its tools are rooted there; its files are written in the background, and only tool calls wait
// for them (session-ports.ts). A folder that is not in a git repository (or has no commit) gets a
// plain chat in the folder, and says why.
import * as vscode from 'vscode';
import type { ChatController } from '../core/agent/controller';
import type { SessionHub, SessionSlot } from '../core/sessions/session-hub';
import { createWorktree } from '../core/worktrees/create';
import type { WorktreeSessions } from '../core/worktrees/session-registry';

export type WorktreesSetting = 'off' | 'ask' | 'always';

/**
 * sextant.agents.worktrees and .worktreeFolder, from user settings only: a cloned repository cannot move
 * where agents write.
 */
export function readWorktreeSettings(): { mode: WorktreesSetting; folder: string | undefined } {
  const c = vscode.workspace.getConfiguration('sextant');
  const mode = c.inspect<string>('agents.worktrees')?.globalValue;
  const folder = c.inspect<string>('agents.worktreeFolder')?.globalValue;
  return {
    mode: mode === 'ask' || mode === 'always' ? mode : 'off',
    folder: typeof folder === 'string' && folder.trim() ? folder.trim() : undefined,
  };
}

export interface WorktreeChatsDeps {
  hub: SessionHub<ChatController>;
  sessions: WorktreeSessions;
  /** Shows a slot in a new editor tab. */
  show(slot: SessionSlot<ChatController>): Promise<void>;
  /** A plain New Chat in Editor. */
  openPlain(): Promise<void>;
  storeReady: Promise<unknown>;
  log: vscode.LogOutputChannel;
}

export class WorktreeChats {
  constructor(private readonly d: WorktreeChatsDeps) {}

  /** Sextant: New Chat in Editor: in a worktree when the setting says so (or the user, asked, does). */
  async newEditorChat(): Promise<void> {
    const { mode } = readWorktreeSettings();
    if (mode === 'off') return this.d.openPlain();
    if (mode === 'ask') {
      const pick = await vscode.window.showQuickPick(
        [
          { label: 'In a new worktree', detail: 'Its own branch and folder; you review and merge back its changes' },
          { label: 'In the workspace', detail: 'Edits your working tree directly' },
        ],
        { title: 'Sextant: where should the new chat work?' },
      );
      if (!pick) return;
      if (pick.label === 'In the workspace') return this.d.openPlain();
    }
    return this.newChatInWorktree();
  }

  /** Sextant: New Chat in Worktree. */
  async newChatInWorktree(): Promise<void> {
    await this.d.storeReady;
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath;
    if (!folder) {
      void vscode.window.showInformationMessage(
        'Sextant: open a folder first — a worktree is made from its repository.',
      );
      return;
    }
    const slot = this.d.hub.open({ place: 'editor' });
    const sessionId = slot.controller.sessionId;
    const started = performance.now();
    try {
      const made = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: 'Sextant: making a worktree…' },
        () =>
          createWorktree({
            repo: folder,
            title: 'chat',
            sessionId,
            folderSetting: readWorktreeSettings().folder,
            populate: 'background',
          }),
      );
      const { worktree } = made;
      this.d.sessions.add(sessionId, worktree, made.ready);
      this.d.log.info(
        `worktree: ${worktree.branch} at ${worktree.path} — the chat may start after ` +
          `${(performance.now() - started).toFixed(0)} ms`,
      );
      void made.ready.then(
        () =>
          this.d.log.info(
            `worktree: ${worktree.branch} has its files after ${(performance.now() - started).toFixed(0)} ms`,
          ),
        (e: Error) => {
          this.d.sessions.delete(sessionId);
          void vscode.window.showErrorMessage(`Sextant: ${e.message}`);
        },
      );
      if (made.mainHadChanges)
        void vscode.window.showInformationMessage(
          `Sextant: the chat works in ${worktree.branch}, made from your last commit — uncommitted changes in ` +
            'your working tree are not in it.',
        );
    } catch (e) {
      // Not a repository, no commit yet, git missing: the chat still runs, in the folder itself.
      this.d.log.warn(`worktree: ${(e as Error).message}`);
      void vscode.window.showWarningMessage(
        `Sextant: no worktree — ${(e as Error).message}. This chat works in the folder itself.`,
      );
    }
    await this.d.show(slot);
  }
}
