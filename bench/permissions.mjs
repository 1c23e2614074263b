// Bundles bench/lib/permissions.ts (TypeScript; the case table comes from test/fixtures) and runs
// it. Prints decision times per tool call (median, p99, max); asserts nothing.
// Usage: node bench/permissions.mjs   (PERMISSIONS_ITERATIONS=… to change the 2,000 rounds)
import { bundleForNode } from '../scripts/bundle-node.mjs';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, 'dist-test', `bench-permissions-${process.pid}.cjs`);
await bundleForNode({ entry: join(root, 'bench/lib/permissions.ts'), outfile: out });
const r = spawnSync(process.execPath, [out], { cwd: root, stdio: 'inherit' });
rmSync(out, { force: true });
process.exit(r.status ?? 1);
