// Bundles bench/lib/run-later.ts (TypeScript) and runs it. Prints what watching the files that run later
// adds to each boxed command (before + after, nothing changed) in a realistic workspace; asserts nothing.
// Usage: node bench/run-later.mjs   (RUN_LATER_ROUNDS=… to change the 50 rounds)
import { bundleForNode } from '../scripts/bundle-node.mjs';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, 'dist-test', `bench-run-later-${process.pid}.cjs`);
await bundleForNode({ entry: join(root, 'bench/lib/run-later.ts'), outfile: out });
const r = spawnSync(process.execPath, [out], { cwd: root, stdio: 'inherit' });
rmSync(out, { force: true });
process.exit(r.status ?? 1);
