// Reading a report's Markdown for what it cites: `[n]` markers, links and bare URLs, and the sentences
// that carry markers. Code (fenced blocks and inline spans) is left alone: `a[1]` there is code, not a
// citation. Everything here is text in, text out; the verdicts are made in verify-report.ts.

/** `[1]`, `[1, 3]`, `[2-4]` — not `[text](url)` links, not `[^1]` footnotes. */
const MARKER = /\[(\d{1,3}(?:\s*[,\u2013-]\s*\d{1,3})*)\](?!\()/g;

/** Numbers in one marker body: "1, 3" → [1, 3]; "2-4" → [2, 3, 4] (ranges capped at 20). */
export function markerNumbers(body: string): number[] {
  const out: number[] = [];
  for (const part of body.split(',')) {
    const range = /^\s*(\d+)\s*[\u2013-]\s*(\d+)\s*$/.exec(part);
    if (range) {
      const a = Number(range[1]);
      const b = Number(range[2]);
      for (let k = a; k <= b && k - a < 20; k++) out.push(k);
    } else if (part.trim()) out.push(Number(part.trim()));
  }
  return out;
}

/** A Markdown text cut into prose and fenced code blocks, in order (line breaks kept inside each). */
export function proseAndCode(markdown: string): Array<{ prose: boolean; text: string }> {
  const out: Array<{ prose: boolean; text: string }> = [];
  let fence: string | undefined;
  let lines: string[] = [];
  let inProse = true;
  const flush = () => {
    if (lines.length) out.push({ prose: inProse, text: lines.join('\n') });
    lines = [];
  };
  for (const line of markdown.split('\n')) {
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      lines.push(line);
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length) {
        fence = undefined;
        flush();
        inProse = true;
      }
      continue;
    }
    if (m) {
      flush();
      fence = m[1];
      inProse = false;
    }
    lines.push(line);
  }
  flush();
  return out;
}

/** Applies `fn` to the prose of a Markdown text, leaving fenced blocks and inline code untouched. */
export function mapProse(markdown: string, fn: (prose: string) => string): string {
  return proseAndCode(markdown)
    .map((chunk) => {
      if (!chunk.prose) return chunk.text;
      // Inline code spans stay as they are.
      const pieces = chunk.text.split(/(`+[^`]*`+)/);
      return pieces.map((p, i) => (i % 2 === 1 ? p : fn(p))).join('');
    })
    .join('\n');
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
  /** The sentence as written, markers included (a table cell: the cell). */
  sentence: string;
  /** The claim: the sentence without its markers and list/heading/emphasis syntax (a table cell: its row). */
  claim: string;
  numbers: number[];
}

// Brackets inside inline code are not markers: while sentences are found they stand in as these.
const CODE_OPEN = '\u2045';
const CODE_CLOSE = '\u2046';
const hideCodeBrackets = (text: string) =>
  text.replace(/(`+)([^`]*?)\1/g, (span) => span.replace(/\[/g, CODE_OPEN).replace(/\]/g, CODE_CLOSE));
const showCodeBrackets = (text: string) => text.replaceAll(CODE_OPEN, '[').replaceAll(CODE_CLOSE, ']');

/** A stretch of prose that sentences are read from: a paragraph, a list item, a heading, a table cell. */
interface ProseUnit {
  text: string;
  /** For a table cell: its whole row, which is the claim. */
  row?: string;
}

const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/;

function tableCells(line: string): string[] {
  const cells = line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
  return cells;
}

/**
 * The prose units of a Markdown text without fenced code: every paragraph (also one directly under a
 * heading, with no blank line between), list item, block quote, heading and table cell — so a cited
 * sentence is found wherever the writer put it.
 */
function proseUnits(prose: string): ProseUnit[] {
  const units: ProseUnit[] = [];
  let para: string[] = [];
  let quoted = false;
  const flush = () => {
    if (para.length) units.push({ text: para.join(' ') });
    para = [];
  };
  const lines = prose.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const isQuote = /^\s{0,3}>/.test(lines[i]);
    const line = lines[i].replace(/^\s{0,3}(?:>\s?)+/, '');
    // A block quote starts and ends its own paragraph.
    if (isQuote !== quoted) flush();
    quoted = isQuote;
    if (/^\s*$/.test(line)) {
      flush();
      continue;
    }
    const heading = /^\s{0,3}#{1,6}(?:\s+|$)(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (heading) {
      flush();
      units.push({ text: heading[1] });
      continue;
    }
    if (/^\s{0,3}(?:=+|-+)\s*$/.test(line) && para.length) {
      // A setext heading's underline: the paragraph above was its text.
      flush();
      continue;
    }
    if (/^\s{0,3}([-*_])(?:\s*\1){2,}\s*$/.test(line)) {
      flush();
      continue;
    }
    if (line.includes('|') && TABLE_SEPARATOR.test(lines[i + 1] ?? '') && !TABLE_SEPARATOR.test(line)) {
      flush();
      const header = tableCells(line);
      units.push(...header.map((c) => ({ text: c, row: header.join(', ') })));
      i += 2;
      for (; i < lines.length && lines[i].includes('|') && lines[i].trim() !== ''; i++) {
        const cells = tableCells(lines[i].replace(/^\s{0,3}(?:>\s?)+/, ''));
        // A row reads as one statement: "Installed capacity, 8 MW [1]".
        const row = cells.map((c, k) => (header[k] && k > 0 ? `${header[k]}: ${c}` : c)).join(', ');
        units.push(...cells.map((c) => ({ text: c, row })));
      }
      i--;
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      flush();
      para.push(line.slice(item[0].length).trim());
      continue;
    }
    para.push(line.trim());
  }
  flush();
  return units;
}

/** The claim a sentence makes: without markers, list and heading syntax, emphasis and link targets. */
function claimOf(sentence: string): string {
  return sentence
    .replace(MARKER, '')
    .replace(/\[([^\]\n]*)\]\([^)\s]*\)/g, '$1')
    .replace(/^(?:[-*+]|\d+\.)\s+/, '')
    .replace(/[*_]{1,3}/g, '')
    .replace(/`/g, '')
    .replace(/\s+([.,;:!?])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

/** The sentences of the prose that carry at least one citation marker, wherever they stand. */
export function citedSentences(markdown: string): CitedSentence[] {
  const found: CitedSentence[] = [];
  for (const chunk of proseAndCode(markdown)) {
    if (!chunk.prose) continue;
    for (const unit of proseUnits(hideCodeBrackets(chunk.text))) {
      const flat = unit.text.replace(/\s+/g, ' ').trim();
      if (!flat) continue;
      for (const raw of joinLeadIns(splitSentences(flat))) {
        const numbers: number[] = [];
        for (const m of raw.matchAll(MARKER)) numbers.push(...markerNumbers(m[1]));
        if (numbers.length === 0) continue;
        const sentence = showCodeBrackets(raw.trim());
        const claim = showCodeBrackets(claimOf(unit.row ?? raw));
        found.push({ sentence, claim, numbers: [...new Set(numbers)] });
      }
    }
  }
  return found;
}

/** A bold lead-in ("**Capacity.** The array…") belongs to the sentence after it. */
function joinLeadIns(sentences: string[]): string[] {
  const out: string[] = [];
  for (const s of sentences) {
    const prev = out[out.length - 1];
    if (prev !== undefined && /^(\*\*|__)[^*_[\]]{1,80}\1[.:]?$/.test(prev)) out[out.length - 1] = `${prev} ${s}`;
    else out.push(s);
  }
  return out;
}

/**
 * Splits flowing text into sentences: at . ! ? (and any markers right after it, "… in 2024.[3]")
 * followed by a space and a capital, digit-free opening or bracket — so "Rust 1.85" and "e.g. this"
 * stay whole.
 */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?](?:\s*\[[\d,\s\u2013-]+\](?!\())*)\s+(?=[\p{Lu}"\u201c(*_])/u)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Cuts a "Sources" / "References" section the model wrote: the verified list replaces it. */
export function withoutSourceSection(markdown: string): string {
  const m = /^#{1,6}\s*(?:sources|references|bibliography)\b.*$/im.exec(markdown);
  return m ? markdown.slice(0, m.index).trimEnd() : markdown;
}
