// What one installed plugin folder brings, read as Claude Code reads it: the manifest
// (`.claude-plugin/plugin.json`), the default folders `commands/`, `agents/`, `skills/`, the hooks of
// `hooks/hooks.json` and the servers of `.mcp.json`, plus the paths (or inline configurations) the
// manifest names. A manifest that cannot be read loads NOTHING of the plugin (its problem names the
// line and column); inside a readable plugin, a broken hooks or servers file is reported and the rest
// loads — as the workspace's own files are read.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { type HookCommand, hooksFromValue } from '../extensions/hooks/config';
import { lineColumn, offsetNear, parseJsonc } from '../config/jsonc';
import { type McpServerConfig, readServers, SERVER_NAME } from '../mcp/config';
import { authorName, MANIFEST_PATH, parseManifest, pathList, type PluginManifest } from './manifest';
import { expandRootInShell, expandServerRoot, pluginDigest } from './plugin-root';

export interface PluginParts {
  name: string;
  version?: string;
  description?: string;
  author?: string;
  root: string;
  /** Folders (or single `.md` files) of slash commands, each named `/plugin:command`. */
  commands: string[];
  /** Folders (or single `.md` files) of sub-agent definitions. */
  agents: string[];
  /** Folders whose subfolders are skills (a SKILL.md each). */
  skills: string[];
  /** `${CLAUDE_PLUGIN_ROOT}` expanded; each carries the plugin's digest (its approval is bound to it). */
  hooks: HookCommand[];
  /** By the name the MCP code knows them: `plugin_<plugin>_<server>` (Claude Code's tool names). */
  servers: Record<string, McpServerConfig>;
  counts: { commands: number; agents: number; skills: number; hooks: number; servers: number };
  /** What was left out, each naming its file (and line:column). */
  problems: string[];
  digest: string;
}

export type PluginLoad = { ok: true; plugin: PluginParts } | { ok: false; problem: string };

/** `plugin_<plugin>_<server>`: the server name Claude Code gives a plugin's server in its tool names. */
export function pluginServerName(plugin: string, server: string): string {
  return `plugin_${plugin}_${server}`.replace(/[^A-Za-z0-9_.-]/g, '_');
}

const readText = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};
const isDir = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/**
 * Loads a plugin folder. `entry`: its marketplace entry, whose fields stand for a plugin.json the plugin
 * does not have (Claude Code's `strict: false`); without either, the folder's name is the plugin's.
 */
export function loadPluginParts(root: string, entry?: PluginManifest): PluginLoad {
  const manifestFile = path.join(root, MANIFEST_PATH);
  const text = readText(manifestFile);
  let manifest: PluginManifest;
  const shown = `${path.basename(root)}/${MANIFEST_PATH}`;
  if (text !== undefined) {
    const read = parseManifest(text, shown);
    if (!read.ok) return { ok: false, problem: `${read.problem}; nothing of this plugin was loaded.` };
    manifest = read.value;
  } else if (entry) manifest = entry;
  else manifest = { name: path.basename(root) };
  const problems: string[] = [];
  const name = manifest.name;
  const digest = pluginDigest(root);
  const within = (rel: string) => path.join(root, rel);
  const withDefault = (dflt: string, extra: string | string[] | undefined) =>
    [...(isDir(within(dflt)) ? [within(dflt)] : []), ...pathList(extra).map(within)].filter((p, i, all) => {
      if (!existsSync(p)) problems.push(`${shown}: "${path.relative(root, p)}" does not exist; ignored.`);
      return existsSync(p) && all.indexOf(p) === i;
    });
  const commands = withDefault('commands', manifest.commands);
  const agents = withDefault('agents', manifest.agents);
  const skills = withDefault('skills', manifest.skills);
  const hooks = readHooks(root, name, manifest.hooks, digest, problems);
  const servers = readPluginServers(root, name, manifest.mcpServers, problems);
  const author = authorName(manifest.author);
  return {
    ok: true,
    plugin: {
      name,
      ...(manifest.version ? { version: manifest.version } : {}),
      ...(manifest.description ? { description: manifest.description } : {}),
      ...(author ? { author } : {}),
      root,
      commands,
      agents,
      skills,
      hooks,
      servers,
      counts: {
        commands: commands.reduce((n, p) => n + countMarkdown(p), 0),
        agents: agents.reduce((n, p) => n + countMarkdown(p), 0),
        skills: skills.reduce((n, p) => n + countSkills(p), 0),
        hooks: hooks.length,
        servers: Object.keys(servers).length,
      },
      problems,
      digest,
    },
  };
}

/** The default `hooks/hooks.json`, then what the manifest's `hooks` names or holds. */
function readHooks(
  root: string,
  plugin: string,
  declared: PluginManifest['hooks'],
  digest: string,
  problems: string[],
): HookCommand[] {
  const out: HookCommand[] = [];
  const add = (value: unknown, source: string, where: (p: ReadonlyArray<PropertyKey>) => string) => {
    // A hooks file is `{"description"?, "hooks": {…}}`; inline in plugin.json the events map itself.
    const obj = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
    const inner = 'hooks' in obj ? obj.hooks : value;
    const prefix = 'hooks' in obj ? ['hooks'] : [];
    const read = hooksFromValue(inner, source, 'workspace', (p) => where([...prefix, ...p]));
    problems.push(...read.problems);
    for (const h of read.hooks)
      out.push({ ...h, command: expandRootInShell(h.command, root), pluginDigest: digest, plugin });
  };
  const files = [
    ...(existsSync(path.join(root, 'hooks/hooks.json')) ? ['./hooks/hooks.json'] : []),
    ...(typeof declared === 'string' || Array.isArray(declared) ? pathList(declared) : []),
  ].filter((f, i, all) => all.indexOf(f) === i);
  for (const rel of files) {
    const shown = `${plugin}/${rel.replace(/^\.\//, '')}`;
    const source = `plugin ${plugin} (${rel.replace(/^\.\//, '')})`;
    const json = readJson(path.join(root, rel), shown, problems);
    if (json) add(json.value, source, json.where);
  }
  if (declared && typeof declared === 'object' && !Array.isArray(declared))
    add(declared, `plugin ${plugin} (plugin.json)`, () => `${plugin}/${MANIFEST_PATH} "hooks"`);
  return out;
}

/** The default `.mcp.json`, then what the manifest's `mcpServers` names or holds; renamed for the plugin. */
function readPluginServers(
  root: string,
  plugin: string,
  declared: PluginManifest['mcpServers'],
  problems: string[],
): Record<string, McpServerConfig> {
  const out: Record<string, McpServerConfig> = {};
  const add = (value: unknown, where: (p: ReadonlyArray<PropertyKey>) => string) => {
    const obj = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
    const entries = (obj.mcpServers && typeof obj.mcpServers === 'object' ? obj.mcpServers : obj) as Record<
      string,
      unknown
    >;
    // readServers names places from "mcpServers"; a file of bare servers has no such key.
    const bare = !('mcpServers' in obj);
    const read = readServers(entries, (p) => where(bare ? p.slice(1) : p));
    problems.push(...read.problems);
    for (const [server, config] of Object.entries(read.servers)) {
      const name = pluginServerName(plugin, server);
      if (!SERVER_NAME.test(name)) {
        problems.push(`${plugin}: the server name "${name}" is longer than 64 characters; it was left out.`);
        continue;
      }
      out[name] = expandServerRoot(config, root);
    }
  };
  const files = [
    ...(existsSync(path.join(root, '.mcp.json')) ? ['./.mcp.json'] : []),
    ...(typeof declared === 'string' || Array.isArray(declared) ? pathList(declared) : []),
  ].filter((f, i, all) => all.indexOf(f) === i);
  for (const rel of files) {
    const json = readJson(path.join(root, rel), `${plugin}/${rel.replace(/^\.\//, '')}`, problems);
    if (json) add(json.value, json.where);
  }
  if (declared && typeof declared === 'object' && !Array.isArray(declared))
    add({ mcpServers: declared }, () => `${plugin}/${MANIFEST_PATH} "mcpServers"`);
  return out;
}

/** A JSON file with a `where(path)` that names a value's line and column; a broken file is a problem. */
function readJson(file: string, shown: string, problems: string[]) {
  const text = readText(file);
  if (text === undefined) {
    problems.push(`${shown}: not found; ignored.`);
    return undefined;
  }
  const parsed = parseJsonc(text);
  const at = (offset: number) => {
    const { line, column } = lineColumn(text, offset);
    return `${shown}:${line}:${column}`;
  };
  if (!parsed.ok) {
    problems.push(`${at(parsed.offset)}: not valid JSON (${parsed.message}); nothing of this file was used.`);
    return undefined;
  }
  return { value: parsed.value, where: (p: ReadonlyArray<PropertyKey>) => at(offsetNear(parsed.offsetOf, p)) };
}

function countMarkdown(p: string, depth = 0): number {
  if (!isDir(p)) return p.endsWith('.md') ? 1 : 0;
  if (depth > 4) return 0;
  return readdirSync(p).reduce((n, e) => n + countMarkdown(path.join(p, e), depth + 1), 0);
}

function countSkills(dir: string): number {
  return readdirSync(dir).filter((e) => existsSync(path.join(dir, e, 'SKILL.md'))).length;
}
