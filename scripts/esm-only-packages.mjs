// Packages that ship ESM only (an "exports" map with no "require" condition) cannot be require()d by
// the CommonJS bundles tests and benchmarks run (Node 20), so the one recipe (bundle-node.mjs) bundles
// them, with what they import, instead of leaving them external: beautiful-mermaid, the Mermaid renderer.
import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const ESM_ONLY = ['beautiful-mermaid'];

/** The package's folder as Node would find it from `importer`: the nearest node_modules/<name> above it. */
function packageDir(name, importer) {
  for (let dir = dirname(importer); ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    // Its real path: the importers esbuild reports are real paths, node_modules may be a link.
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * An esbuild plugin resolving each ESM-only package, and the packages it imports, to files to bundle.
 * Their "exports" map hides package.json, so the folder is found the way npm lays it out, from the
 * importing file (no root to pass: this module is itself bundled into tests, where import.meta is not).
 */
export function esmOnlyPackagesPlugin() {
  const dirs = new Set();
  return {
    name: 'esm-only-packages',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (ESM_ONLY.includes(args.path)) {
          const dir = args.importer && packageDir(args.path, args.importer);
          if (!dir) return undefined;
          dirs.add(dir);
          return { path: join(dir, 'dist/index.js') };
        }
        // What the package imports, resolved from its own folder (its own dependency versions).
        if ([...dirs].some((d) => args.importer.startsWith(`${d}/`)))
          return { path: createRequire(args.importer).resolve(args.path) };
        return undefined;
      });
    },
  };
}
