// A research report on its own, for "Export Report…": Markdown (the report, its Sources list, what
// verification found and each quote as a footnote), self-contained HTML (same sanitising renderer and
// CSP as session exports; quotes as linked block quotes) and JSON (the whole report: sources, per-claim
// verdicts with their passages, notes, counts). Secrets are redacted twice,
// before and after rendering, as for sessions.
import type { Report } from '../../protocol';
import { escapeHtml, htmlDocument, markdownRenderer } from './export-html';
import { quotedPassagesMarkdown, withQuoteFootnotes } from './export-report-quotes';
import { renderRedacted, type ExportFormat, type ExportOptions } from './export';
import { ExportDiagrams } from './export-diagrams';

export const REPORT_EXPORT_FORMAT = 'sextant.report';
export const REPORT_EXPORT_VERSION = 1;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function verificationMarkdown(r: Report): string {
  const out = ['## Verification', '', ...r.notes.map((n) => `- ${n}`)];
  const flagged = r.verdicts.filter((v) => v.verdict !== 'supported');
  if (flagged.length) {
    out.push('', '| Claim | Cites | Verdict | Why |', '|---|---|---|---|');
    const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
    for (const v of flagged)
      out.push(
        `| ${cell(v.claim)} | ${v.cites.map((n) => `[${n}]`).join('')} | ${v.verdict} | ${cell(v.reason ?? '')} |`,
      );
  }
  return out.join('\n');
}

function renderMarkdown(r: Report, now: number): string {
  return [
    withQuoteFootnotes(r).trim(),
    '',
    verificationMarkdown(r),
    '',
    `---`,
    `*Research report by Sextant. Question: ${r.question.replace(/\s+/g, ' ')} · written ${day(r.createdAt)} · ` +
      `exported ${day(now)}.*`,
    '',
  ].join('\n');
}

function renderHtml(r: Report, now: number, diagrams?: ExportDiagrams): string {
  const md = markdownRenderer(diagrams);
  const meta =
    `<p class="meta">Research report by Sextant · Question: ${escapeHtml(r.question)} · ` +
    `written ${day(r.createdAt)} · exported ${day(now)}</p>`;
  const quotes = quotedPassagesMarkdown(r);
  const body =
    `${md.parse(r.markdown, { async: false })}\n${quotes ? md.parse(quotes, { async: false }) : ''}\n` +
    md.parse(verificationMarkdown(r), { async: false });
  return htmlDocument(r.title, `${meta}\n${body}`);
}

function renderJson(r: Report, now: number): string {
  const doc = { format: REPORT_EXPORT_FORMAT, version: REPORT_EXPORT_VERSION, exportedAt: now, report: r };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export function exportReport(report: Report, format: ExportFormat, opts: ExportOptions = {}): string {
  // Diagrams go in after redaction, as in session exports (export-diagrams.ts).
  const diagrams = format === 'html' && opts.mermaid ? new ExportDiagrams(opts.mermaid) : undefined;
  const html = (clean: Report, now: number) => renderHtml(clean, now, diagrams);
  const page = renderRedacted(report, format, opts, { markdown: renderMarkdown, html, json: renderJson });
  return diagrams ? diagrams.embed(page) : page;
}
