// What an MCP server is started with: its configuration expanded in its file's dialect (Claude Code's
// `${VAR}`, or VS Code's `${workspaceFolder}` / `${input:…}` with the inputs asked once and kept in
// SecretStorage), a `.vscode/mcp.json` server's `envFile`, and an environment built over a base without
// the host's keys. A missing input or an unreadable envFile refuses the start (StartRefused: no retry
// that would ask the user again and again).
import * as path from 'node:path';
import { isRemote } from './config';
import { parseEnvFile } from './env-file';
import type { McpManagerDeps } from './manager';
import { StartRefused } from './server-connection';
import { resolveServer, type McpServerSpec, type ResolvedServer } from './server-spec';
import { expandVscodeVariables } from './vscode-variables';

type LaunchDeps = Pick<McpManagerDeps, 'env' | 'baseChildEnv' | 'cwd' | 'inputs' | 'readEnvFile' | 'home'>;

export async function resolveLaunch(spec: McpServerSpec, deps: LaunchDeps): Promise<ResolvedServer> {
  const vscode = spec.dialect === 'vscode' ? await vscodeContext(spec, deps) : undefined;
  const r = resolveServer(spec, deps.env(), vscode);
  if (r.kind !== 'stdio') return r;
  const fromFile = await envFile(spec, deps);
  // Only what the configuration names, over a base without the host's keys (`env` wins over envFile).
  const cwd = r.cwd ?? deps.cwd();
  return { ...r, env: { ...deps.baseChildEnv(), ...fromFile, ...r.env }, ...(cwd ? { cwd } : {}) };
}

/** `${input:…}` values (asked once, kept in SecretStorage), workspace folder, home; refused if one is missing. */
async function vscodeContext(spec: McpServerSpec, deps: LaunchDeps) {
  if (spec.undefinedInputs.length)
    throw new StartRefused(`.vscode/mcp.json has no input ${spec.undefinedInputs.map((i) => `"${i}"`).join(', ')}`);
  const inputs: Record<string, string> = {};
  for (const input of spec.inputs) {
    const value = await deps.inputs?.value(input);
    if (!value) throw new StartRefused(`the input "${input.id}" (${input.description}) was not given`);
    inputs[input.id] = value;
  }
  const workspaceFolder = deps.cwd();
  const userHome = deps.home?.();
  return { inputs, ...(workspaceFolder ? { workspaceFolder } : {}), ...(userHome ? { userHome } : {}) };
}

async function envFile(spec: McpServerSpec, deps: LaunchDeps): Promise<Record<string, string>> {
  const c = spec.config;
  if (isRemote(c) || !c.envFile || spec.dialect !== 'vscode') return {};
  const folder = deps.cwd();
  const named = expandVscodeVariables(c.envFile, {
    env: {},
    inputs: {},
    ...(folder ? { workspaceFolder: folder } : {}),
  });
  const file = folder ? path.resolve(folder, named.value) : named.value;
  if (!deps.readEnvFile || !path.isAbsolute(file)) throw new StartRefused(`envFile ${c.envFile} cannot be read here`);
  try {
    return parseEnvFile(await deps.readEnvFile(file));
  } catch (err) {
    throw new StartRefused(`envFile ${c.envFile}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
