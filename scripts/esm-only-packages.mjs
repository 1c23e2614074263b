// Packages that ship ESM only (an "exports" map with no "require" condition) cannot be require()d by
// the CommonJS bundles tests and benchmarks run (Node 20), so the one recipe (bundle-node.mjs) bundles
// them, with what they import, instead of leaving them external: beautiful-mermaid, the Mermaid renderer.
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const ESM_ONLY = ['beautiful-mermaid'];

/** An esbuild plugin resolving each ESM-only package, and the packages it imports, to files to bundle. */
export function esmOnlyPackagesPlugin(root) {
  // Their "exports" map hides package.json too; the folder is where npm puts it (its real path: the
  // importers esbuild reports are real paths, node_modules may be a link).
  const dirs = ESM_ONLY.map((name) => realpathSync(join(root, 'node_modules', name)));
  return {
    name: 'esm-only-packages',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        const pkg = ESM_ONLY.indexOf(args.path);
        if (pkg >= 0) return { path: join(dirs[pkg], 'dist/index.js') };
        // What the package imports, resolved from its own folder (its own dependency versions).
        if (dirs.some((d) => args.importer.startsWith(`${d}/`)))
          return { path: createRequire(args.importer).resolve(args.path) };
        return undefined;
      });
    },
  };
}
