// Which servers this window has: the workspace's `.mcp.json`, the enabled plugins' servers and the user's
// `sextant.mcp.servers`, merged. A name in both is the user's (their own setting wins over a file the
// repository ships). A plugin's server is approved as a workspace server is (in this workspace, bound to
// a hash), and its hash also covers the plugin's installed files: an update that changes them asks again.
//
// `.vscode/mcp.json` (VS Code's format) adds workspace servers under the same trust as `.mcp.json`.
//
// Two servers whose tools would share a name prefix are refused, both of them: a rule such as
// `mcp__github__*` written for one would also cover the other, so neither may start until one is renamed.
import type { McpConfigSource } from './config';
import { serverSpec, sha256, type McpServerSpec } from './server-spec';
import { mcpServerPrefix, serverNameClashes } from './tool-name';

export interface ServerSources {
  workspace: McpConfigSource;
  /** The workspace's `.vscode/mcp.json` (VS Code's format): workspace servers too, the same trust. */
  vscode?: McpConfigSource;
  user: McpConfigSource;
  /** The enabled plugins' servers (`plugin_<plugin>_<server>`), each with its plugin's digest. */
  plugins?: McpConfigSource & { digests: Record<string, string> };
}

/** The servers that may exist, by name, and the problems to show (both sources' and the merge's). */
export function mergeServerSources(sources: ServerSources): { specs: Map<string, McpServerSpec>; problems: string[] } {
  const problems = [
    ...sources.user.problems,
    ...sources.workspace.problems,
    ...(sources.vscode?.problems ?? []),
    ...(sources.plugins?.problems ?? []),
  ];
  const specs = new Map<string, McpServerSpec>();
  // `.vscode/mcp.json` first, so a name also in `.mcp.json` is the latter's (and said).
  const vscode = sources.vscode;
  for (const [name, config] of Object.entries(vscode?.servers ?? {}))
    specs.set(name, serverSpec(name, 'workspace', config, { inputs: vscode?.inputs ?? {} }));
  for (const name of Object.keys(sources.workspace.servers))
    if (specs.has(name))
      problems.push(`MCP server "${name}" is in both .mcp.json and .vscode/mcp.json: the .mcp.json one is used.`);
  for (const [name, config] of Object.entries(sources.workspace.servers))
    specs.set(name, serverSpec(name, 'workspace', config));
  for (const [name, config] of Object.entries(sources.plugins?.servers ?? {})) {
    if (specs.has(name)) {
      problems.push(`MCP server "${name}" is in .mcp.json and in a plugin: the workspace's is used.`);
      continue;
    }
    const spec = serverSpec(name, 'workspace', config);
    specs.set(name, { ...spec, configHash: sha256(`${spec.configHash}:${sources.plugins?.digests[name] ?? ''}`) });
  }
  for (const [name, config] of Object.entries(sources.user.servers)) {
    if (specs.has(name))
      problems.push(`MCP server "${name}" is in both .mcp.json and sextant.mcp.servers: your setting is used.`);
    specs.set(name, serverSpec(name, 'user', config));
  }
  for (const group of serverNameClashes(specs.keys())) {
    problems.push(
      `MCP servers ${group.map((n) => `"${n}"`).join(' and ')} would give their tools the same names ` +
        `(${mcpServerPrefix(group[0])}…), so a rule for one would cover the other: neither is started. ` +
        'Rename one of them.',
    );
    for (const name of group) specs.delete(name);
  }
  return { specs, problems };
}
