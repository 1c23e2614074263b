import type { Plugin } from 'esbuild';

/** sql.js's glue with the allocation hook; throws, naming the place, when the glue is not the one expected. */
export function patchSqlJsGlue(source: string): string;
/** esbuild plugin: `sql.js` bundled from its Node build with the hook in. */
export function sqlJsFileBytesPlugin(): Plugin;
