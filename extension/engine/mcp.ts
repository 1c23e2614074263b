// MCP for an engine: the manager (core/mcp/manager.ts) with the user's decisions kept in the host's
// state (workspace state for the workspace's servers, global state for the user's), stdio servers
// started in the same box as commands with the same scrubbed environment, and the SDK bundle loaded on
// the first server start (`mcp-client.js`). The extension adds its watchers, OAuth sign-in and cards
// (extension/vscode/mcp-host.ts); the command line reads `.mcp.json` once (extension/cli).
import { homedir } from 'node:os';
import * as path from 'node:path';
import type { Mode } from '../protocol';
import { boxedSpawner } from '../core/mcp/boxed-spawn';
import { parseUserServers, readMcpJson } from '../core/mcp/config';
import { localFiles } from '../core/local-files';
import { McpManager } from '../core/mcp/manager';
import { serverBaseEnvironment } from '../core/mcp/base-env';
import type { McpClientModule, Spawner } from '../core/mcp/session-port';
import { spawnServer } from '../core/mcp/spawn';
import { McpTrustStore } from '../core/mcp/trust-store';
import type { McpInputValues } from '../core/mcp/inputs';
import { readVscodeMcpJson } from '../core/mcp/vscode-mcp-json';
import { readRepositoryFile } from '../core/extensions/repository-file';
import type { ToolPorts } from '../core/ports';
import type { KeyValueState } from './state';

export interface McpManagerOptions {
  /** The folder `mcp-client.js` sits in. */
  bundleDir: string;
  workspaceState: KeyValueState;
  globalState: KeyValueState;
  trusted(): boolean;
  env: Readonly<Record<string, string | undefined>>;
  /** The tools' ports: the box stdio servers start in and the scrubbed environment. */
  ports(): Pick<ToolPorts, 'sandbox' | 'childEnv'>;
  /** The first workspace folder: where stdio servers run. */
  cwd(): string | undefined;
  log(server: string, line: string): void;
  /** How stdio servers start when not boxed (default: spawnServer). */
  spawn?: Spawner;
  /** An OAuth provider for a remote server, when the host offers sign-in. */
  authProviderFor?(server: string, url: string): unknown;
  /** `.vscode/mcp.json` inputs (SecretStorage, asked once); absent: servers that need one do not start. */
  inputs?: McpInputValues;
}

/** A `.vscode/mcp.json` envFile, through the safe reader: inside the workspace, not a key, not too large. */
async function readEnvFile(file: string, root: string | undefined): Promise<string> {
  if (!root) throw new Error('there is no workspace folder');
  const read = await readRepositoryFile(localFiles, file, { roots: [root], home: homedir() }, 256_000);
  if (read.kind === 'text') return read.text;
  throw new Error(read.kind === 'refused' ? read.reason : read.kind === 'missing' ? 'not found' : 'too large');
}

export function createMcpManager(o: McpManagerOptions): McpManager {
  return new McpManager({
    loadClient: async () =>
      (require(path.join(o.bundleDir, 'mcp-client.js')) as { mcpClientModule: McpClientModule }).mcpClientModule,
    // stdio servers start in the same box as commands (where a backend works and the box is on).
    spawn: boxedSpawner({ sandbox: () => o.ports().sandbox, unboxed: o.spawn ?? spawnServer, cwd: o.cwd }),
    decisions: { workspace: new McpTrustStore(o.workspaceState), user: new McpTrustStore(o.globalState) },
    trusted: o.trusted,
    env: () => o.env,
    // The keys' guards every process passes: commands and MCP stdio servers alike.
    baseChildEnv: () => serverBaseEnvironment(o.ports().childEnv?.() ?? {}),
    cwd: o.cwd,
    log: o.log,
    ...(o.authProviderFor ? { authProviderFor: o.authProviderFor } : {}),
    ...(o.inputs ? { inputs: o.inputs } : {}),
    readEnvFile: (file) => readEnvFile(file, o.cwd()),
    home: homedir,
  });
}

/** Reads the workspace's `.mcp.json` (through the safe reader) and the user's servers into the manager. */
export async function loadMcpSources(manager: McpManager, folder: string | undefined, userServers: unknown) {
  const none = { servers: {}, problems: [] };
  const workspace = folder ? await readMcpJson(localFiles, folder, homedir()) : none;
  const vscode = folder ? await readVscodeMcpJson(localFiles, folder, homedir()) : none;
  manager.setSources({ workspace, vscode, user: parseUserServers(userServers) });
  return manager.problems();
}

/** Starts the servers that may run (first use) and settles when they are ready, failed, or `signal` aborts. */
export async function prepareMcpTools(
  manager: McpManager,
  trusted: boolean,
  mode: Mode,
  signal: AbortSignal,
): Promise<void> {
  if (mode === 'research' || !trusted || signal.aborted) return;
  let onAbort!: () => void;
  const aborted = new Promise<void>((resolve) => {
    onAbort = resolve;
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([manager.prepare(), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
