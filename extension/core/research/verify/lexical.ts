// The lexical floor of claim checking. It saves model calls at both ends and decides nothing in between:
// - "pinned": the claim is one sentence of the page, word for word, with at most whole segments left
//   out and every negation, hedge, order/time word, direction word and number of that sentence kept
//   (passage-match.ts) — no distortion of the sentence can pass, so it is verified without the judge;
// - "judge": anything else related to the page — a paraphrase, a figure written differently, a
//   distortion that reuses the page's words — is the judge's to read; without a judge it stays
//   unchecked, never verified (word overlap is exactly what a distorted claim has);
// - "rejected": neither any passage nor the page shares more than a little of the claim's content
//   words and figures (normalised on both sides, words.ts and numbers.ts) — unrelated, marked
//   unsupported without a model call.
import {
  figureOnPage,
  figuresIn,
  figureWeight,
  mergeValues,
  pageValues,
  type Figure,
  type PageValues,
} from './numbers';
import { isPinned, pinnable, type Pinnable } from './passage-match';
import { contentWords } from './words';

export type FloorDecision = 'pinned' | 'judge' | 'rejected';

/** Below this share in every passage *and* below REJECT_PAGE_BELOW on the page: "rejected". */
export const REJECT_PASSAGE_BELOW = 0.34;
export const REJECT_PAGE_BELOW = 0.45;
/** Claims with fewer content words and figures than this are too short to reject on words. */
const MIN_ITEMS_TO_REJECT = 3;
/** Sentences per passage: a paraphrase often merges a sentence with its neighbour. */
const PASSAGE_SENTENCES = 3;

interface SentenceIndex {
  text: string;
  /** Where the sentence stands in the page's text: `text === page.slice(start, end)`. */
  start: number;
  end: number;
  words: Set<string>;
  values: PageValues;
  exact: Pinnable;
}

export interface PageIndex {
  words: Set<string>;
  values: PageValues;
  sentences: SentenceIndex[];
}

/** The page's sentences (and lines) with their offsets, trimmed. */
function sentenceSpans(text: string): Array<{ start: number; end: number }> {
  const spans: Array<{ start: number; end: number }> = [];
  let from = 0;
  const add = (to: number) => {
    const raw = text.slice(from, to);
    const lead = raw.length - raw.trimStart().length;
    const body = raw.trim();
    if (body) spans.push({ start: from + lead, end: from + lead + body.length });
  };
  for (const m of text.matchAll(/(?<=[.!?])\s+|\n+/g)) {
    add(m.index);
    from = m.index + m[0].length;
  }
  add(text.length);
  return spans;
}

export function indexPage(text: string): PageIndex {
  const sentences = sentenceSpans(text).map(({ start, end }) => {
    const s = text.slice(start, end);
    return {
      text: s,
      start,
      end,
      words: new Set(contentWords(s)),
      values: pageValues(figuresIn(s)),
      exact: pinnable(s),
    };
  });
  return {
    words: new Set(sentences.flatMap((s) => [...s.words])),
    values: pageValues(figuresIn(text)),
    sentences,
  };
}

/** A sentence of one of the cited pages: which page (its index in the list given) and which sentence. */
export interface PassageRef {
  page: number;
  sentence: number;
}

export interface FloorResult {
  decision: FloorDecision;
  /** "pinned": the sentence the claim is pinned to; otherwise the sentence sharing most with it. */
  passage?: PassageRef;
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
  const result = { score: round2(score), pageCoverage: round2(pageCoverage), missingFigures };
  const pinned = pinnedPassage(claim, pages);
  if (pinned) return { decision: 'pinned', passage: pinned, ...result };
  const passage = bestSentence(items, pages);
  if (total >= MIN_ITEMS_TO_REJECT && score < REJECT_PASSAGE_BELOW && pageCoverage < REJECT_PAGE_BELOW)
    return { decision: 'rejected', ...result };
  return { decision: 'judge', ...(passage ? { passage } : {}), ...result };
}

/** The first sentence of the cited pages the claim is pinned to (passage-match.ts), if any. */
function pinnedPassage(claim: string, pages: readonly PageIndex[]): PassageRef | undefined {
  const exact = pinnable(claim);
  for (let page = 0; page < pages.length; page++) {
    const sentence = pages[page].sentences.findIndex((s) => isPinned(exact, s.exact));
    if (sentence >= 0) return { page, sentence };
  }
  return undefined;
}

/** The sentence sharing most of the claim's words and figures (the earliest on a tie), if any shares some. */
function bestSentence(items: ClaimItems, pages: readonly PageIndex[]): PassageRef | undefined {
  let best: (PassageRef & { score: number }) | undefined;
  for (const [page, p] of pages.entries())
    for (const [sentence, s] of p.sentences.entries()) {
      const score = share(items, s.words, s.values);
      if (score > 0 && (!best || score > best.score)) best = { page, sentence, score };
    }
  return best ? { page: best.page, sentence: best.sentence } : undefined;
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
