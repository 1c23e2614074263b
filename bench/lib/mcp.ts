// MCP overhead: the added time per tool call of Sextant's path (registry prepare → permission decision
// → registry execute: session check, approved-hash check, result conversion, redaction) over calling
// the SDK client directly, both against the same stdio test server; and the time from configuration to
// the first tool list for a stdio server (spawn, initialize, tools/list), ours and the SDK's alone.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { homedir, tmpdir } from 'node:os';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { McpManager } from '../../extension/core/mcp/manager';
import { mcpClientModule } from '../../extension/core/mcp/sdk-session';
import type { McpClientModule } from '../../extension/core/mcp/session-port';
import { spawnServer } from '../../extension/core/mcp/spawn';
import { McpTrustStore, type KeyValueStore } from '../../extension/core/mcp/trust-store';
import { createPolicy, decide } from '../../extension/core/permissions';
import { createToolRegistry } from '../../extension/core/tools/registry';
import type { ToolContext } from '../../extension/core/tools/types';
import { buildStdioServer } from '../../test/fixtures/mcp/build-server';

let SERVER = '';
const CALLS = Number(process.env.MCP_BENCH_CALLS ?? 500);
const STARTS = Number(process.env.MCP_BENCH_STARTS ?? 10);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
const ms = (x: number) => `${x.toFixed(3)} ms`;

function memory(): KeyValueStore {
  const data = new Map<string, unknown>();
  return { get: (k) => data.get(k), update: async (k, v) => void data.set(k, v) };
}

/** The time spent inside the SDK's callTool on our path, to separate our work from the round trip. */
let innerMs = 0;
const timedClient: McpClientModule = {
  connect: async (options) => {
    const session = await mcpClientModule.connect(options);
    const call = session.callTool.bind(session);
    session.callTool = async (...args) => {
      const t = performance.now();
      try {
        return await call(...args);
      } finally {
        innerMs = performance.now() - t;
      }
    };
    return session;
  },
};

function manager(dir: string): McpManager {
  const m = new McpManager({
    loadClient: async () => timedClient,
    spawn: spawnServer,
    decisions: { workspace: new McpTrustStore(memory()), user: new McpTrustStore(memory()) },
    trusted: () => true,
    env: () => process.env,
    baseChildEnv: () => ({ PATH: process.env.PATH ?? '' }),
    cwd: () => undefined,
    log: () => undefined,
  });
  m.setSources({
    workspace: { servers: {}, problems: [] },
    user: { servers: { bench: { command: process.execPath, args: [SERVER], env: { MARKER_DIR: dir } } }, problems: [] },
  });
  return m;
}

async function sdkClient(): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [SERVER],
      env: { PATH: process.env.PATH ?? '' },
      stderr: 'ignore',
    }),
  );
  return client;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-bench-'));
  SERVER = await buildStdioServer(process.cwd(), join(dir, 'server.cjs'));
  // Time to first tool list.
  const ours: number[] = [];
  const direct: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    let t = performance.now();
    const m = manager(dir);
    await m.prepare();
    if (!m.tools('agent').length) throw new Error('no tools listed');
    ours.push(performance.now() - t);
    await m.dispose();
    t = performance.now();
    const c = await sdkClient();
    await c.listTools();
    direct.push(performance.now() - t);
    await c.close();
  }
  console.log(`stdio server, configuration → first tool list (${STARTS} starts):`);
  console.log(`  Sextant (manager.prepare)   median ${ms(median(ours))}   p90 ${ms(p90(ours))}`);
  console.log(`  SDK alone (connect + list)  median ${ms(median(direct))}   p90 ${ms(p90(direct))}`);

  // Per call.
  const m = manager(dir);
  await m.prepare();
  const registry = createToolRegistry(m.tools('agent'));
  const policy = createPolicy({ user: {}, workspaceFolders: ['/ws'], home: homedir(), tools: [] });
  const ctx = {
    signal: new AbortController().signal,
    progress: () => undefined,
    supportsImages: false,
    ports: { redact: (s: string) => s, log: { info() {}, warn() {}, error() {} } },
  } as unknown as ToolContext;
  const client = await sdkClient();
  const oursCall: number[] = [];
  const directCall: number[] = [];
  const added: number[] = [];
  for (let i = 0; i < CALLS + 20; i++) {
    const args = { text: `hello ${i}` };
    let t = performance.now();
    await client.callTool({ name: 'echo', arguments: args });
    const d = performance.now() - t;
    t = performance.now();
    const prepared = registry.prepare({ id: `c${i}`, name: 'mcp__bench__echo', argumentsJson: JSON.stringify(args) });
    if (!prepared.ok) throw new Error(prepared.error);
    decide({ tool: prepared.tool.name, kind: prepared.tool.kind, input: args }, policy);
    const r = await registry.execute(prepared, ctx);
    const o = performance.now() - t;
    if (r.isError) throw new Error(String(r.forModel));
    if (i >= 20) {
      directCall.push(d);
      oursCall.push(o);
      added.push(o - innerMs);
    }
  }
  console.log(`tool call echo (${CALLS} calls, interleaved, after 20 warm-up):`);
  console.log(`  SDK client directly         median ${ms(median(directCall))}   p90 ${ms(p90(directCall))}`);
  console.log(`  through Sextant's path      median ${ms(median(oursCall))}   p90 ${ms(p90(oursCall))}`);
  console.log(`  difference of the medians   ${ms(median(oursCall) - median(directCall))}`);
  console.log(
    `  added per call (our path minus the SDK call inside it)  median ${ms(median(added))}   ` +
      `p90 ${ms(p90(added))}   (goal ≤ 2 ms)`,
  );
  await client.close();
  await m.dispose();
}

void main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
