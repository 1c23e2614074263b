// Builds Sextant. Usage: node esbuild.mjs [--production] [--watch]
//
// The extension host code is split into several bundles so activation loads almost nothing:
//   dist/extension.js          activate(): registers the view, commands, and nothing heavy
//   dist/runtime.js            the session controller, tools, store (loaded when the chat is used)
//   dist/provider-openai.js    the `openai` SDK and our adapter (loaded on the first request)
//   dist/provider-anthropic.js the `@anthropic-ai/sdk` and our adapter
//   dist/telemetry-otel.js     the OpenTelemetry SDK and exporters (only when the user turns the export on)
//   dist/research-html.js      linkedom + Readability + turndown: HTML → Markdown for web_fetch and
//                              research, run in a worker thread (html-worker.ts / html-worker-client.ts)
//   dist/browser-driver/lib/browser.js  playwright-core + the browser backend (first browser tool call)
//   dist/mermaid-draw.js       beautiful-mermaid + elkjs: draws Mermaid diagrams for HTML/PDF exports
//                              (required on the first such export; the view has its own chunk of it)
//   dist/cli.js                the `sextant` command's launcher (extension/cli/bin.ts), which loads
//   dist/cli-main.js           the command: the same engine without VS Code; it loads the provider,
//                              worker and MCP bundles above from dist/ like the runtime does. Neither
//                              enters the VSIX (.vscodeignore)
// The webview is one browser bundle, dist/webview.js + dist/webview.css, plus chunks it imports on
// first use (dist/webview-chunks/: the syntax highlighter, KaTeX, the Mermaid renderer).
import * as esbuild from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sqlJsFileBytesPlugin } from './scripts/sqljs-file-bytes.mjs';
import { writeNotices } from './scripts/third-party-notices.mjs';

const root = dirname(fileURLToPath(import.meta.url));
const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  sourcemap: production ? 'linked' : 'inline',
  minify: production,
  logLevel: 'warning',
  loader: { '.md': 'text' },
  legalComments: 'none',
  define: { 'process.env.SEXTANT_PRODUCTION': JSON.stringify(production ? '1' : '0') },
};

/** Host bundles: Node (VS Code ≥ 1.95 ships Node 20), CommonJS, `vscode` provided by the host. */
export const hostEntries = {
  extension: 'extension/vscode/extension.ts',
  runtime: 'extension/vscode/runtime.ts',
  'provider-openai': 'extension/core/providers/openai.ts',
  'provider-anthropic': 'extension/core/providers/anthropic.ts',
  // Also the worker thread's script: the runtime converts pages in a worker running this file.
  'research-html': 'extension/core/web/fetch/html-worker.ts',
  // The worker thread that watches workspace folders for command coverage (started on the first command).
  'change-watcher': 'extension/platform/watch/change-watcher.ts',
  // The MCP SDK (@modelcontextprotocol/client), loaded on the first MCP server start.
  'mcp-client': 'extension/core/mcp/sdk-session.ts',
  // The OpenTelemetry SDK and its OTLP/HTTP exporters, loaded only when sextant.telemetry.otel.enabled is on.
  'telemetry-otel': 'extension/core/telemetry/otel/index.ts',
  // beautiful-mermaid and elkjs, required on the first HTML or PDF export that holds a diagram.
  'mermaid-draw': 'extension/core/store/mermaid-draw.ts',
  // playwright-core and our backend, loaded on the first browser tool call. It sits in a folder laid out
  // like the package (lib/ + package.json + browsers.json beside it, copied by copyRuntimeAssets),
  // because playwright-core finds those two files relative to its own code.
  'browser-driver/lib/browser': 'extension/platform/browser/playwright-backend.ts',
};

export const hostOptions = {
  ...common,
  entryPoints: Object.fromEntries(Object.entries(hostEntries).filter(([, f]) => existsSync(join(root, f)))),
  outdir: join(root, 'dist'),
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  // sql.js with its allocation hook for database-sized buffers (see the plugin's file).
  plugins: [sqlJsFileBytesPlugin()],
  // The SDKs ship ESM and CJS; prefer the CJS "main" so the bundle needs no interop shims.
  mainFields: ['main', 'module'],
  alias: {
    // turndown's Node build carries its own HTML parser (domino, ~230 KB) for string input; we always
    // hand it a linkedom element, so its browser build (which has none) does the same work.
    turndown: 'turndown/lib/turndown.browser.cjs.js',
    // linkedom parses a <style> element's CSS only when `.sheet` is read, which nothing here does.
    'cssomnom/parse': join(root, 'extension/core/web/fetch/no-style-sheets.ts'),
  },
};

/**
 * The command line, two files: dist/cli.js, the launcher (npm's `bin`, with the shebang), and
 * dist/cli-main.js, the command itself, which the launcher loads with its compiled code cached
 * (extension/cli/code-cache.ts). The host options without `vscode` as an external: a `vscode` import
 * anywhere in their graph fails the build.
 */
const cliCommon = {
  ...hostOptions,
  external: [],
  // The version `sextant --version` prints: importing package.json would bundle all of it.
  define: {
    ...common.define,
    SEXTANT_VERSION: JSON.stringify(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version),
  },
};
export const cliOptions = {
  ...cliCommon,
  entryPoints: { cli: 'extension/cli/bin.ts' },
  banner: { js: '#!/usr/bin/env node' },
};
export const cliMainOptions = { ...cliCommon, entryPoints: { 'cli-main': 'extension/cli/run.ts' } };

export const webviewOptions = {
  ...common,
  entryPoints: { webview: 'webview/main.ts' },
  outdir: join(root, 'dist'),
  platform: 'browser',
  format: 'esm',
  target: 'es2022',
  loader: { ...common.loader, '.css': 'css' },
  // import() of a part the first paint does not need (webview/highlight.ts) becomes its own chunk; the
  // module script's nonce carries over to the modules it imports, so the CSP lets it load.
  splitting: true,
  chunkNames: 'webview-chunks/[name]-[hash]',
};

function copyRuntimeAssets() {
  mkdirSync(join(root, 'dist'), { recursive: true });
  const wasm = join(root, 'node_modules/sql.js/dist/sql-wasm.wasm');
  if (existsSync(wasm)) copyFileSync(wasm, join(root, 'dist/sql-wasm.wasm'));
  const playwright = join(root, 'node_modules/playwright-core');
  if (existsSync(playwright)) {
    mkdirSync(join(root, 'dist/browser-driver'), { recursive: true });
    for (const f of ['package.json', 'browsers.json'])
      copyFileSync(join(playwright, f), join(root, 'dist/browser-driver', f));
  }
}

async function main() {
  const absWebview = existsSync(join(root, 'webview/main.ts'));
  const hasCli = existsSync(join(root, cliOptions.entryPoints.cli));
  const configs = [
    hostOptions,
    ...(hasCli ? [cliOptions, cliMainOptions] : []),
    ...(absWebview ? [webviewOptions] : []),
  ];
  copyRuntimeAssets();
  // Chunk names carry a content hash: drop the last build's, or old ones would pile up in the VSIX.
  if (absWebview) rmSync(join(root, 'dist/webview-chunks'), { recursive: true, force: true });
  if (watch) {
    for (const config of configs) {
      const ctx = await esbuild.context(config);
      await ctx.watch();
    }
    console.log('[sextant] watching for changes…');
    return;
  }
  const built = await Promise.all(configs.map((c) => esbuild.build({ ...c, metafile: true })));
  // The bundles carry no legal comments: the packages in them, their licences and sources are listed here.
  writeNotices(
    root,
    built.map((b) => b.metafile),
    join(root, 'dist/THIRD-PARTY-NOTICES.md'),
  );
  if (hasCli) {
    chmodSync(join(root, 'dist/cli.js'), 0o755);
    // The launcher reads an ASCII bundle as a one-byte string (no UTF-8 decoding, half the memory):
    // a non-ASCII character esbuild leaves as is (one in a regular expression) costs every cold start.
    // (Production only: a development build keeps comments, which may be anything.)
    const odd = production && readFileSync(join(root, 'dist/cli-main.js'), 'latin1').match(/[^\x00-\x7f]/g);
    if (odd) console.warn(`[sextant] dist/cli-main.js is not ASCII (${odd.length} bytes): write \\u escapes`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
