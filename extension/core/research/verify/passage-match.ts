// The only way a claim is verified without the judge: it is pinned to one sentence of the page so
// closely that no distortion can pass. The claim, word for word (case, "a/an/the" and number
// formatting aside), must be the sentence with whole comma-, semicolon-, colon-, dash- or
// parenthesis-delimited segments left out, in the sentence's own order; and the sentence's guard words
// (guard-words.ts: negation, hedges and attribution, order and time, direction and comparison,
// numbers) must all be in the claim, in the same order. So:
// - a swapped actor/object or a reversed order changes the word order: not a subsequence;
// - a changed number, unit or date, an antonym or another entity is a word the sentence lacks;
// - a dropped "not", "may", "before", "by" or figure leaves a guard of the sentence out of the claim;
// - leaving out a segment that holds a guard ("In 2014, …", "…, critics say") is the same.
// Synonyms and inflections are deliberately not folded here (the lexical floor folds them to find
// passages): a paraphrase in other words is the judge's to read.
import { GUARD_SPELLINGS, GUARD_WORDS } from './guard-words';

/** Words a claim may add or leave out anywhere: they change no claim's truth. */
const IGNORED = new Set(['a', 'an', 'the']);
/** Small numbers written as words are the same number as in digits: "two years" is "2 years". */
const NUMBER_WORDS = new Map(
  (
    'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen ' +
    'seventeen eighteen nineteen twenty'
  )
    .split(' ')
    .map((w, i): [string, string] => [w, `#${i}`]),
);

/** Claims shorter than this (in compared tokens) are too slight to pin: "It rained." goes to the judge. */
const MIN_TOKENS = 4;

const TOKEN = /(\d[\d,.]*\d|\d)|([\p{L}][\p{L}\p{M}'’]*)|([,;:()[\]{}\u2013\u2014\u2015]|\s-\s|\s--\s)|([$€£¥%])/gu;

/** A text as the matcher compares it: segments of tokens; a guard token starts with "g:", a number with "#". */
export interface Pinnable {
  segments: string[][];
  /** The guard tokens in order, joined: compared as one string. */
  guards: string;
}

export function pinnable(text: string): Pinnable {
  // Markdown link targets and citation markers are not the sentence's words.
  const plain = text.replace(/\]\([^)\s]*\)/g, ']').replace(/\[\d{1,3}(?:\s*[,–-]\s*\d{1,3})*\]/g, ' ');
  const segments: string[][] = [[]];
  const guards: string[] = [];
  const push = (tok: string) => {
    segments[segments.length - 1].push(tok);
    if (tok.startsWith('g:') || tok.startsWith('#')) guards.push(tok);
  };
  for (const m of plain.matchAll(TOKEN)) {
    if (m[1]) push(`#${normaliseNumber(m[1])}`);
    else if (m[2]) {
      let w = m[2].toLowerCase().replace(/’/g, "'");
      if (/n't$/.test(w) && w !== "can't") {
        // "didn't" is "did" and "not"; "won't" is "will" and "not".
        w = w === "won't" ? 'will' : w.slice(0, -3);
        if (w) pushWord(w, push);
        push('g:not');
        continue;
      }
      pushWord(w, push);
    } else if (m[3]) {
      if (segments[segments.length - 1].length) segments.push([]);
    } else if (m[4]) push(`g:${GUARD_SPELLINGS.get(m[4]) ?? m[4]}`);
  }
  return { segments: segments.filter((s) => s.length > 0), guards: guards.join(' ') };
}

function pushWord(raw: string, push: (tok: string) => void): void {
  const w = GUARD_SPELLINGS.get(raw) ?? raw;
  if (IGNORED.has(w)) return;
  push(NUMBER_WORDS.get(w) ?? (GUARD_WORDS.has(w) ? `g:${w}` : w));
}

/** "30,000" and "30000" are one number; "1.50" and "1.5" too. A trailing full stop is not a digit. */
function normaliseNumber(n: string): string {
  let s = n.replace(/[.,]$/, '').replace(/,(?=\d{3}(?:\D|$))/g, '');
  if (/^\d+\.\d+$/.test(s)) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return s;
}

/**
 * Whether the claim is pinned to the sentence: its tokens are the sentence's with whole segments left
 * out (order kept), and the guard tokens of claim and sentence are the same sequence.
 */
export function isPinned(claim: Pinnable, sentence: Pinnable): boolean {
  if (claim.guards !== sentence.guards) return false;
  const c = claim.segments.flat();
  if (c.length < MIN_TOKENS) return false;
  const segs = sentence.segments;
  // Can claim tokens from `i` on be made of whole segments from `j` on? Memoised on (i, j).
  const failed = new Set<number>();
  const fits = (i: number, j: number): boolean => {
    if (i === c.length) return true;
    if (j === segs.length) return false;
    const key = i * (segs.length + 1) + j;
    if (failed.has(key)) return false;
    const seg = segs[j];
    const here = seg.length <= c.length - i && seg.every((t, k) => c[i + k] === t);
    if ((here && fits(i + seg.length, j + 1)) || fits(i, j + 1)) return true;
    failed.add(key);
    return false;
  };
  return fits(0, 0);
}
