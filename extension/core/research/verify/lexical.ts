// The lexical floor of claim checking. It exists to save model calls on claims that plainly have
// nothing to do with the page they cite (the writer cited the wrong source, or wrote about something
// else) — never to decide that a related claim is false. It compares the claim's content words and
// figures, normalised on both sides (words.ts, numbers.ts), with the best-matching passage of the
// page and with the page as a whole:
// - "kept": a passage holds most of the claim, figures included — the judge confirms it;
// - "judge": a weaker match (a paraphrase with other words, a figure written differently or not
//   found) — the judge decides, the floor does not;
// - "rejected": neither any passage nor the page shares more than a little of the claim — unrelated,
//   marked unsupported without a model call.
import {
  figureOnPage,
  figuresIn,
  figureWeight,
  mergeValues,
  pageValues,
  type Figure,
  type PageValues,
} from './numbers';
import { contentWords } from './words';

export type FloorDecision = 'kept' | 'judge' | 'rejected';

/** Passages that hold this share of the claim (figures included, none missing) are "kept". */
export const KEEP_AT = 0.6;
/** Below this share in every passage *and* below REJECT_PAGE_BELOW on the page: "rejected". */
export const REJECT_PASSAGE_BELOW = 0.34;
export const REJECT_PAGE_BELOW = 0.45;
/** Claims with fewer content words and figures than this are too short to reject on words. */
const MIN_ITEMS_TO_REJECT = 3;
/** Sentences per passage: a paraphrase often merges a sentence with its neighbour. */
const PASSAGE_SENTENCES = 3;

interface SentenceIndex {
  text: string;
  words: Set<string>;
  values: PageValues;
}

export interface PageIndex {
  words: Set<string>;
  values: PageValues;
  sentences: SentenceIndex[];
}

export function indexPage(text: string): PageIndex {
  const sentences = text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map((s) => ({ text: s, words: new Set(contentWords(s)), values: pageValues(figuresIn(s)) }));
  return {
    words: new Set(sentences.flatMap((s) => [...s.words])),
    values: pageValues(figuresIn(text)),
    sentences,
  };
}

export interface FloorResult {
  decision: FloorDecision;
  /** Share of the claim's content words and figures in its best-matching passage, 0..1. */
  score: number;
  /** The same share over the whole of the cited page(s). */
  pageCoverage: number;
  /** The claim's figures found nowhere on the cited page(s), as written. */
  missingFigures: string[];
}

interface ClaimItems {
  words: string[];
  figures: Figure[];
}

function claimItems(claim: string): ClaimItems {
  // The same figure twice ("five parts flour and five parts water") is one piece of evidence.
  const figures = figuresIn(claim).filter((f, i, all) => all.findIndex((g) => g.values[0] === f.values[0]) === i);
  return { words: [...new Set(contentWords(claim))], figures };
}

const itemWeight = (items: ClaimItems) => items.words.length + items.figures.reduce((a, f) => a + figureWeight(f), 0);

function share(items: ClaimItems, words: Set<string>, values: PageValues): number {
  const total = itemWeight(items);
  if (total === 0) return 1;
  const hits =
    items.words.filter((w) => words.has(w)).length +
    items.figures.filter((f) => figureOnPage(f, values)).reduce((a, f) => a + figureWeight(f), 0);
  return hits / total;
}

/** The best passage of a page for a claim: its first sentence's index and its share of the claim. */
function bestWindow(items: ClaimItems, page: PageIndex): { at: number; score: number } {
  let best = { at: -1, score: 0 };
  const n = page.sentences.length;
  for (let i = 0; i < n; i++) {
    // Only windows that start at a sentence sharing something with the claim can be the best.
    const first = page.sentences[i];
    if (!items.words.some((w) => first.words.has(w)) && !items.figures.some((f) => figureOnPage(f, first.values)))
      continue;
    for (let start = Math.max(0, i - PASSAGE_SENTENCES + 1); start <= i; start++) {
      const window = page.sentences.slice(start, Math.min(n, start + PASSAGE_SENTENCES));
      const words = new Set(window.flatMap((s) => [...s.words]));
      const values = mergeValues(window.map((s) => s.values));
      const score = share(items, words, values);
      if (score > best.score) best = { at: start, score };
    }
  }
  return best;
}

/** The floor's decision for a claim against the page(s) it cites (a claim citing several may draw on all). */
export function floorCheck(claim: string, pages: readonly PageIndex[]): FloorResult {
  const items = claimItems(claim);
  const words = new Set(pages.flatMap((p) => [...p.words]));
  const values = mergeValues(pages.map((p) => p.values));
  const pageCoverage = share(items, words, values);
  const score = Math.max(0, ...pages.map((p) => bestWindow(items, p).score));
  const missingFigures = items.figures.filter((f) => !figureOnPage(f, values)).map((f) => f.text);
  const total = itemWeight(items);
  let decision: FloorDecision = 'judge';
  if (score >= KEEP_AT && missingFigures.length === 0) decision = 'kept';
  else if (total >= MIN_ITEMS_TO_REJECT && score < REJECT_PASSAGE_BELOW && pageCoverage < REJECT_PAGE_BELOW)
    decision = 'rejected';
  return { decision, score: round2(score), pageCoverage: round2(pageCoverage), missingFigures };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** The page passages sharing most with the claim (up to `count`, each with its neighbours), for the judge. */
export function bestPassages(claim: string, page: PageIndex, count = 3): string[] {
  const items = claimItems(claim);
  const scored = page.sentences.map((s, i) => ({
    i,
    hit:
      items.words.filter((w) => s.words.has(w)).length + items.figures.filter((f) => figureOnPage(f, s.values)).length,
  }));
  scored.sort((a, b) => b.hit - a.hit || a.i - b.i);
  const picked: number[] = [];
  for (const s of scored) {
    if (s.hit === 0 || picked.length >= count) break;
    if (picked.some((p) => Math.abs(p - s.i) <= 1)) continue;
    picked.push(s.i);
  }
  return picked
    .sort((a, b) => a - b)
    .map((i) =>
      page.sentences
        .slice(Math.max(0, i - 1), i + 2)
        .map((s) => s.text)
        .join(' '),
    )
    .map((p) => (p.length > 1200 ? `${p.slice(0, 1200)}…` : p));
}
