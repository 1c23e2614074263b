// sql.js keeps the database, and each snapshot export()s it, as JavaScript byte arrays of the database's
// size. On Linux, Node's byte arrays come from glibc's malloc, and freeing one of several megabytes (the
// read snapshot after open, the exported copy after each snapshot, the old buffer each time the database
// file grows) raises glibc's mmap and trim thresholds to that size for the whole process: from then on
// every arena, the compiler threads' included, keeps up to twice the database's size of freed memory
// resident. The window's RSS then grows with the database and varies by ±10 MB from run to run (measured
// by bench/memory.mjs; extension/core/store/README.md, "Database-sized buffers outside malloc").
//
// This patch gives sql.js's glue one allocation hook for a file's bytes, `Module.allocFileBytes(n)`,
// used where it creates a database-file-sized buffer: export()'s copy, and the in-memory file system's
// file contents (first write and growth). Sextant passes an allocator that places large ones outside
// malloc (extension/core/store/file-bytes.ts). The glue is minified and its names change between
// releases, so each replacement must match exactly once: a sql.js upgrade that moves them fails the
// build here, with the place named, instead of silently losing the hook (the version is pinned).

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const HOOK = 'Module.allocFileBytes';

/** [what it is, the exact text in sql.js 1.16.0's dist/sql-wasm.js, its replacement]. */
const REPLACEMENTS = [
  [
    "the Module's default allocator (plain bytes), set right after the glue takes its Module",
    "var Module = typeof moduleConfig !== 'undefined' ? moduleConfig : {};",
    "var Module = typeof moduleConfig !== 'undefined' ? moduleConfig : {};\n" +
      `        ${HOOK} = ${HOOK} || function (n) { return new Uint8Array(n); };`,
  ],
  [
    "export(): the buffer SQLite's backup API copies the database's pages into",
    'u=new Uint8Array(G[0].values[0][0]*G[1].values[0][0])',
    `u=${HOOK}(G[0].values[0][0]*G[1].values[0][0])`,
  ],
  [
    "the in-memory file system: a file's contents when it grows",
    'a.Ua=new Uint8Array(g),a.Ua.set(m)',
    `a.Ua=${HOOK}(g),a.Ua.set(m)`,
  ],
  [
    "the in-memory file system: a file's contents at its first write (new Database(bytes))",
    'else a.Ua=b.slice(d,d+c),a.Wa=c;',
    `else a.Ua=${HOOK}(c),a.Ua.set(b.subarray(d,d+c)),a.Wa=c;`,
  ],
  [
    "the in-memory file system: a file's contents when truncated or extended (ftruncate)",
    'a.Ua=new Uint8Array(b),a.Ua.set(d.subarray(0,Math.min(b,',
    `a.Ua=${HOOK}(b),a.Ua.set(d.subarray(0,Math.min(b,`,
  ],
];

/** sql.js's glue with the allocation hook; throws, naming the place, when the glue is not the one expected. */
export function patchSqlJsGlue(source) {
  let out = source;
  for (const [what, from, to] of REPLACEMENTS) {
    const count = out.split(from).length - 1;
    if (count !== 1)
      throw new Error(
        `sql.js's glue changed: ${what} was found ${count} times, expected once (${JSON.stringify(from)}). ` +
          'Update scripts/sqljs-file-bytes.mjs for this sql.js version.',
      );
    out = out.replace(from, () => to);
  }
  return out;
}

/**
 * esbuild plugin: `sql.js` is bundled from its Node build with the hook in, also where other packages
 * stay external (tests, benchmarks), so every build runs the same patched glue.
 */
export function sqlJsFileBytesPlugin() {
  return {
    name: 'sqljs-file-bytes',
    setup(build) {
      build.onResolve({ filter: /^sql\.js$/ }, (args) => ({
        path: createRequire(join(args.resolveDir || process.cwd(), 'index.js')).resolve('sql.js'),
      }));
      build.onLoad({ filter: /[\\/]sql\.js[\\/]dist[\\/]sql-wasm\.js$/ }, async (args) => ({
        contents: patchSqlJsGlue(await readFile(args.path, 'utf8')),
        loader: 'js',
      }));
    },
  };
}
