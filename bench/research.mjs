// Bundles bench/lib/research.ts and runs it: a research run against fake servers with 200 ms per
// search and fetch — wall time next to the critical path — and the share of citations verified.
// Usage: node bench/research.mjs   (RESEARCH_LATENCY_MS=… to change the latency)
import { bundleForNode } from '../scripts/bundle-node.mjs';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, 'dist-test', `bench-research-${process.pid}.cjs`);
await bundleForNode({ entry: join(root, 'bench/lib/research.ts'), outfile: out });
const r = spawnSync(process.execPath, [out], { cwd: root, stdio: 'inherit' });
rmSync(out, { force: true });
process.exit(r.status ?? 1);
