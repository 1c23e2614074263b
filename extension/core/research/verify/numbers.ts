// Figures in prose, as values: the same quantity written "30,000,000", "30 million", "30m", "$30M" or
// "thirty million" is one number; "half", "50 %", "fifty percent" and "50 per cent" are one percentage.
// The lexical floor compares these values, so a faithful paraphrase of a page's figures is never
// taken for a different figure just because it was written another way.

export interface Figure {
  /** Every value the text may mean ("30m" is 30 million or 30 metres: both are kept). */
  values: number[];
  /** How far (as a share of the value) a page's value may be and still be this figure: rounding as
   *  written ("30 million" covers 29.5–30.5 million), 10 % after a hedge ("about"). */
  tolerance: number;
  /** A year ("2029"): matched exactly, never approximately. */
  year: boolean;
  /** A percentage ("50 %", "fifty percent") or a share in words ("half", "a quarter"): a share in words
   *  on a page meets only shares in a claim, so "half" the budget is not the "fifty" of "fifty-year". */
  kind: 'count' | 'percent' | 'fraction';
  /** The figure as written, for reasons shown to the user. */
  text: string;
}

const ONES: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  dozen: 12,
};

const SCALES: Record<string, number> = {
  hundred: 100,
  thousand: 1e3,
  k: 1e3,
  million: 1e6,
  millions: 1e6,
  mn: 1e6,
  mln: 1e6,
  m: 1e6,
  billion: 1e9,
  billions: 1e9,
  bn: 1e9,
  b: 1e9,
  trillion: 1e12,
  tn: 1e12,
};

/** Fractions people write for percentages: "half" is 50 %, "two thirds" 66.7 %. */
const FRACTIONS: Record<string, number> = {
  half: 50,
  halves: 50,
  third: 100 / 3,
  thirds: 100 / 3,
  quarter: 25,
  quarters: 25,
  fifth: 20,
  fifths: 20,
  tenth: 10,
  tenths: 10,
};

/** Words that make a figure approximate: "about 30 million" matches 29.7 million. */
const HEDGES = new RegExp(
  '\\b(?:about|around|approximately|approx|roughly|nearly|almost|some|over|more than|less than|under|close to|' +
    'up to|just over|just under|upwards of|an estimated|estimated)\\s*$',
);

// One token: a written number (thousands separators of comma, space or thin space between groups of
// three), a word, or a percent sign.
const TOKEN = /\d{1,3}(?:(?:,|\u00a0|\u202f|\u2009| )\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|%|[\p{L}]+/gu;

interface Token {
  text: string;
  at: number;
  end: number;
}

function tokens(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.toLowerCase().matchAll(TOKEN))
    out.push({ text: m[0], at: m.index ?? 0, end: (m.index ?? 0) + m[0].length });
  return out;
}

const isDigits = (t: string) => /^\d/.test(t);
const isPercentWord = (t: Token | undefined, next: Token | undefined) =>
  t?.text === '%' || t?.text === 'percent' || t?.text === 'pct' || (t?.text === 'per' && next?.text === 'cent');

/** The figures of a text, in order. */
export function figuresIn(text: string): Figure[] {
  const lower = text.toLowerCase();
  const toks = tokens(text);
  const out: Figure[] = [];
  let i = 0;
  while (i < toks.length) {
    const start = i;
    const t = toks[i];
    let value: number | undefined;
    let unit = 1;
    let literal = false;
    if (isDigits(t.text)) {
      const digits = t.text.replace(/[,\u00a0\u202f\u2009 ]/g, '');
      value = Number(digits);
      // Rounding as written: "30" covers 29.5–30.5, "11.4" covers 11.35–11.45.
      const decimals = /\.(\d+)$/.exec(digits)?.[1].length ?? 0;
      unit = 10 ** -decimals;
      literal = true;
      i++;
    } else if (t.text in ONES || t.text === 'a' || t.text === 'an') {
      // Number words: "thirty", "twenty five", "a hundred", "two hundred and fifty thousand".
      let total = 0;
      let current = 0;
      let seen = false;
      let j = i;
      while (j < toks.length) {
        const w = toks[j].text;
        if (w in ONES) {
          current += ONES[w];
          seen = true;
        } else if ((w === 'a' || w === 'an') && !seen && (toks[j + 1]?.text ?? '') in SCALES) {
          current = 1;
        } else if (w === 'hundred') {
          current = (current || 1) * 100;
          seen = true;
        } else if (w in SCALES && SCALES[w] >= 1e3 && w.length > 2) {
          total += (current || 1) * SCALES[w];
          current = 0;
          seen = true;
        } else if (w === 'and' && seen && (toks[j + 1]?.text ?? '') in ONES) {
          // "two hundred and fifty"
        } else break;
        j++;
      }
      if (!seen) {
        i++;
        continue;
      }
      value = total + current;
      i = j;
      // "two thirds", "three quarters": a share.
      const fraction = toks[i]?.text;
      if (fraction && fraction in FRACTIONS && value < 10) {
        const share = FRACTIONS[fraction] * value;
        const hedged = HEDGES.test(lower.slice(Math.max(0, toks[start].at - 30), toks[start].at).trimEnd());
        const written = lower.slice(toks[start].at, toks[i].end);
        out.push({
          values: [share, share / 100],
          tolerance: hedged ? 0.1 : 0.02,
          year: false,
          kind: 'fraction',
          text: written,
        });
        i++;
        continue;
      }
    } else if (t.text in FRACTIONS) {
      // "half", "a third", "a quarter" of something: a share, read as a percentage.
      const hedged = HEDGES.test(lower.slice(Math.max(0, t.at - 30), t.at).trimEnd());
      const share = FRACTIONS[t.text];
      out.push({
        values: [share, share / 100],
        tolerance: hedged ? 0.1 : 0.02,
        year: false,
        kind: 'fraction',
        text: t.text,
      });
      i++;
      continue;
    } else {
      i++;
      continue;
    }
    // A scale after the number: "30 million", "1.5bn", "5k", "30m" (also 30 metres: both are kept).
    // "one in five", "3 out of 10": a share.
    const ofAt = toks[i]?.text === 'in' ? i + 1 : toks[i]?.text === 'out' && toks[i + 1]?.text === 'of' ? i + 2 : -1;
    const denominator = ofAt > 0 ? wholeNumber(toks[ofAt]?.text) : undefined;
    if (denominator && value <= denominator) {
      const share = (value / denominator) * 100;
      const hedged = HEDGES.test(lower.slice(Math.max(0, toks[start].at - 30), toks[start].at).trimEnd());
      out.push({
        values: [share, share / 100],
        tolerance: hedged ? 0.1 : 0.02,
        year: false,
        kind: 'percent',
        text: lower.slice(toks[start].at, toks[ofAt].end),
      });
      i = ofAt + 1;
      continue;
    }
    const values = [value];
    let kind: Figure['kind'] = 'count';
    let scaleWord = toks[i];
    // "one and a half million"
    if (scaleWord?.text === 'and' && toks[i + 1]?.text === 'a' && toks[i + 2]?.text === 'half') {
      values[0] = value + 0.5;
      i += 3;
      scaleWord = toks[i];
    }
    const glued = scaleWord && scaleWord.at === toks[i - 1].end;
    if (scaleWord && scaleWord.text in SCALES && (scaleWord.text.length > 2 || glued || scaleWord.text === 'bn')) {
      const scale = SCALES[scaleWord.text];
      const ambiguous = scaleWord.text === 'm' || scaleWord.text === 'b';
      const scaled = values[0] * scale;
      if (ambiguous) values.push(scaled);
      else values[0] = scaled;
      if (!ambiguous) unit *= scale;
      i++;
    } else if (isPercentWord(scaleWord, toks[i + 1])) {
      i += scaleWord?.text === 'per' ? 2 : 1;
      // A percentage is also a share: "50 %" meets "half" and "0.5".
      values.push(values[0] / 100);
      kind = 'percent';
    }
    const hedged = HEDGES.test(lower.slice(Math.max(0, toks[start].at - 30), toks[start].at).trimEnd());
    const written = lower.slice(toks[start].at, toks[i - 1].end);
    const year = /^\d{4}$/.test(t.text) && value >= 1000 && value <= 2100 && values.length === 1;
    // Relative to the first value; number words are exact as written ("thirty" is 30).
    const rounding = values[0] === 0 ? 0 : (literal ? unit / 2 : 0) / Math.abs(values[0]);
    const tolerance = year ? 0 : Math.max(rounding, hedged ? 0.1 : 0.01);
    out.push({ values, tolerance, year, kind, text: written });
  }
  return out;
}

function wholeNumber(word: string | undefined): number | undefined {
  if (!word) return undefined;
  if (/^\d+$/.test(word)) return Number(word);
  return word in ONES && ONES[word] > 0 ? ONES[word] : undefined;
}

/** A page's figures as sorted values: all of them, and those not written as a share in words. */
export interface PageValues {
  all: number[];
  notFractions: number[];
}

const sortedValues = (figs: readonly Figure[]) => [...new Set(figs.flatMap((f) => f.values))].sort((a, b) => a - b);

export function pageValues(figs: readonly Figure[]): PageValues {
  return { all: sortedValues(figs), notFractions: sortedValues(figs.filter((f) => f.kind !== 'fraction')) };
}

/** Several pages' (or sentences') values as one. */
export function mergeValues(parts: readonly PageValues[]): PageValues {
  const merge = (xs: number[][]) => [...new Set(xs.flat())].sort((a, b) => a - b);
  return { all: merge(parts.map((p) => p.all)), notFractions: merge(parts.map((p) => p.notFractions)) };
}

/**
 * How much a figure says about a match: a small whole number ("one", "5") is on most pages, so it
 * counts half; anything more particular counts in full.
 */
export function figureWeight(fig: Figure): number {
  const v = fig.values[0];
  return fig.kind === 'count' && Number.isInteger(v) && v <= 12 ? 0.5 : 1;
}

/** Whether one of the page's values is this figure (within the figure's tolerance). */
export function figureOnPage(fig: Figure, page: PageValues): boolean {
  // A count meets counts and percentages; only a share meets a share written in words.
  const sorted = fig.kind === 'count' ? page.notFractions : page.all;
  for (const v of fig.values) {
    const tol = fig.year ? 0 : Math.max(fig.tolerance * Math.abs(v), 1e-9);
    // Binary search for the first value ≥ v - tol.
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid] < v - tol) lo = mid + 1;
      else hi = mid;
    }
    if (lo < sorted.length && sorted[lo] <= v + tol) return true;
  }
  return false;
}
