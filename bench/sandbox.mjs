// Bundles bench/lib/sandbox.ts (TypeScript) and runs it with real bubblewrap.
// Prints the time a boxed command adds and the proxy throughput; asserts nothing.
// Usage: node bench/sandbox.mjs   (SANDBOX_ROUNDS=… to change the 30 rounds)
import { bundleForNode } from '../scripts/bundle-node.mjs';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, 'dist-test', `bench-sandbox-${process.pid}.cjs`);
await bundleForNode({ entry: join(root, 'bench/lib/sandbox.ts'), outfile: out });
const r = spawnSync(process.execPath, [out], { cwd: root, stdio: 'inherit' });
rmSync(out, { force: true });
process.exit(r.status ?? 1);
