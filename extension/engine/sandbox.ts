// The box for an engine: the backend (extension/platform/sandbox) fed from the user's sandbox settings
// and the workspace folders, its proxy's connections written to the audit log, and its state logged
// once. The host says how the edge prompt's "Allow this host / folder" is remembered (VS Code: user
// settings; the command line: never — nothing asks there).
import { homedir } from 'node:os';
import type { PermissionGate } from '../core/agent/permission-gate';
import type { Logger } from '../core/ports';
import type { BoxRefusal } from '../core/sandbox/types';
import type { SandboxSettingsRead } from '../core/sandbox/settings';
import type { AuditEntry } from '../core/security/audit-log';
import { createSandbox, type SandboxHost } from '../platform/sandbox/create-sandbox';
import { realPath } from './permissions';

export interface SandboxDeps {
  log: Logger;
  /** sextant.sandbox.mode and .network.allowedHosts (user settings only). */
  settings(): SandboxSettingsRead;
  /** The policy holds the validated sextant.sandbox.extraWriteRoots (one source for file tools and the box). */
  gate: PermissionGate;
  workspaceFolders(): string[];
  audit(entry: AuditEntry): void;
  /** "Allow this host / folder": remembered in the user's own list; absent: nothing is widened. */
  widen?(refusal: BoxRefusal): Promise<void>;
}

export function createEngineSandbox(deps: SandboxDeps): SandboxHost {
  let reported = '';
  let statusLogged = false;
  const settings = () => {
    const s = deps.settings();
    const problems = s.problems.join('\n');
    if (problems && problems !== reported) for (const p of s.problems) deps.log.warn(`sandbox: ${p}`);
    reported = problems;
    return {
      mode: s.mode,
      allowedHosts: s.allowedHosts,
      extraWriteRoots: deps.gate.policy().extraWriteRoots,
      required: s.required,
    };
  };
  const sandbox = createSandbox({
    settings,
    workspaceFolders: () => deps.workspaceFolders().map(realPath),
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
    widen: async (refusal) => deps.widen?.(refusal),
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
  };
}
