// One configured server as the rest of the MCP code sees it: its name and scope, the configuration as
// written (what approval is bound to), its hash, and the same configuration with variables expanded
// (what is started). The hash covers the configuration as written, so any edit to the entry — command,
// an argument, an env value, the URL, a header — asks again.
import { createHash } from 'node:crypto';
import { isRemote, type McpScope, type McpServerConfig } from './config';
import { expandVariables, variablesIn } from './expand';

export interface McpServerSpec {
  name: string;
  scope: McpScope;
  config: McpServerConfig;
  configHash: string;
  /** Environment variables the configuration reads through `${…}`. */
  readsEnv: string[];
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

export function serverSpec(name: string, scope: McpScope, config: McpServerConfig): McpServerSpec {
  const texts = isRemote(config)
    ? [config.url, ...Object.values(config.headers ?? {})]
    : [config.command, ...(config.args ?? []), ...Object.values(config.env ?? {}), config.cwd ?? ''];
  const readsEnv = [...new Set(texts.flatMap(variablesIn))].sort();
  return { name, scope, config, configHash: sha256(stableJson({ scope, config })), readsEnv };
}

/** The configuration with `${VAR}` expanded from `env`, ready to start. */
export function resolveServer(spec: McpServerSpec, env: Readonly<Record<string, string | undefined>>): ResolvedServer {
  const missing = new Set<string>();
  const x = (s: string) => {
    const e = expandVariables(s, env);
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
