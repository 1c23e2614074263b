// Builds the production bundles (dist/cli.js minified, as npm ships it), bundles bench/lib/cli.ts and
// runs it. Prints figures.
import { bundleForNode } from '../scripts/bundle-node.mjs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
if (spawnSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: root, stdio: 'inherit' }).status !== 0)
  process.exit(1);
const out = join(root, 'dist-test', `bench-cli-${process.pid}.cjs`);
await bundleForNode({ entry: join(root, 'bench/lib/cli.ts'), outfile: out });
const r = spawnSync(process.execPath, [out, join(root, 'dist', 'cli.js')], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
