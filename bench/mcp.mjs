// Bundles bench/lib/mcp.ts and our stdio MCP test server (test/fixtures/mcp) and runs the MCP bench:
// added time per tool call over the SDK client alone, and time to the first tool list. Prints figures.
// Usage: node bench/mcp.mjs   (MCP_BENCH_CALLS, MCP_BENCH_STARTS to change the counts)
import { bundleForNode } from '../scripts/bundle-node.mjs';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, 'dist-test', `bench-mcp-${process.pid}.cjs`);
const server = join(root, 'dist-test', `bench-mcp-server-${process.pid}.cjs`);
await bundleForNode({ entry: join(root, 'bench/lib/mcp.ts'), outfile: out });
await esbuild.build({
  entryPoints: [join(root, 'test/fixtures/mcp/stdio-server-cli.ts')],
  outfile: server,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
});
const r = spawnSync(process.execPath, [out], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, MCP_BENCH_SERVER: server },
});
rmSync(out, { force: true });
rmSync(server, { force: true });
process.exit(r.status ?? 1);
