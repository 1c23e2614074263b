// The VS Code side of permissions: builds the policy from the user's settings, the workspace's
// `.sextant/settings.json` (which may only tighten) and the folders' real paths; rebuilds it when
// any of them changes; saves "Always allow" rules into user settings where the user sees them;
// and keeps the audit log (owner-only, under global storage) that "Sextant: Show Audit Log" opens.
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PermissionGate } from '../core/agent/permission-gate';
import { createPolicy, type Policy } from '../core/permissions';
import type { PermissionSettings } from '../core/permissions/types';
import type { Logger } from '../core/ports';
import { AuditLog, type AuditEntry } from '../core/security/audit-log';
import { createLiveRedactor } from '../core/security/redact';

export interface UserPermissionSettings extends PermissionSettings {
  extraWriteRoots?: readonly unknown[];
}

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
  /** Forget the built policy (settings, the workspace file or folders changed). */
  /** Settings, the workspace file or the folders changed: the policy is rebuilt for the next tool call. */
  invalidate(): void;
  showAuditLog(): Promise<void>;
}

export function createPermissionHost(deps: PermissionHostDeps): PermissionHost {
  let policy: Policy | undefined;
  let reported = '';
  const build = (): Policy => {
    const user = deps.userSettings();
    const built = createPolicy({
      user,
      workspace: deps.workspaceSettings(),
      workspaceFolders: (vscode.workspace.workspaceFolders ?? []).map((f) => realPath(f.uri.fsPath)),
      home: realPath(homedir()),
      extraWriteRoots: user.extraWriteRoots,
    });
    // Each distinct set of problems is logged once, not on every call.
    const problems = built.problems.map((p) => `${p.source} ${p.list} "${p.rule}": ${p.message}`).join('\n');
    if (problems && problems !== reported) {
      for (const line of problems.split('\n')) deps.log.warn(`permissions: ${line}`);
      void vscode.window.showWarningMessage(
        'Sextant: some permission settings were not used — see the Sextant output for which and why.',
      );
    }
    reported = problems;
    return built;
  };
  const file = path.join(deps.globalStorage, 'audit', 'audit.jsonl');
  // Rebuilt only when the known key values change, not for every string of every entry.
  const log = new AuditLog({ file, redact: createLiveRedactor(() => deps.secrets) });
  const subscriptions = [
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      policy = undefined;
    }),
  ];
  return {
    gate: {
      policy: () => {
        policy ??= build();
        return policy;
      },
      rememberRule: async (rule) => {
        const config = vscode.workspace.getConfiguration('sextant');
        const current = config.inspect<unknown[]>('permissions.allow')?.globalValue ?? [];
        if (current.includes(rule)) return;
        await config.update('permissions.allow', [...current, rule], vscode.ConfigurationTarget.Global);
        policy = undefined;
        deps.log.info(`permissions: "Always allow" added ${rule} to sextant.permissions.allow (user settings)`);
      },
    },
    audit: (entry) => {
      if (!log.append(entry)) deps.log.warn(`audit log: could not write to ${file}`);
    },
    invalidate: () => {
      policy = undefined;
    },
    showAuditLog: async () => {
      try {
        const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
        await vscode.window.showTextDocument(doc, { preview: true });
      } catch {
        void vscode.window.showInformationMessage(
          'Sextant: the audit log is empty — no tool has run yet. Every tool call is recorded there with ' +
            'its decision, status and duration.',
        );
      }
    },
    dispose: () => {
      for (const s of subscriptions) s.dispose();
    },
  };
}

function realPath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
