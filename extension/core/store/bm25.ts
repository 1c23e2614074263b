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
export function bm25FromMatchinfo(blob: Uint8Array, corpus?: CorpusExtra): number {
  const words = matchinfoWords(blob);
  const p = words[0];
  const c = words[1];
  const n = words[2] + (corpus?.n ?? 0);
  const aOff = 3;
  const lOff = 3 + c;
  const xOff = 3 + 2 * c;
  let score = 0;
  for (let i = 0; i < p; i++) {
    for (let j = 0; j < c; j++) {
      const x = xOff + 3 * (i * c + j);
      const tf = words[x];
      const df = words[x + 2] + (corpus?.df[i] ?? 0);
      if (tf === 0) continue;
      score += bm25Term(tf, df, n, words[lOff + j], corpus?.avg ?? (words[aOff + j] || 1));
    }
  }
  return score;
}

/** One term's BM25 weight in one document. */
export function bm25Term(tf: number, df: number, n: number, len: number, avg: number): number {
  const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
  return (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * len) / (avg || 1)));
}

/**
 * What the rest of the corpus adds to the full-text index's statistics: the cold sessions' chunks, kept
 * outside it (cold-search.ts), and the average length over both.
 */
export interface CorpusExtra {
  n: number;
  avg: number;
  df: number[];
}

export function matchinfoWords(blob: Uint8Array): Uint32Array {
  return new Uint32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
}

/** (Re-)registers the store's SQL functions on a connection. */
export function registerFunctions(db: Database): void {
  db.create_function('sextant_bm25', (blob: unknown) => (blob instanceof Uint8Array ? bm25FromMatchinfo(blob) : 0));
  // The same with the cold sessions' statistics (a JSON CorpusExtra, parsed once per query).
  let cached: { json: string; corpus: CorpusExtra } | undefined;
  db.create_function('sextant_bm25_with', (blob: unknown, json: unknown) => {
    if (!(blob instanceof Uint8Array) || typeof json !== 'string') return 0;
    if (cached?.json !== json) cached = { json, corpus: JSON.parse(json) as CorpusExtra };
    return bm25FromMatchinfo(blob, cached.corpus);
  });
}
