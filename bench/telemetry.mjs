// Bundles bench/lib/telemetry.ts (TypeScript, uses the test fixtures) and runs it. Prints figures.
import { bundleForNode } from '../scripts/bundle-node.mjs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, 'dist-test', `bench-telemetry-${process.pid}.cjs`);
await bundleForNode({ entry: join(root, 'bench/lib/telemetry.ts'), outfile: out });
const r = spawnSync(process.execPath, [out], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
