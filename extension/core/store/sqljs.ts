// Loads sql.js lazily: the wasm module costs ~1 MB and a few ms to compile, so the extension pays
// for it only when the store is first opened, not at activation.
import { readFile } from 'node:fs/promises';
import type { Database, SqlJsStatic } from 'sql.js';
import { fileBytes } from './file-bytes';

export type { Database, SqlJsStatic };

/**
 * Instantiates sql.js from a wasm file on disk. In the extension the wasm sits at
 * `dist/sql-wasm.wasm` (copied by esbuild.mjs); tests pass `node_modules/sql.js/dist/sql-wasm.wasm`.
 */
export async function loadSqlJs(wasmPath: string): Promise<SqlJsStatic> {
  const wasm = await readFile(wasmPath);
  const mod = (await import('sql.js')) as unknown as { default?: unknown };
  const init = (typeof mod.default === 'function' ? mod.default : mod) as (cfg: {
    wasmBinary: ArrayBuffer;
    allocFileBytes: (n: number) => Uint8Array;
  }) => Promise<SqlJsStatic>;
  const binary = wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer;
  // The glue's hook (scripts/sqljs-file-bytes.mjs, applied by every build): database-sized buffers
  // outside malloc.
  return init({ wasmBinary: binary, allocFileBytes: fileBytes });
}

/** Rows of a query as plain objects (column name → value). */
export function queryAll(
  db: Database,
  sql: string,
  params: Array<string | number | null | Uint8Array> = [],
): Array<Record<string, unknown>> {
  const stmt = db.prepare(sql);
  try {
    stmt.bind(params);
    const rows: Array<Record<string, unknown>> = [];
    while (stmt.step()) rows.push(stmt.getAsObject() as Record<string, unknown>);
    return rows;
  } finally {
    stmt.free();
  }
}

export function queryOne(
  db: Database,
  sql: string,
  params: Array<string | number | null | Uint8Array> = [],
): Record<string, unknown> | undefined {
  return queryAll(db, sql, params)[0];
}
