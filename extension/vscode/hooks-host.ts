// Hooks in this window: the user's `sextant.hooks` and the workspace's settings files (watched), the
// user's decision about the workspace's hooks in workspace state, the approval card's view posted to
// the chat, and the engine the chat fires events through. Hooks run through the sandbox port (in the
// box, like commands) with the same scrubbed environment.
import * as vscode from 'vscode';
import type { Outbound } from '../protocol';
import { WORKSPACE_HOOK_FILES } from '../core/extensions/hooks/config';
import { HookEngine } from '../core/extensions/hooks/hook-engine';
import { boxedHookRunner } from '../core/extensions/hooks/hook-process';
import { HookSettings } from '../core/extensions/hooks/hook-settings';
import { HookTrust } from '../core/extensions/hooks/hook-trust';
import type { Policy } from '../core/permissions';
import type { Logger } from '../core/ports';
import type { AuditEntry } from '../core/security/audit-log';
import { defaultChildEnv } from '../core/security/child-env';
import { readHooksSetting } from './settings';
import type { ToolsHost } from './tools-host';

export interface RuntimeHooks {
  engine: HookEngine;
  settings: HookSettings;
  /** Posts the view (the approval card) to the chat. */
  post(): void;
  /** The setting changed. */
  reloadUser(): void;
  decide(hash: string, decision: 'approve' | 'deny'): Promise<void>;
}

export function createRuntimeHooks(o: {
  context: vscode.ExtensionContext;
  log: Logger;
  post(message: Outbound): void;
  tools: ToolsHost;
  audit(entry: AuditEntry): void;
  /** The permission policy in force: a hook's `if` is judged with it. */
  policy(): Policy;
}): RuntimeHooks {
  const folder = () => vscode.workspace.workspaceFolders?.[0];
  const settings = new HookSettings(
    new HookTrust(o.context.workspaceState),
    () => vscode.workspace.isTrusted,
    () => folder()?.uri.fsPath,
  );
  const engine = new HookEngine({
    hooks: () => settings.inForce(),
    run: boxedHookRunner(() => o.tools.ports.sandbox),
    env: () => o.tools.ports.childEnv?.() ?? defaultChildEnv(),
    cwd: () => folder()?.uri.fsPath,
    audit: o.audit,
    log: o.log,
    policy: o.policy,
  });
  const post = () => o.post({ type: 'hooks', view: settings.view() });
  let reported = '';
  settings.onDidChange(() => {
    const problems = settings.problems().join('\n');
    if (problems && problems !== reported) o.log.warn(`hooks: ${problems}`);
    reported = problems;
    post();
  });
  const reloadUser = () => settings.setUser(readHooksSetting());
  const reloadWorkspace = async () => {
    const root = folder();
    if (!root) return settings.setWorkspaceFiles([]);
    const files: Array<{ file: string; text: string }> = [];
    for (const file of WORKSPACE_HOOK_FILES) {
      try {
        const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(root.uri, file));
        files.push({ file, text: new TextDecoder().decode(bytes) });
      } catch {
        // a missing file has no hooks
      }
    }
    settings.setWorkspaceFiles(files);
  };
  const root = folder();
  if (root) {
    const watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(root, '{.sextant/settings.json,.claude/settings.json,.claude/settings.local.json}'),
    );
    const on = () => void reloadWorkspace();
    o.context.subscriptions.push(watcher, watcher.onDidCreate(on), watcher.onDidChange(on), watcher.onDidDelete(on));
  }
  o.context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(() => post()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void reloadWorkspace()),
  );
  reloadUser();
  void reloadWorkspace();
  return {
    engine,
    settings,
    post,
    reloadUser,
    decide: async (hash, decision) => {
      if (!(await settings.decide(hash, decision === 'approve'))) post();
    },
  };
}
