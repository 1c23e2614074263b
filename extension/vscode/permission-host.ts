// The VS Code side of permissions: the engine's policy and audit log (extension/engine/permissions.ts)
// fed from the user's settings and the window's folders; "Always allow" rules saved into user settings
// where the user sees them; and "Sextant: Show Audit Log" opening the log.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PermissionGate } from '../core/agent/permission-gate';
import type { PermissionSettings } from '../core/permissions/types';
import type { PermissionMode } from '../protocol';
import type { Logger } from '../core/ports';
import type { AuditEntry } from '../core/security/audit-log';
import { createPermissions, type UserPermissionSettings } from '../engine/permissions';

export type { UserPermissionSettings } from '../engine/permissions';

export interface PermissionHostDeps {
  globalStorage: string;
  log: Logger;
  /** sextant.permissions.* and sandbox.extraWriteRoots, from user settings only. */
  userSettings(): UserPermissionSettings;
  /** The workspace file's permissions, if it has any (already validated). */
  workspaceSettings(): PermissionSettings | undefined;
  /** Exact secret values (API keys) the audit log must never contain. */
  secrets: ReadonlySet<string>;
}

export interface PermissionHost extends vscode.Disposable {
  gate: PermissionGate;
  audit(entry: AuditEntry): void;
  /** Settings, the workspace file or the folders changed: the policy is rebuilt for the next tool call. */
  invalidate(): void;
  /** The header's "Permission mode": sextant.permissions.defaultMode in the user's settings. */
  setDefaultMode(mode: PermissionMode): Promise<void>;
  /** The policy for a session rooted in other folders (a worktree session). */
  rootedAt(folders: string[]): PermissionGate;
  showAuditLog(): Promise<void>;
}

export function createPermissionHost(deps: PermissionHostDeps): PermissionHost {
  const permissions = createPermissions({
    auditDir: path.join(deps.globalStorage, 'audit'),
    log: deps.log,
    userSettings: deps.userSettings,
    workspaceSettings: deps.workspaceSettings,
    workspaceFolders: () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
    secrets: deps.secrets,
    rememberRule: async (rule) => {
      const config = vscode.workspace.getConfiguration('sextant');
      const current = config.inspect<unknown[]>('permissions.allow')?.globalValue ?? [];
      if (current.includes(rule)) return;
      await config.update('permissions.allow', [...current, rule], vscode.ConfigurationTarget.Global);
      deps.log.info(`permissions: "Always allow" added ${rule} to sextant.permissions.allow (user settings)`);
    },
    onProblems: () =>
      void vscode.window.showWarningMessage(
        'Sextant: some permission settings were not used — see the Sextant output for which and why.',
      ),
  });
  const subscription = vscode.workspace.onDidChangeWorkspaceFolders(() => permissions.invalidate());
  return {
    gate: permissions.gate,
    audit: permissions.audit,
    invalidate: permissions.invalidate,
    setDefaultMode: async (mode) => {
      const config = vscode.workspace.getConfiguration('sextant');
      await config.update('permissions.defaultMode', mode, vscode.ConfigurationTarget.Global);
      deps.log.info(`permissions: the header set sextant.permissions.defaultMode to ${mode} (user settings)`);
      // Now, not when the change event arrives: the snapshot that follows shows the mode in force.
      permissions.invalidate();
    },
    rootedAt: permissions.rootedAt,
    showAuditLog: async () => {
      try {
        const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(permissions.auditFile));
        await vscode.window.showTextDocument(doc, { preview: true });
      } catch {
        void vscode.window.showInformationMessage(
          'Sextant: the audit log is empty — no tool has run yet. Every tool call is recorded there with ' +
            'its decision, status and duration.',
        );
      }
    },
    dispose: () => subscription.dispose(),
  };
}
