// `${CLAUDE_PLUGIN_ROOT}` (and `$CLAUDE_PLUGIN_ROOT`): the installed plugin's folder, as Claude Code
// expands it in hook commands and in MCP servers' command, args, env, cwd, url and headers. A hook command
// is a shell line, so there the folder is quoted for where it stands (a clone under a path with spaces
// must still run); a server's fields are single words, so there it is put as is.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, lstatSync } from 'node:fs';
import * as path from 'node:path';
import type { McpServerConfig } from '../mcp/config';

const VARIABLE = /\$\{CLAUDE_PLUGIN_ROOT\}|\$CLAUDE_PLUGIN_ROOT\b/g;

/** In a value that is not a shell line. */
export function expandRoot(text: string, root: string): string {
  return text.replace(VARIABLE, () => root);
}

/** In a shell line: inside "…" the folder is escaped for double quotes; elsewhere it is single-quoted. */
export function expandRootInShell(command: string, root: string): string {
  let out = '';
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < command.length; ) {
    const rest = command.slice(i);
    const m = quote === "'" ? null : /^(\$\{CLAUDE_PLUGIN_ROOT\}|\$CLAUDE_PLUGIN_ROOT\b)/.exec(rest);
    if (m) {
      out += quote === '"' ? root.replace(/(["\\$`])/g, '\\$1') : `'${root.replace(/'/g, `'\\''`)}'`;
      i += m[0].length;
      continue;
    }
    const ch = command[i];
    if (ch === '\\' && quote !== "'") {
      out += command.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (!quote && (ch === '"' || ch === "'")) quote = ch;
    else if (quote === ch) quote = undefined;
    out += ch;
    i++;
  }
  return out;
}

export function expandServerRoot(config: McpServerConfig, root: string): McpServerConfig {
  const x = (s: string) => expandRoot(s, root);
  const map = (m: Record<string, string> | undefined) =>
    m && Object.fromEntries(Object.entries(m).map(([k, v]) => [k, x(v)]));
  if ('url' in config)
    return { ...config, url: x(config.url), ...(config.headers ? { headers: map(config.headers) } : {}) };
  return {
    ...config,
    command: x(config.command),
    ...(config.args ? { args: config.args.map(x) } : {}),
    ...(config.env ? { env: map(config.env) } : {}),
    // A plugin's server runs in its own folder unless it says otherwise (its relative paths are its own).
    cwd: config.cwd ? x(config.cwd) : root,
  };
}

const MAX_FILES = 20_000;

/**
 * The content of the whole installed plugin, as one digest: its hooks' and servers' approvals are bound
 * to it, so any change an update brings (a script a hook runs, a server's code) asks again.
 */
export function pluginDigest(root: string): string {
  const hash = createHash('sha256');
  let count = 0;
  const walk = (dir: string, rel: string) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (name === '.git' || ++count > MAX_FILES) continue;
      const abs = path.join(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(abs);
      if (st.isDirectory()) walk(abs, r);
      else if (st.isFile()) hash.update(`${r}\0${createHash('sha256').update(readFileSync(abs)).digest('hex')}\n`);
      else if (st.isSymbolicLink()) hash.update(`${r}\0link\n`);
    }
  };
  walk(root, '');
  return hash.digest('hex');
}
