// The passages a report's claims rest on, in its exports: Markdown footnotes after each citation
// marker (the quote and its source), and a "Quoted passages" section of block quotes linked to their
// pages (HTML). JSON carries them as each verdict's `passage` (docs/export-schema.md).
import type { Report } from '../../protocol';

type Quoted = Report['verdicts'][number] & { passage: NonNullable<Report['verdicts'][number]['passage']> };

const quotedClaims = (r: Report): Quoted[] =>
  r.verdicts.filter((v): v is Quoted => v.verdict === 'supported' && v.passage !== undefined);

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function sourceLabel(r: Report, q: Quoted): { label: string; href: string } {
  const src = r.sources.find((s) => s.n === q.passage.n);
  if (src?.path) {
    const lines = q.passage.lines ?? src.lines;
    const at = lines ? `#L${lines.start}-L${lines.end}` : '';
    return { label: `${src.path}${lines ? `:${lines.start}–${lines.end}` : ''}`, href: `${encodeURI(src.path)}${at}` };
  }
  return { label: src?.title || src?.url || `source ${q.passage.n}`, href: src?.url ?? '' };
}

/**
 * The report's Markdown with a footnote after the marker of each supported claim that keeps its
 * passage (`… [1][^q1]`), and the footnotes — the quote and its source — at the end.
 */
export function withQuoteFootnotes(r: Report): string {
  let md = r.markdown;
  const notes: string[] = [];
  const inserts: Array<{ at: number; text: string }> = [];
  quotedClaims(r).forEach((q, i) => {
    const id = `q${i + 1}`;
    const { label, href } = sourceLabel(r, q);
    notes.push(`[^${id}]: “${oneLine(q.passage.quote)}” — [${q.passage.n}] ${href ? `[${label}](${href})` : label}`);
    // The claim as written in the report: its first words, whatever Markdown stands between them.
    const words = q.claim.split(/\s+/).slice(0, 6).map(escapeRe);
    const start = new RegExp(words.join('[\\s*_`>[\\]()-]+')).exec(md);
    if (!start) return;
    const marker = new RegExp(`\\[${q.passage.n}\\](?!\\()`, 'g');
    marker.lastIndex = start.index;
    const m = marker.exec(md);
    if (m) inserts.push({ at: m.index + m[0].length, text: `[^${id}]` });
  });
  for (const ins of inserts.sort((a, b) => b.at - a.at)) md = md.slice(0, ins.at) + ins.text + md.slice(ins.at);
  return notes.length ? `${md.trimEnd()}\n\n${notes.join('\n')}` : md;
}

/** "Quoted passages": one block quote per supported claim's passage, linked to its page or file. */
export function quotedPassagesMarkdown(r: Report): string {
  const quoted = quotedClaims(r);
  if (quoted.length === 0) return '';
  const blocks = quoted.map((q) => {
    const { label, href } = sourceLabel(r, q);
    const link = href ? `[[${q.passage.n}] ${label.replace(/[[\]]/g, '')}](${href})` : `[${q.passage.n}] ${label}`;
    return `> ${oneLine(q.passage.quote)}\n>\n> — ${link}, for: *${oneLine(q.claim).replace(/[*_]/g, '')}*`;
  });
  return ['## Quoted passages', '', blocks.join('\n\n')].join('\n');
}
