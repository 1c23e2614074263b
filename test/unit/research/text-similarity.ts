// A fair measure of how much of an expected article's text an extraction recovered: both texts are
// cut into lower-case word tokens (letters and digits, Unicode-aware; punctuation, markup and
// whitespace ignored, so Markdown versus HTML formatting cannot matter), and the two bags of words
// are compared. Recall = share of the expected words we have; precision = share of our words that
// are expected (boilerplate we kept lowers it); F1 is their harmonic mean.

export function wordTokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

export interface Similarity {
  recall: number;
  precision: number;
  f1: number;
}

export function bagOfWordsSimilarity(actual: string, expected: string): Similarity {
  const want = new Map<string, number>();
  for (const t of wordTokens(expected)) want.set(t, (want.get(t) ?? 0) + 1);
  const got = wordTokens(actual);
  const expectedCount = [...want.values()].reduce((a, b) => a + b, 0);
  let common = 0;
  for (const t of got) {
    const left = want.get(t) ?? 0;
    if (left > 0) {
      common++;
      want.set(t, left - 1);
    }
  }
  if (expectedCount === 0 && got.length === 0) return { recall: 1, precision: 1, f1: 1 };
  const recall = expectedCount ? common / expectedCount : 0;
  const precision = got.length ? common / got.length : 0;
  const f1 = recall + precision ? (2 * recall * precision) / (recall + precision) : 0;
  return { recall, precision, f1 };
}
