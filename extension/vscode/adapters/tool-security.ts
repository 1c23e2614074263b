// Wires core/security/tool-security.ts to VS Code: the key variables of the configured providers
// and of memory embeddings, `sextant.agent.passEnv` from user settings, the stored key values.
import * as vscode from 'vscode';
import type { ProviderConfig } from '../../core/providers/types';
import { createToolSecurity, type ToolSecurityPorts } from '../../core/security/tool-security';

export interface ToolSecurityOptions {
  /** The configured providers (their `apiKeyEnv` variables never reach a command). */
  configs: () => ProviderConfig[];
  /** Other variables holding keys Sextant uses (the memory embeddings' `apiKeyEnv`). */
  extraKeyEnvNames: () => Array<string | undefined>;
  /** The exact key values Sextant holds (KeyDirectory.secretValues(): a live set). */
  secrets: () => Iterable<string>;
}

/**
 * `sextant.agent.passEnv`, from user settings only: a workspace's .vscode/settings.json must not be
 * able to hand the user's keys to the commands an agent runs in it.
 */
export function passEnvSetting(): string[] {
  const raw = vscode.workspace.getConfiguration('sextant').inspect<unknown>('agent.passEnv')?.globalValue;
  return Array.isArray(raw) ? raw.filter((n): n is string => typeof n === 'string' && n.trim() !== '') : [];
}

export function toolSecurityPorts(o: ToolSecurityOptions): ToolSecurityPorts {
  return createToolSecurity({
    env: process.env,
    apiKeyEnvNames: () => [...o.configs().map((c) => c.apiKeyEnv), ...o.extraKeyEnvNames()],
    passThrough: passEnvSetting,
    secrets: o.secrets,
  });
}
