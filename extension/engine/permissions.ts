// Permissions for an engine: builds the policy from the user's settings, the workspace's
// `.sextant/settings.json` (which may only tighten) and the folders' real paths; rebuilds it when told
// that any of them changed; remembers "Always allow" rules where the host keeps the user's settings;
// and keeps the audit log (owner-only). The extension (extension/vscode/permission-host.ts) and the
// command line (extension/cli) hand it their folders, settings and where rules are remembered.
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import type { PermissionGate } from '../core/agent/permission-gate';
import { createPolicy, type Policy } from '../core/permissions';
import { declaredToolFacts } from '../core/tools/registry';
import { commandShell } from '../core/tools/util/command-shell';
import type { PermissionSettings } from '../core/permissions/types';
import type { Logger } from '../core/ports';
import { AuditLog, type AuditEntry } from '../core/security/audit-log';
import { createLiveRedactor } from '../core/security/redact';

export interface UserPermissionSettings extends PermissionSettings {
  extraWriteRoots?: readonly unknown[];
}

export interface PermissionsDeps {
  /** Where the audit log lives: `<auditDir>/audit.jsonl`. */
  auditDir: string;
  log: Logger;
  /** sextant.permissions.* and sandbox.extraWriteRoots, from user settings only. */
  userSettings(): UserPermissionSettings;
  /** The workspace file's permissions, if it has any (already validated). */
  workspaceSettings(): PermissionSettings | undefined;
  /** The workspace folders (absolute paths). */
  workspaceFolders(): string[];
  /** Exact secret values (API keys) the audit log must never contain. */
  secrets: ReadonlySet<string>;
  /** "Always allow": the rule added to the user's own allow list; absent: the host cannot remember one. */
  rememberRule?(rule: string): Promise<void>;
  /** Some rules were not used (each is in the log): told once per distinct set. */
  onProblems?(): void;
}

export interface Permissions {
  gate: PermissionGate;
  audit(entry: AuditEntry): void;
  /** Settings, the workspace file or the folders changed: the policy is rebuilt for the next tool call. */
  invalidate(): void;
  /**
   * The same policy for a session whose workspace is other folders (a worktree session): relative rules,
   * the workspace's bounds and a folder tool's default path are those folders. Rebuilt with the window's.
   */
  rootedAt(folders: string[]): PermissionGate;
  /** The audit log's file. */
  readonly auditFile: string;
}

export function createPermissions(deps: PermissionsDeps): Permissions {
  let policy: Policy | undefined;
  /** Policies of sessions rooted elsewhere (worktrees), by their folders; dropped with `policy`. */
  const rooted = new Map<string, Policy>();
  let reported = '';
  const build = (folders = deps.workspaceFolders()): Policy => {
    const user = deps.userSettings();
    const built = createPolicy({
      user,
      workspace: deps.workspaceSettings(),
      workspaceFolders: folders.map(realPath),
      home: realPath(homedir()),
      extraWriteRoots: user.extraWriteRoots,
      tools: declaredToolFacts(),
      commandShell: commandShell().kind,
    });
    // Each distinct set of problems is logged once, not on every call.
    const problems = built.problems.map((p) => `${p.source} ${p.list} "${p.rule}": ${p.message}`).join('\n');
    if (problems && problems !== reported) {
      for (const line of problems.split('\n')) deps.log.warn(`permissions: ${line}`);
      deps.onProblems?.();
    }
    reported = problems;
    return built;
  };
  const auditFile = path.join(deps.auditDir, 'audit.jsonl');
  // Rebuilt only when the known key values change, not for every string of every entry.
  const auditLog = new AuditLog({ file: auditFile, redact: createLiveRedactor(() => deps.secrets) });
  const gate: PermissionGate = {
    policy: () => {
      policy ??= build();
      return policy;
    },
    rememberRule: async (rule) => {
      if (!deps.rememberRule) return;
      await deps.rememberRule(rule);
      policy = undefined;
      rooted.clear();
    },
  };
  return {
    auditFile,
    gate,
    audit: (entry) => {
      if (!auditLog.append(entry)) deps.log.warn(`audit log: could not write to ${auditFile}`);
    },
    invalidate: () => {
      policy = undefined;
      rooted.clear();
    },
    rootedAt: (folders) => ({
      policy: () => {
        const key = folders.join('\0');
        const p = rooted.get(key) ?? build(folders);
        rooted.set(key, p);
        return p;
      },
      rememberRule: gate.rememberRule,
    }),
  };
}

/** The real path of a folder (symlinks resolved), else the path as given. */
export function realPath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
