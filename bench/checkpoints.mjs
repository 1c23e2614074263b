// Bundles bench/lib/checkpoints.ts and runs it: checkpoint cost per turn (beforeWrite for each
// touched file + finish) and rewind time (plan + apply) for 1, 10 and 100 files of 10 KB, with the
// file-system blob store on a temp dir. Prints median and p95; asserts nothing.
// Usage: node bench/checkpoints.mjs   (CHECKPOINT_ROUNDS=… turns per size, CHECKPOINT_FILES=1,10,100)
import { bundleForNode } from '../scripts/bundle-node.mjs';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, 'dist-test', `bench-checkpoints-${process.pid}.cjs`);
await bundleForNode({ entry: join(root, 'bench/lib/checkpoints.ts'), outfile: out });
const r = spawnSync(process.execPath, [out], { cwd: root, stdio: 'inherit' });
rmSync(out, { force: true });
process.exit(r.status ?? 1);
