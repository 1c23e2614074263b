// The two guards the tools get through their ports: the environment of every process the agent
// starts (no keys: child-env.ts) and the redactor every tool result passes (redact.ts). The host
// supplies where the names and values come from; see extension/vscode/adapters/tool-security.ts.
import type { ToolPorts } from '../ports';
import { childEnvironment } from './child-env';
import { createLiveRedactor } from './redact';

export interface ToolSecuritySources {
  /** The host's environment (process.env). */
  env: Readonly<Record<string, string | undefined>>;
  /** Variables Sextant reads keys from: the providers' `apiKeyEnv`, the embeddings' `apiKeyEnv`. */
  apiKeyEnvNames: () => Iterable<string | undefined>;
  /** Names the user lets through anyway (`sextant.agent.passEnv`, user settings only). */
  passThrough: () => Iterable<string>;
  /** The exact key values Sextant holds; read at every call, so a live set stays current. */
  secrets: () => Iterable<string>;
}

export type ToolSecurityPorts = Required<Pick<ToolPorts, 'childEnv' | 'redact'>>;

export function createToolSecurity(s: ToolSecuritySources): ToolSecurityPorts {
  return {
    childEnv: () =>
      childEnvironment(s.env, {
        apiKeyEnvNames: [...s.apiKeyEnvNames()].filter((n): n is string => typeof n === 'string' && n !== ''),
        passThrough: s.passThrough(),
      }).env,
    // Tool output is often code: `password = …` reaches the model as written; key shapes and the
    // exact key values do not.
    redact: createLiveRedactor(s.secrets, { assignments: false }),
  };
}
