// `~/.sextant/config.json`: the user's API keys and the workspaces whose own MCP servers and hooks may
// run. Owner-only (0600) like an SSH key: a file others can read is refused with the command that fixes
// it, never used. Keys are never taken on the command line (they would land in shell history and `ps`).
//   { "keys": { "openai": "sk-…", "exa": "…" }, "trustedWorkspaces": ["/home/me/project"] }
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { secretKeyName } from '../core/providers/keys';
import { searchKeySecretName } from '../core/web/search/keys';
import type { SecretsPort } from '../core/ports';

export interface UserConfig {
  /** Provider name (or search provider id) → key. */
  keys: Record<string, string>;
  trustedWorkspaces: string[];
}

export class ConfigError extends Error {}

export function readUserConfig(file: string): UserConfig {
  let text: string;
  try {
    const st = statSync(file);
    if (process.platform !== 'win32' && (st.mode & 0o077) !== 0)
      throw new ConfigError(`${file} can be read by other users; run: chmod 600 '${file}'`);
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { keys: {}, trustedWorkspaces: [] };
    throw new ConfigError(`${file} could not be read: ${(err as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    // The parser's message may quote the file (a key): say only where.
    throw new ConfigError(`${file} is not valid JSON`);
  }
  const r = (raw && typeof raw === 'object' ? raw : {}) as { keys?: unknown; trustedWorkspaces?: unknown };
  const keys: Record<string, string> = {};
  if (r.keys && typeof r.keys === 'object')
    for (const [k, v] of Object.entries(r.keys)) if (typeof v === 'string' && v.trim()) keys[k] = v.trim();
  const trusted = Array.isArray(r.trustedWorkspaces)
    ? r.trustedWorkspaces.filter((w): w is string => typeof w === 'string' && path.isAbsolute(w))
    : [];
  return { keys, trustedWorkspaces: trusted };
}

/** The engine's secret store over the config file: read-only (the command line sets no keys). */
export function configSecrets(config: UserConfig): SecretsPort {
  // Provider keys (`sextant.apiKey.<provider>`) and search keys (`sextant.searchApiKey.<id>`) by short name.
  const prefixes = [secretKeyName(''), searchKeySecretName('' as Parameters<typeof searchKeySecretName>[0])];
  const short = (name: string) => {
    const p = prefixes.find((x) => name.startsWith(x));
    return p ? name.slice(p.length) : name;
  };
  return {
    get: async (name) => config.keys[short(name)],
    set: async () => {
      throw new Error('the command line does not store keys: edit ~/.sextant/config.json');
    },
    delete: async () => {
      throw new Error('the command line does not remove keys: edit ~/.sextant/config.json');
    },
  };
}

/** Whether the user's config trusts this folder (or one it is inside). */
export function trustsWorkspace(config: UserConfig, folder: string): boolean {
  return config.trustedWorkspaces.some((w) => {
    const rel = path.relative(path.resolve(w), folder);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  });
}
