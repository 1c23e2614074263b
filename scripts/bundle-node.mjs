// Build tooling shared by tests, benchmarks and helper processes.
import * as esbuild from 'esbuild';

/**
 * Bundles TypeScript for Node (CommonJS; packages stay external and load from node_modules) — the
 * one recipe for tests, benchmarks and helper processes. Pass `entryPoints`+`outdir`, or an
 * `entry`/`stdin` with an `outfile`; other esbuild options pass through.
 */
export function bundleForNode({ entry, ...options }) {
  return esbuild.build({
    ...(entry ? { entryPoints: [entry] } : {}),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    loader: { '.md': 'text' },
    logLevel: 'warning',
    ...options,
  });
}
