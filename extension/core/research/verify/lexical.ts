// The lexical floor of claim checking: how much of a claim's content the cited page contains. A claim
// whose words and figures are mostly absent from the page cannot be supported by it, whatever a model
// says; one that passes the floor goes on to the model check. Cheap, deterministic and explainable.

const STOP = new Set(
  (
    'a an and are as at be been being but by can could did do does for from had has have he her his how i if in ' +
    'into is it its itself may might more most much must no nor not of on one or our over own same she should so ' +
    'some such than that the their them then there these they this those through to too under until up very was ' +
    'we were what when where which while who whom why will with would you your also both each few other about ' +
    'above after again against all any because before below between during further here just now once only out ' +
    'off per via yet according'
  ).split(' '),
);

/** Lower-cased word stems: a light suffix strip so "reports"/"reported"/"reporting" meet. */
export function stem(word: string): string {
  const w = word.toLowerCase();
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith('ied')) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && w.endsWith('ed')) return w.slice(0, -2);
  if (w.length > 4 && w.endsWith('es')) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

/** Content-word stems of a text (no stop words, no one-letter words); numbers are kept separately. */
export function contentStems(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/[\p{L}][\p{L}\p{M}'’-]*/gu)) {
    const w = m[0].replace(/['’]s$/, '');
    if (w.length < 2 || STOP.has(w.toLowerCase())) continue;
    out.push(stem(w));
  }
  return out;
}

/** Figures in a text, normalised ("1,200" → "1200", "3.50" stays, "45%" → "45"). */
export function figures(text: string): string[] {
  const out: string[] = [];
  // Thousands separators only between digit groups: "2029," ends a clause, "1,200" is one number.
  for (const m of text.matchAll(/\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?/g)) out.push(m[0].replace(/,/g, ''));
  return out;
}

export interface PageIndex {
  stems: Set<string>;
  figures: Set<string>;
  /** The page's sentences, for picking the passages a model judge sees. */
  sentences: string[];
}

export function indexPage(text: string): PageIndex {
  return {
    stems: new Set(contentStems(text)),
    figures: new Set(figures(text)),
    sentences: text
      .split(/(?<=[.!?])\s+|\n+/)
      .map((s) => s.trim())
      .filter((s) => s.length > 0),
  };
}

export interface Overlap {
  /** Share of the claim's content stems found on the page, 0..1. */
  coverage: number;
  /** The claim's figures that the page does not contain. */
  missingFigures: string[];
}

export function overlap(claim: string, page: PageIndex): Overlap {
  const stems = [...new Set(contentStems(claim))];
  const found = stems.filter((s) => page.stems.has(s)).length;
  const coverage = stems.length === 0 ? 1 : found / stems.length;
  const missingFigures = [...new Set(figures(claim))].filter((f) => !page.figures.has(f));
  return { coverage, missingFigures };
}

/** The floor a claim must clear against at least one cited page before a model is asked. */
export const COVERAGE_FLOOR = 0.5;

export function passesFloor(o: Overlap): boolean {
  return o.coverage >= COVERAGE_FLOOR && o.missingFigures.length === 0;
}

/** The page sentences sharing most content with the claim, with a neighbour each for context. */
export function bestPassages(claim: string, page: PageIndex, count = 3): string[] {
  const want = new Set(contentStems(claim));
  const scored = page.sentences.map((s, i) => {
    const got = new Set(contentStems(s));
    let hit = 0;
    for (const w of want) if (got.has(w)) hit++;
    return { i, hit };
  });
  scored.sort((a, b) => b.hit - a.hit || a.i - b.i);
  const picked: number[] = [];
  for (const s of scored) {
    if (s.hit === 0 || picked.length >= count) break;
    if (picked.some((p) => Math.abs(p - s.i) <= 1)) continue;
    picked.push(s.i);
  }
  return picked
    .sort((a, b) => a - b)
    .map((i) => page.sentences.slice(Math.max(0, i - 1), i + 2).join(' '))
    .map((p) => (p.length > 1200 ? `${p.slice(0, 1200)}…` : p));
}
