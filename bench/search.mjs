// Bundles bench/lib/search.ts (the fake search APIs come from test/fixtures) and runs it. Prints the
// search client's cost per search; asserts nothing. Usage: node bench/search.mjs (SEARCH_ITERATIONS=…)
import { bundleForNode } from '../scripts/bundle-node.mjs';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, 'dist-test', `bench-search-${process.pid}.cjs`);
await bundleForNode({ entry: join(root, 'bench/lib/search.ts'), outfile: out });
const r = spawnSync(process.execPath, [out], { cwd: root, stdio: 'inherit' });
rmSync(out, { force: true });
process.exit(r.status ?? 1);
