// A research report on its own, for "Export Report…": Markdown (the report, its Sources list and what
// verification found), self-contained HTML (same sanitising renderer and CSP as session exports) and
// JSON (the whole report: sources, per-claim verdicts, notes, counts). Secrets are redacted twice,
// before and after rendering, as for sessions.
import type { Report } from '../../protocol';
import { createRedactor, redactDeep } from '../security/redact';
import { escapeHtml, EXPORT_CSP, EXPORT_CSS, markdownRenderer } from './export-html';
import type { ExportFormat } from './export';

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
    r.markdown.trim(),
    '',
    verificationMarkdown(r),
    '',
    `---`,
    `*Research report by Sextant. Question: ${r.question.replace(/\s+/g, ' ')} · written ${day(r.createdAt)} · ` +
      `exported ${day(now)}.*`,
    '',
  ].join('\n');
}

function renderHtml(r: Report, now: number): string {
  const md = markdownRenderer();
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${EXPORT_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(r.title)}</title><style>${EXPORT_CSS}</style></head>
<body><main>
<p class="meta">Research report by Sextant · Question: ${escapeHtml(r.question)} ·
written ${day(r.createdAt)} · exported ${day(now)}</p>
${md.parse(r.markdown, { async: false })}
${md.parse(verificationMarkdown(r), { async: false })}
</main></body></html>
`;
}

function renderJson(r: Report, now: number): string {
  const doc = { format: REPORT_EXPORT_FORMAT, version: REPORT_EXPORT_VERSION, exportedAt: now, report: r };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export function exportReport(
  report: Report,
  format: ExportFormat,
  opts: { secrets?: Iterable<string>; now?: number } = {},
): string {
  const redact = createRedactor(opts.secrets ?? []);
  const clean = redactDeep(report, redact);
  const now = opts.now ?? Date.now();
  const text =
    format === 'markdown'
      ? renderMarkdown(clean, now)
      : format === 'html'
        ? renderHtml(clean, now)
        : renderJson(clean, now);
  return redact(text);
}
