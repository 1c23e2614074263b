// Reading a report's Markdown for what it cites: `[n]` markers, links and bare URLs, and the sentences
// that carry markers. Code (fenced blocks and inline spans) is left alone: `a[1]` there is code, not a
// citation. Everything here is text in, text out; the verdicts are made in verify-report.ts.

/** `[1]`, `[1, 3]`, `[2-4]` — not `[text](url)` links, not `[^1]` footnotes. */
const MARKER = /\[(\d{1,3}(?:\s*[,–-]\s*\d{1,3})*)\](?!\()/g;

/** Numbers in one marker body: "1, 3" → [1, 3]; "2-4" → [2, 3, 4] (ranges capped at 20). */
export function markerNumbers(body: string): number[] {
  const out: number[] = [];
  for (const part of body.split(',')) {
    const range = /^\s*(\d+)\s*[–-]\s*(\d+)\s*$/.exec(part);
    if (range) {
      const a = Number(range[1]);
      const b = Number(range[2]);
      for (let k = a; k <= b && k - a < 20; k++) out.push(k);
    } else if (part.trim()) out.push(Number(part.trim()));
  }
  return out;
}

/** Applies `fn` to the prose of a Markdown text, leaving fenced blocks and inline code untouched. */
export function mapProse(markdown: string, fn: (prose: string) => string): string {
  const out: string[] = [];
  const lines = markdown.split('\n');
  let fence: string | undefined;
  let prose: string[] = [];
  const flushProse = () => {
    if (prose.length === 0) return;
    const text = prose.join('\n');
    // Inline code spans stay as they are.
    const pieces = text.split(/(`+[^`]*`+)/);
    out.push(pieces.map((p, i) => (i % 2 === 1 ? p : fn(p))).join(''));
    prose = [];
  };
  for (const line of lines) {
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      out.push(line);
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length) fence = undefined;
      continue;
    }
    if (m) {
      flushProse();
      fence = m[1];
      out.push(line);
      continue;
    }
    prose.push(line);
  }
  flushProse();
  return out.join('\n');
}

/** Rewrites every citation marker: `fn(numbers)` gives the numbers to keep (none: the marker goes). */
export function rewriteMarkers(markdown: string, fn: (numbers: number[]) => number[]): string {
  return mapProse(markdown, (prose) =>
    prose
      .replace(MARKER, (_all, body: string) => {
        const kept = fn(markerNumbers(body));
        return kept.map((n) => `[${n}]`).join('');
      })
      // "[1-3][3]" renumbered may repeat a source right away: once is enough.
      .replace(/\[(\d+)\](?:\s*\[\1\](?!\())+/g, '[$1]')
      // A marker removed entirely leaves no space before the punctuation.
      .replace(/[ \t]+([.,;:!?])/g, (m, p: string, at: number, all: string) => (/\d/.test(all[at - 1] ?? '') ? m : p)),
  );
}

/** Every cited number, in order of first appearance. */
export function citedNumbers(markdown: string): number[] {
  const seen: number[] = [];
  mapProse(markdown, (prose) => {
    for (const m of prose.matchAll(MARKER)) for (const n of markerNumbers(m[1])) if (!seen.includes(n)) seen.push(n);
    return prose;
  });
  return seen;
}

export const UNFETCHED_LINK_MARK = '*(link removed: not fetched in this run)*';

const LINK = /\[([^\]\n]*)\]\((https?:\/\/[^)\s]+)\)/g;
const BARE_URL = /(?<![(<\w])https?:\/\/[^\s)<>\]]+[^\s)<>\].,;:!?'"]/g;

/** Normalises a URL for comparison: no fragment, no trailing slash, lower-case host. */
export function normaliseUrl(url: string): string {
  try {
    const u = new URL(url);
    u.hash = '';
    const s = u.toString();
    return s.endsWith('/') ? s.slice(0, -1) : s;
  } catch {
    return url;
  }
}

/**
 * Removes links and bare URLs that `known` does not accept: a link keeps its text, a bare URL goes.
 * Returns the text and the URLs removed.
 */
export function dropUnknownUrls(
  markdown: string,
  known: (url: string) => boolean,
): { text: string; removed: string[] } {
  const removed: string[] = [];
  const text = mapProse(markdown, (prose) =>
    prose
      .replace(LINK, (all, label: string, url: string) => {
        if (known(url)) return all;
        removed.push(url);
        return label;
      })
      .replace(BARE_URL, (url) => {
        if (known(url)) return url;
        removed.push(url);
        // Said where it stood, so a sentence never ends on a dangling "see".
        return UNFETCHED_LINK_MARK;
      }),
  );
  return { text, removed };
}

export interface CitedSentence {
  /** The sentence as written, markers included. */
  sentence: string;
  /** The claim: the sentence without its markers and list/heading syntax. */
  claim: string;
  numbers: number[];
}

/** The sentences of the prose that carry at least one citation marker. */
export function citedSentences(markdown: string): CitedSentence[] {
  const found: CitedSentence[] = [];
  mapProse(markdown, (prose) => {
    for (const block of prose.split(/\n\s*\n|\n(?=\s*(?:[-*+]|\d+\.)\s)/)) {
      const flat = block.replace(/\s*\n\s*/g, ' ').trim();
      if (!flat || /^#{1,6}\s/.test(flat)) continue;
      for (const raw of splitSentences(flat)) {
        const sentence = raw.trim();
        const numbers: number[] = [];
        for (const m of sentence.matchAll(MARKER)) numbers.push(...markerNumbers(m[1]));
        if (numbers.length === 0) continue;
        const claim = sentence
          .replace(MARKER, '')
          .replace(/^(?:[-*+]|\d+\.)\s+/, '')
          .replace(/[*_]{1,3}/g, '')
          .replace(/\s+([.,;:!?])/g, '$1')
          .trim();
        found.push({ sentence, claim, numbers: [...new Set(numbers)] });
      }
    }
    return prose;
  });
  return found;
}

/**
 * Splits flowing text into sentences: at . ! ? (and any markers right after it, "… in 2024.[3]")
 * followed by a space and a capital, digit-free opening or bracket — so "Rust 1.85" and "e.g. this"
 * stay whole.
 */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?](?:\s*\[[\d,\s–-]+\](?!\())*)\s+(?=[\p{Lu}"“(*_])/u)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Cuts a "Sources" / "References" section the model wrote: the verified list replaces it. */
export function withoutSourceSection(markdown: string): string {
  const m = /^#{1,6}\s*(?:sources|references|bibliography)\b.*$/im.exec(markdown);
  return m ? markdown.slice(0, m.index).trimEnd() : markdown;
}
