// BM25 from FTS4's matchinfo: sql.js ships FTS4 but not FTS5, so there is no built-in bm25().
// Registered as a SQL function so ranking happens inside the query; export() drops custom
// functions, so the store calls registerFunctions() again after every snapshot.
import type { Database } from './sqljs';

const K1 = 1.2;
const B = 0.75;

/**
 * Scores one row from `matchinfo(table, 'pcnalx')` (32-bit little-endian words):
 * p phrases, c columns, n rows, a[c] average tokens, l[c] row tokens, x[3*p*c] hit counts.
 * Higher is better. The idf uses the `1 +` form so very common terms never score negative.
 */
export function bm25FromMatchinfo(blob: Uint8Array): number {
  const words = new Uint32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
  const p = words[0];
  const c = words[1];
  const n = words[2];
  const aOff = 3;
  const lOff = 3 + c;
  const xOff = 3 + 2 * c;
  let score = 0;
  for (let i = 0; i < p; i++) {
    for (let j = 0; j < c; j++) {
      const x = xOff + 3 * (i * c + j);
      const tf = words[x];
      const df = words[x + 2];
      if (tf === 0) continue;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      const avg = words[aOff + j] || 1;
      const len = words[lOff + j];
      score += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * len) / avg));
    }
  }
  return score;
}

/** (Re-)registers the store's SQL functions on a connection. */
export function registerFunctions(db: Database): void {
  db.create_function('sextant_bm25', (blob: unknown) => (blob instanceof Uint8Array ? bm25FromMatchinfo(blob) : 0));
}
