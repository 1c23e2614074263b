// The session store's code bundled for a benchmark process (Node, CommonJS): the store, sql.js's loader
// and the ranked session search, built into dist-bench/<name>.cjs. `build: false` only loads what an
// earlier call built (a benchmark's child processes).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForNode } from '../../scripts/bundle-node.mjs';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

export async function storeBenchModule(name, { build = true } = {}) {
  const outfile = join(root, 'dist-bench', `${name}.cjs`);
  if (build)
    await bundleForNode({
      stdin: {
        contents: [
          "export * from './extension/core/store';",
          "export { loadSqlJs } from './extension/core/store/sqljs';",
          "export { searchSessions } from './extension/core/store/session-search';",
          "export { SEGMENT_FORMAT } from './extension/core/store/cold-index';",
        ].join('\n'),
        resolveDir: root,
        loader: 'ts',
      },
      outfile,
    });
  return { outfile, module: createRequire(import.meta.url)(outfile) };
}
