// Bundles bench/lib/browser.ts and runs the browser tools' bench: time to the first snapshot of a local
// page with a cold and a warm browser, snapshot and screenshot times, the browser's RSS while idle.
// Usage: node bench/browser.mjs   (BROWSER_BENCH_COLD, BROWSER_BENCH_WARM to change the counts)
import { bundleForNode } from '../scripts/bundle-node.mjs';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, 'dist-test', `bench-browser-${process.pid}.cjs`);
await bundleForNode({ entry: join(root, 'bench/lib/browser.ts'), outfile: out });
const r = spawnSync(process.execPath, [out], { cwd: root, stdio: 'inherit' });
rmSync(out, { force: true });
process.exit(r.status ?? 1);
