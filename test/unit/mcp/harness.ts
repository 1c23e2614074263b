// Shared by the MCP tests: our stdio test server bundled once into a runnable file, an in-memory
// decision store, and a manager wired like the VS Code host (real SDK, real child processes).
import { mkdtempSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { McpManager, type McpManagerDeps } from '../../../extension/core/mcp/manager';
import { mcpClientModule } from '../../../extension/core/mcp/sdk-session';
import { spawnServer } from '../../../extension/core/mcp/spawn';
import { McpTrustStore, type KeyValueStore } from '../../../extension/core/mcp/trust-store';
import type { McpConfigSource, McpServerConfig, StdioServerConfig } from '../../../extension/core/mcp/config';
import { serverBaseEnvironment } from '../../../extension/core/mcp/base-env';
import { childEnvironment } from '../../../extension/core/security/child-env';
import { buildStdioServer } from '../../fixtures/mcp/build-server';

const root = process.cwd();
let built: Promise<string> | undefined;

/** test/fixtures/mcp/stdio-server-cli.ts bundled into dist-test (once per test process). */
export function stdioServerFile(): Promise<string> {
  built ??= (async () => {
    const outfile = await buildStdioServer(root, join(root, 'dist-test', `mcp-stdio-server-${process.pid}.cjs`));
    process.on('exit', () => rmSync(outfile, { force: true }));
    return outfile;
  })();
  return built;
}

export function memoryStore(): KeyValueStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: (k) => structuredClone(data.get(k)),
    update: async (k, v) => void data.set(k, structuredClone(v)),
  };
}

export function tempDir(prefix = 'mcp-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A stdio server entry running our test server, writing its markers to `markerDir`. */
export async function stdioServer(
  markerDir: string,
  extraEnv: Record<string, string> = {},
): Promise<StdioServerConfig> {
  return {
    command: process.execPath,
    args: [await stdioServerFile()],
    env: { MARKER_DIR: markerDir, NOTES_DIR: join(markerDir, 'notes'), ...extraEnv },
  };
}

export function source(servers: Record<string, McpServerConfig>): McpConfigSource {
  return { servers, problems: [] };
}
export const none: McpConfigSource = { servers: {}, problems: [] };

export interface TestManager {
  manager: McpManager;
  trust: { value: boolean };
  logs: string[];
  stores: { workspace: ReturnType<typeof memoryStore>; user: ReturnType<typeof memoryStore> };
}

export function createManager(over: Partial<McpManagerDeps> = {}, env: NodeJS.ProcessEnv = process.env): TestManager {
  const trust = { value: true };
  const logs: string[] = [];
  const stores = { workspace: memoryStore(), user: memoryStore() };
  const manager = new McpManager({
    loadClient: async () => mcpClientModule,
    spawn: spawnServer,
    decisions: { workspace: new McpTrustStore(stores.workspace), user: new McpTrustStore(stores.user) },
    trusted: () => trust.value,
    env: () => env,
    baseChildEnv: () => serverBaseEnvironment(childEnvironment(env, { apiKeyEnvNames: [] }).env),
    cwd: () => undefined,
    log: (server, line) => logs.push(`[${server}] ${line}`),
    ...over,
  });
  return { manager, trust, logs, stores };
}

export function started(markerDir: string): Array<{ pid: number; env: string[] }> {
  const f = join(markerDir, 'started');
  if (!existsSync(f)) return [];
  return readFileSync(f, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { pid: number; env: string[] });
}

/** Waits for a state (polling), never for a fixed time. */
export async function until(pred: () => boolean, what = 'condition'): Promise<void> {
  for (let i = 0; i < 3000 && !pred(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(pred(), `timed out waiting for ${what}`);
}

/** The hashes the approval card of `server` shows now: what the webview sends back with an answer. */
export function shown(manager: McpManager, server: string): { configHash: string; toolsHash?: string } {
  const approval = manager.views().find((v) => v.name === server)?.approval;
  assert.ok(approval, `${server} shows an approval card`);
  return {
    configHash: approval.configHash,
    ...(approval.toolsHash !== undefined && { toolsHash: approval.toolsHash }),
  };
}
