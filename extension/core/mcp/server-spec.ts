// One configured server as the rest of the MCP code sees it: its name and scope, the configuration as
// written (what approval is bound to), its hash, and the same configuration with variables expanded
// (what is started). The hash covers the configuration as written, so any edit to the entry — command,
// an argument, an env value, the URL, a header — asks again.
import { createHash } from 'node:crypto';
import { isRemote, type McpInputSpec, type McpScope, type McpServerConfig } from './config';
import { expandVariables, variablesIn } from './expand';
import { expandVscodeVariables, vscodeVariablesIn, type VscodeVariableContext } from './vscode-variables';

/** Which file's variables a server's configuration uses: Claude Code's `${VAR}` or VS Code's `${env:VAR}`. */
export type McpDialect = 'claude' | 'vscode';

export interface McpServerSpec {
  name: string;
  scope: McpScope;
  config: McpServerConfig;
  configHash: string;
  /** Environment variables the configuration reads through `${…}`. */
  readsEnv: string[];
  /** `.vscode/mcp.json` servers: 'vscode' (`${input:…}`, `${workspaceFolder}`, `${env:…}`, envFile). */
  dialect: McpDialect;
  /** The prompted inputs the configuration references (their definitions; never their values). */
  inputs: McpInputSpec[];
  /** `${input:id}` references with no such input in the file: the server cannot start. */
  undefinedInputs: string[];
}

export type ResolvedServer =
  | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string; missing: string[] }
  | { kind: 'http' | 'sse'; url: string; headers: Record<string, string>; missing: string[] };

/** JSON with sorted keys, so the same configuration always hashes the same. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function configTexts(config: McpServerConfig): string[] {
  return isRemote(config)
    ? [config.url, ...Object.values(config.headers ?? {})]
    : [config.command, ...(config.args ?? []), ...Object.values(config.env ?? {}), config.cwd ?? ''];
}

/**
 * `vscode` (a `.vscode/mcp.json` server): the file's input definitions. The hash then also covers the
 * dialect and the definitions of the inputs it references (so a reworded prompt asks again) — never a value.
 */
export function serverSpec(
  name: string,
  scope: McpScope,
  config: McpServerConfig,
  vscode?: { inputs: Readonly<Record<string, McpInputSpec>> },
): McpServerSpec {
  const texts = configTexts(config);
  if (!vscode) {
    const readsEnv = [...new Set(texts.flatMap(variablesIn))].sort();
    const configHash = sha256(stableJson({ scope, config }));
    return { name, scope, config, configHash, readsEnv, dialect: 'claude', inputs: [], undefinedInputs: [] };
  }
  const read = texts.map(vscodeVariablesIn);
  const ids = [...new Set(read.flatMap((r) => r.inputs))].sort();
  const inputs = ids.filter((id) => Object.hasOwn(vscode.inputs, id)).map((id) => vscode.inputs[id]);
  const readsEnv = [...new Set(read.flatMap((r) => r.env))].sort();
  const configHash = sha256(stableJson({ scope, config, dialect: 'vscode', inputs }));
  const undefinedInputs = ids.filter((id) => !Object.hasOwn(vscode.inputs, id));
  return { name, scope, config, configHash, readsEnv, dialect: 'vscode', inputs, undefinedInputs };
}

/**
 * The configuration with its variables expanded, ready to start: `${VAR}` from `env` (Claude Code's
 * files), or VS Code's variables from `vscode` (a `.vscode/mcp.json` server; its input values included).
 */
export function resolveServer(
  spec: McpServerSpec,
  env: Readonly<Record<string, string | undefined>>,
  vscode?: Omit<VscodeVariableContext, 'env'>,
): ResolvedServer {
  const missing = new Set<string>();
  const x = (s: string) => {
    const e =
      spec.dialect === 'vscode' ? expandVscodeVariables(s, { inputs: {}, ...vscode, env }) : expandVariables(s, env);
    for (const m of e.missing) missing.add(m);
    return e.value;
  };
  const map = (m: Record<string, string> | undefined) =>
    Object.fromEntries(Object.entries(m ?? {}).map(([k, v]) => [k, x(v)]));
  const c = spec.config;
  if (isRemote(c)) {
    const kind = c.type === 'sse' ? 'sse' : 'http';
    return { kind, url: x(c.url), headers: map(c.headers), missing: [...missing] };
  }
  return {
    kind: 'stdio',
    command: x(c.command),
    args: (c.args ?? []).map(x),
    env: map(c.env),
    ...(c.cwd ? { cwd: x(c.cwd) } : {}),
    missing: [...missing],
  };
}

/** A shell-like rendering of a command line for the approval card (arguments with spaces quoted). */
export function commandLine(command: string, args: readonly string[]): string {
  const q = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  return [command, ...args].map(q).join(' ');
}
