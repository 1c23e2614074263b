// Bundles bench/lib/long-run.ts and runs it: a 300-step agent run with an instant model through the
// real controller, the real session store and the view's reducer; prints the harness's own time per
// step at the start and at the end, and the request body size. Asserts nothing.
// Usage: node bench/long-run.mjs   (LONG_RUN_STEPS=300; LONG_RUN_PROFILE=1 writes a CPU profile)
import { bundleForNode } from '../scripts/bundle-node.mjs';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, 'dist-test', `bench-long-run-${process.pid}.cjs`);
await bundleForNode({ entry: join(root, 'bench/lib/long-run.ts'), outfile: out });
const prof = process.env.LONG_RUN_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=test-results/profiles'] : [];
const r = spawnSync(process.execPath, [...prof, out], { cwd: root, stdio: 'inherit' });
rmSync(out, { force: true });
process.exit(r.status ?? 1);
