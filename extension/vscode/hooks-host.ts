// Hooks in this window: the engine's hooks (extension/engine/hooks.ts) with the user's `sextant.hooks`,
// the workspace's settings files (watched), the user's decision in workspace state, and VS Code's
// workspace trust.
import * as vscode from 'vscode';
import type { Outbound } from '../protocol';
import type { Policy } from '../core/permissions';
import type { Logger } from '../core/ports';
import type { AuditEntry } from '../core/security/audit-log';
import type { LiveWorktree } from '../core/worktrees/session-ports';
import { createEngineHooks, type EngineHooks } from '../engine/hooks';
import { readHooksSetting } from './settings';
import type { ToolsHost } from './tools-host';

export type RuntimeHooks = Omit<EngineHooks, 'reloadWorkspace'>;

export function createRuntimeHooks(o: {
  context: vscode.ExtensionContext;
  log: Logger;
  post(message: Outbound): void;
  tools: ToolsHost;
  audit(entry: AuditEntry): void;
  /** The permission policy in force: a hook's `if` is judged with it. */
  policy(): Policy;
  /** The worktree a session works in (its hooks run there), if any. */
  sessionWorktree(sessionId: string): LiveWorktree | undefined;
}): RuntimeHooks {
  const folder = () => vscode.workspace.workspaceFolders?.[0];
  const hooks = createEngineHooks({
    log: o.log,
    post: o.post,
    ports: () => o.tools.ports,
    audit: o.audit,
    policy: o.policy,
    workspaceState: o.context.workspaceState,
    trusted: () => vscode.workspace.isTrusted,
    folder: () => folder()?.uri.fsPath,
    readWorkspaceFile: async (file) => {
      const root = folder();
      if (!root) return undefined;
      try {
        return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(root.uri, file)));
      } catch {
        return undefined; // a missing file has no hooks
      }
    },
    userHooks: readHooksSetting,
    sessionWorktree: o.sessionWorktree,
  });
  const root = folder();
  if (root) {
    const watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(root, '{.sextant/settings.json,.claude/settings.json,.claude/settings.local.json}'),
    );
    const on = () => void hooks.reloadWorkspace();
    o.context.subscriptions.push(watcher, watcher.onDidCreate(on), watcher.onDidChange(on), watcher.onDidDelete(on));
  }
  o.context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(() => hooks.post()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void hooks.reloadWorkspace()),
  );
  void hooks.reloadWorkspace();
  return hooks;
}
