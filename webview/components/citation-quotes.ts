// Citations that show what they rest on: each `[n]` of a verified claim in the report card becomes a
// link that shows the quoted passage on hover and on keyboard focus (one tooltip per card, described
// by aria-describedby; Escape hides it), and opens the source at that passage — a web page's stored
// text with the quote selected, a workspace file at the quote's lines.
import type { Report } from '../../extension/protocol';
import type { HostChannel } from '../host';

/** A citation marker linked to the claim it belongs to: `#sx-cite-<claim index>-<n>`. */
export const CITE_ANCHOR = '#sx-cite-';
/** A workspace source's marker with no quote: opens the file at the source's lines. */
export const SOURCE_ANCHOR = '#sx-source-';

type Verdict = Report['verdicts'][number];

/**
 * Every `[n]` outside code as a link: to its claim's passage when the claim was verified with one, else
 * (a workspace file) to the file. Claims are matched to markers in order: the verdicts follow the
 * report's cited sentences, each marker belongs to the first claim from the current one on that cites it.
 */
export function linkCitations(markdown: string, report: Pick<Report, 'sources' | 'verdicts'>): string {
  const files = new Set(report.sources.filter((s) => s.path).map((s) => s.n));
  let at = 0;
  const claimFor = (n: number): number => {
    const k = report.verdicts.findIndex((v, i) => i >= at && v.cites.includes(n));
    if (k >= 0) at = k;
    return k;
  };
  let fenced = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
      if (fenced) return line;
      return line
        .split(/(`[^`]*`)/)
        .map((part, i) =>
          i % 2
            ? part
            : part.replace(/\[(\d+)\](?!\()/g, (m, digits: string) => {
                const n = Number(digits);
                const k = claimFor(n);
                const v = k >= 0 ? report.verdicts[k] : undefined;
                if (v?.verdict === 'supported' && v.passage?.n === n) return `[${m}](${CITE_ANCHOR}${k}-${n})`;
                return files.has(n) ? `[${m}](${SOURCE_ANCHOR}${n})` : m;
              }),
        )
        .join('');
    })
    .join('\n');
}

/** The claim a citation link stands for, if the href is one. */
export function citedClaim(report: Report, href: string): Verdict | undefined {
  const m = /^#sx-cite-(\d+)-(\d+)$/.exec(href);
  return m ? report.verdicts[Number(m[1])] : undefined;
}

/** Opens a verified claim's passage: a workspace file at its lines, a page's stored text at its characters. */
export function openPassage(host: HostChannel, report: Report, v: Verdict): void {
  const p = v.passage;
  if (!p) return;
  const src = report.sources.find((s) => s.n === p.n);
  if (src?.path) host.post({ type: 'openSource', path: src.path, start: p.lines?.start, end: p.lines?.end });
  else host.post({ type: 'openSourceQuote', reportId: report.id, n: p.n, start: p.start, end: p.end });
}

const VERIFIED_BY = { 'passage-match': 'matched word for word', judge: 'checked by the model' } as const;

/** The tooltip's text for a claim: the quote, its source and what verified it. */
export function quoteTip(report: Report, v: Verdict): { quote: string; meta: string } {
  const p = v.passage;
  const src = report.sources.find((s) => s.n === p?.n);
  const where = src?.path ? `${src.path}${p?.lines ? `:${p.lines.start}` : ''}` : (src?.title ?? '');
  const how = v.verifiedBy ? ` · ${VERIFIED_BY[v.verifiedBy]}` : '';
  return { quote: `“${p?.quote.replace(/\s+/g, ' ').trim() ?? ''}”`, meta: `[${p?.n}] ${where}${how}` };
}
