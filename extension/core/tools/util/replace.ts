// Exact string replacement for edit_file/multi_edit, with messages that help the model recover:
// near matches (whitespace, line-number prefixes, fuzzy) when absent, every location when ambiguous.
import { cutLine } from './cap';
import { toEol } from './text';

/**
 * A failed replacement says two things: `message` for the model (what the file has instead, where to
 * look) and `summary`, one plain line for the tool card ("old_string not found; closest: line 12, 87 %").
 */
export type ReplaceResult = { ok: true; text: string; count: number } | { ok: false; message: string; summary: string };

function occurrences(hay: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}

function lineOf(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Replaces `oldStr` with `newStr` in `text` (whose line endings are `eol`). */
export function replaceExact(
  text: string,
  eol: '\n' | '\r\n',
  oldStr: string,
  newStr: string,
  replaceAll: boolean,
): ReplaceResult {
  if (oldStr === newStr)
    return {
      ok: false,
      message: 'old_string and new_string are identical, so there is nothing to change.',
      summary: 'old_string and new_string are identical',
    };
  if (oldStr === '')
    return {
      ok: false,
      message: 'old_string is empty. Give the exact text to replace (to create a new file use write_file).',
      summary: 'old_string is empty',
    };
  // The model usually writes LF; the file may be CRLF. Try the text as given, then in the file's convention.
  let o = oldStr;
  let n = newStr;
  let at = occurrences(text, o);
  if (eol === '\r\n') {
    if (at.length === 0) {
      o = toEol(oldStr, eol);
      n = toEol(newStr, eol);
      at = occurrences(text, o);
    } else if (!oldStr.includes('\n') || oldStr.includes('\r\n')) {
      // Matched a single line (or CRLF text): new lines the model adds follow the file's convention.
      n = toEol(newStr, eol);
    }
  }
  if (at.length === 0) return { ok: false, ...notFound(text, oldStr) };
  if (at.length > 1 && !replaceAll) {
    const lines = text.split(/\r?\n/);
    const shown = at.slice(0, 10).map((i) => {
      const ln = lineOf(text, i);
      return `  line ${ln}: ${cutLine(lines[ln - 1].trim(), 120)}`;
    });
    const more = at.length > 10 ? `\n  … and ${at.length - 10} more` : '';
    return {
      ok: false,
      summary: `old_string occurs ${at.length} times (lines ${at
        .slice(0, 5)
        .map((i) => lineOf(text, i))
        .join(', ')}${at.length > 5 ? ', …' : ''})`,
      message:
        `old_string occurs ${at.length} times, so the edit is ambiguous. Include more surrounding lines to ` +
        'make it unique, or set replace_all to true to change every occurrence. ' +
        `Occurrences:\n${shown.join('\n')}${more}`,
    };
  }
  if (replaceAll) return { ok: true, text: text.split(o).join(n), count: at.length };
  const i = at[0];
  return { ok: true, text: text.slice(0, i) + n + text.slice(i + o.length), count: 1 };
}

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

/** Dice coefficient on character bigrams, 0..1. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const A = bigrams(a);
  const B = bigrams(b);
  let inter = 0;
  for (const [g, c] of A) inter += Math.min(c, B.get(g) ?? 0);
  return (2 * inter) / (a.length - 1 + (b.length - 1));
}

function numberedWindow(lines: string[], start: number, count: number): string {
  return lines
    .slice(start, start + count)
    .map((l, k) => `${String(start + k + 1).padStart(6)}\t${cutLine(l, 200)}`)
    .join('\n');
}

function notFound(text: string, oldStr: string): { message: string; summary: string } {
  const head = 'old_string was not found in the file (it must match exactly, including whitespace and indentation).';
  const want = oldStr.replace(/\r\n/g, '\n').split('\n');
  while (want.length > 1 && want[want.length - 1].trim() === '') want.pop();
  if (want.every((l) => /^\s*\d+\t/.test(l) || l === '')) {
    return {
      message:
        `${head} It looks like you included the line-number prefixes from read_file output ("   12\\t"); remove ` +
        `them and use only the file's text.`,
      summary: 'old_string not found: it includes read_file line-number prefixes',
    };
  }
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const k = want.length;
  const trimmedWant = want.map((l) => l.trim());
  // 1. Same text, different whitespace.
  for (let s = 0; s + k <= lines.length; s++) {
    let same = true;
    for (let j = 0; j < k && same; j++) same = lines[s + j].trim() === trimmedWant[j];
    if (same && trimmedWant.some((t) => t !== '')) {
      return {
        message:
          `${head} The same text exists with different whitespace or indentation at line ${s + 1}. The file ` +
          `has:\n${numberedWindow(lines, s, k)}\nCopy old_string from this exactly (without the line numbers).`,
        summary: `old_string not found: same text with other whitespace at line ${s + 1}`,
      };
    }
  }
  // 2. Fuzzy: windows of the same height, scored by average line similarity.
  const budget = 3_000_000;
  const step = lines.length * k > budget ? Math.ceil((lines.length * k) / budget) : 1;
  const scored: Array<{ s: number; score: number }> = [];
  for (let s = 0; s + k <= lines.length; s += step) {
    let total = 0;
    for (let j = 0; j < k; j++) total += similarity(lines[s + j].trim(), trimmedWant[j]);
    scored.push({ s, score: total / k });
  }
  scored.sort((a, b) => b.score - a.score);
  const picked: Array<{ s: number; score: number }> = [];
  for (const c of scored) {
    if (c.score < 0.5 || picked.length >= 3) break;
    if (picked.some((p) => Math.abs(p.s - c.s) < k)) continue;
    picked.push(c);
  }
  if (picked.length === 0) {
    return {
      message:
        `${head} Nothing similar was found either; the file may differ from what you expect. Read it again with ` +
        `read_file and copy the exact text.`,
      summary: 'old_string not found, nothing similar in the file',
    };
  }
  const shown = picked
    .map(
      (p) => `Candidate at line ${p.s + 1} (${Math.round(p.score * 100)}% similar):\n${numberedWindow(lines, p.s, k)}`,
    )
    .join('\n\n');
  const closest = picked.map((p) => `line ${p.s + 1} (${Math.round(p.score * 100)} %)`).join(', ');
  return {
    message:
      `${head} The closest candidates in the file:\n\n${shown}\n\nIf one of these is what you meant, copy it ` +
      `exactly as old_string (without the line numbers).`,
    summary: `old_string not found; closest: ${closest}`,
  };
}
