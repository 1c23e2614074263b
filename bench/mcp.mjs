// Bundles bench/lib/mcp.ts (which builds our stdio MCP test server, test/fixtures/mcp) and runs the MCP bench:
// added time per tool call over the SDK client alone, and time to the first tool list. Prints figures.
// Usage: node bench/mcp.mjs   (MCP_BENCH_CALLS, MCP_BENCH_STARTS to change the counts)
import { bundleForNode } from '../scripts/bundle-node.mjs';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, 'dist-test', `bench-mcp-${process.pid}.cjs`);
await bundleForNode({ entry: join(root, 'bench/lib/mcp.ts'), outfile: out });
const r = spawnSync(process.execPath, [out], {
  cwd: root,
  stdio: 'inherit',
});
rmSync(out, { force: true });
process.exit(r.status ?? 1);
