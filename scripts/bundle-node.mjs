// Build tooling shared by tests, benchmarks and helper processes.
import * as esbuild from 'esbuild';
import { sqlJsFileBytesPlugin } from './sqljs-file-bytes.mjs';
import { esmOnlyPackagesPlugin } from './esm-only-packages.mjs';

/**
 * Bundles TypeScript for Node (CommonJS; packages stay external and load from node_modules, except
 * sql.js, bundled with the extension's patch, and the ESM-only packages of esm-only-packages.mjs) — the
 * one recipe for tests, benchmarks and helper processes. Pass `entryPoints`+`outdir`, or an `entry`/`stdin`
 * with an `outfile`; other esbuild options pass through.
 */
export function bundleForNode({ entry, plugins = [], ...options }) {
  return esbuild.build({
    ...(entry ? { entryPoints: [entry] } : {}),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    loader: { '.md': 'text' },
    logLevel: 'warning',
    // sql.js is the one package bundled: with its allocation hook, as in the extension (see the plugin).
    plugins: [sqlJsFileBytesPlugin(), esmOnlyPackagesPlugin(), ...plugins],
    ...options,
  });
}
