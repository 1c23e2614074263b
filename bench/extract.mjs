// Bundles research-html.js as the VSIX ships it (minified) and bench/lib/extract.ts, then prints the
// longest event-loop stall while the largest corpus page is converted on the host thread vs in the
// worker thread. Usage: node bench/extract.mjs
import { bundleForNode } from '../scripts/bundle-node.mjs';
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostEntries, hostOptions } from '../esbuild.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dir = join(root, 'dist-test', `bench-extract-${process.pid}`);
mkdirSync(dir, { recursive: true });
await esbuild.build({
  ...hostOptions,
  entryPoints: { 'research-html': hostEntries['research-html'] },
  outdir: dir,
  minify: true,
  sourcemap: false,
});
const out = join(dir, 'bench.cjs');
await bundleForNode({ entry: join(root, 'bench/lib/extract.ts'), outfile: out });
const r = spawnSync(process.execPath, [out, join(dir, 'research-html.js')], { cwd: root, stdio: 'inherit' });
rmSync(dir, { recursive: true, force: true });
process.exit(r.status ?? 1);
