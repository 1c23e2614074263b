// The VS Code side of the sandbox: the backend (extension/platform/sandbox) fed from user settings
// and the workspace folders, its proxy's connections written to the audit log, the edge prompt's
// "Allow this host / folder" written into user settings, and the view told when the state changes.
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import type { Logger } from '../core/ports';
import { DEFAULT_ALLOWED_HOSTS } from '../core/sandbox/allowed-hosts';
import type { BoxRefusal } from '../core/sandbox/types';
import type { AuditEntry } from '../core/security/audit-log';
import type { PermissionGate } from '../core/agent/permission-gate';
import { createSandbox, type SandboxHost } from '../platform/sandbox/create-sandbox';
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
  let reported = '';
  let statusLogged = false;
  const settings = () => {
    const s = readSandboxSettings();
    const problems = s.problems.join('\n');
    if (problems && problems !== reported) for (const p of s.problems) deps.log.warn(`sandbox: ${p}`);
    reported = problems;
    return { mode: s.mode, allowedHosts: s.allowedHosts, extraWriteRoots: deps.gate.policy().extraWriteRoots };
  };
  const sandbox = createSandbox({
    settings,
    workspaceFolders: () => (vscode.workspace.workspaceFolders ?? []).map((f) => realPath(f.uri.fsPath)),
    home: realPath(homedir()),
    onConnection: (c, who) =>
      deps.audit({
        sessionId: who.sessionId,
        callId: who.callId,
        tool: 'bash',
        decision: c.allowed ? 'allow' : 'deny',
        decidedBy: 'rule',
        rule: c.allowed ? `sextant.sandbox.network.allowedHosts: ${c.rule}` : c.rule,
        status: c.allowed ? 'ok' : 'denied',
        durationMs: 0,
        args: { sandboxConnection: `${c.host}:${c.port}` },
      }),
    widen: (refusal) => widen(refusal, deps.log),
  });
  const subscription = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('sextant.sandbox')) deps.changed();
  });
  return {
    ...sandbox,
    status: () => {
      const s = sandbox.status();
      if (!statusLogged) {
        statusLogged = true;
        deps.log.info(
          s.backend
            ? `sandbox: ${s.backend} works here; mode ${s.mode}`
            : `sandbox: none works here (${s.reason}); fix: ${s.fix}. Commands ask unless your own rule allows them.`,
        );
      }
      return s;
    },
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

function realPath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
