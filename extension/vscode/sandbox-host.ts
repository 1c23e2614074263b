// The VS Code side of the sandbox: the engine's box (extension/engine/sandbox.ts) fed from user settings
// and the window's folders, the edge prompt's "Allow this host / folder" written into user settings,
// and the view told when the state changes.
import * as vscode from 'vscode';
import type { Logger } from '../core/ports';
import { DEFAULT_ALLOWED_HOSTS } from '../core/sandbox/allowed-hosts';
import type { BoxRefusal } from '../core/sandbox/types';
import type { AuditEntry } from '../core/security/audit-log';
import type { PermissionGate } from '../core/agent/permission-gate';
import type { SandboxHost } from '../platform/sandbox/create-sandbox';
import { createEngineSandbox } from '../engine/sandbox';
import { readSandboxSettings } from './settings';

export interface SandboxHostDeps {
  log: Logger;
  /** The policy holds the validated sextant.sandbox.extraWriteRoots (one source for file tools and the box). */
  gate: PermissionGate;
  audit(entry: AuditEntry): void;
  /** The sandbox's state changed (settings): send the view a fresh snapshot. */
  changed(): void;
}

export function createSandboxHost(deps: SandboxHostDeps): SandboxHost & vscode.Disposable {
  const sandbox = createEngineSandbox({
    log: deps.log,
    settings: readSandboxSettings,
    gate: deps.gate,
    workspaceFolders: () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
    audit: deps.audit,
    widen: (refusal) => widen(refusal, deps.log),
  });
  const subscription = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('sextant.sandbox')) deps.changed();
  });
  return {
    ...sandbox,
    dispose: () => {
      subscription.dispose();
      sandbox.dispose();
    },
  };
}

/** "Allow this host / folder": one entry added to the user's own list, where they can see and remove it. */
async function widen(refusal: BoxRefusal, log: Logger): Promise<void> {
  const w = refusal.widen;
  if (!w) return;
  const config = vscode.workspace.getConfiguration('sextant');
  const inspected = config.inspect<unknown[]>(w.setting);
  const current =
    inspected?.globalValue ?? (w.setting === 'sandbox.network.allowedHosts' ? [...DEFAULT_ALLOWED_HOSTS] : []);
  if (current.includes(w.value)) return;
  await config.update(w.setting, [...current, w.value], vscode.ConfigurationTarget.Global);
  log.info(`sandbox: added ${w.value} to sextant.${w.setting} (user settings)`);
}
