// The production webview bundle and the page that hosts it, built once for a webview benchmark:
// returns `openBenchPage(outdir)` (headless Chromium with the real HTML shell and CSP) and the folder.
import * as esbuild from 'esbuild';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { webviewOptions } from '../../esbuild.mjs';
import { bundleForNode } from '../../scripts/bundle-node.mjs';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

export async function buildBenchWebview() {
  const outdir = join(root, 'dist-test', 'bench-webview');
  await esbuild.build({
    ...webviewOptions,
    outdir,
    minify: true,
    sourcemap: false,
    define: { 'process.env.SEXTANT_PRODUCTION': '"1"' },
  });
  await bundleForNode({ entry: join(root, 'bench/lib/webview-page.ts'), outfile: join(outdir, 'webview-page.cjs') });
  const require = createRequire(import.meta.url);
  const { openBenchPage } = require(join(outdir, 'webview-page.cjs'));
  return { outdir, openBenchPage };
}
