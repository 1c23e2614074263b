// HTML export: one self-contained file. Sanitised by construction — Markdown is rendered with
// raw HTML escaped, links limited to http(s)/mailto/#fragments, images turned into links (no
// remote loads) — and a Content-Security-Policy that forbids every script and remote request
// as a second line of defence. Tool cards and thinking fold with <details> (no JS needed).
import { Marked, type Tokens } from 'marked';
import {
  attachmentLine,
  planArtifactToMarkdown,
  sessionUsage,
  usageLine,
  type ChatMessage,
  type MessagePart,
} from '../../protocol';
import type { ExportInput } from './export';
import { subagentHead, subagentTranscript } from './export-subagent';
import { htmlImage, imageRefLabel } from './export-images';
import { RICH_CSS, richBlocks } from './export-rich';
import type { ExportDiagrams } from './export-diagrams';

export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

export function safeHref(href: string): string | undefined {
  const h = href.trim();
  if (/^#[\w-]*$/.test(h)) return h;
  try {
    const u = new URL(h);
    return u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'mailto:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/** `diagrams`: draws the Mermaid blocks (without it they show as their source). */
export function markdownRenderer(diagrams?: ExportDiagrams): Marked {
  const marked = new Marked({ gfm: true, breaks: false, async: false });
  // Math, charts and diagrams (export-rich.ts); a wide table scrolls on its own instead of the page.
  marked.use(richBlocks(diagrams), {
    hooks: {
      postprocess: (html: string) =>
        html.replace(/<table>/g, '<div class="table-scroll"><table>').replace(/<\/table>/g, '</table></div>'),
    },
  });
  marked.use({
    renderer: {
      html(token: Tokens.HTML | Tokens.Tag) {
        return escapeHtml(token.text);
      },
      link(token: Tokens.Link) {
        const text = this.parser.parseInline(token.tokens);
        const href = safeHref(token.href);
        if (!href) return text;
        const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
        return `<a href="${escapeHtml(href)}"${title} rel="noopener noreferrer nofollow">${text}</a>`;
      },
      image(token: Tokens.Image) {
        const href = safeHref(token.href);
        const label = escapeHtml(token.text || 'image');
        return href && !href.startsWith('#')
          ? `<a href="${escapeHtml(href)}" rel="noopener noreferrer nofollow">[image: ${label}]</a>`
          : `[image: ${label}]`;
      },
    },
  });
  return marked;
}

const EXPORT_CSS = `
:root{color-scheme:light dark;--fg:#1f2328;--muted:#59636e;--bg:#fff;--card:#f6f8fa;--border:#d1d9e0;--accent:#0969da}
@media (prefers-color-scheme:dark){
:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--card:#151b23;--border:#3d444d;--accent:#4493f8}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.6 system-ui,-apple-system,"Segoe UI",sans-serif}
main{max-width:860px;margin:0 auto;padding:2rem 1.25rem 4rem}h1{font-size:1.7rem;margin:0 0 .25rem}
.meta{color:var(--muted);font-size:.9rem;margin-bottom:2rem}
article{border-top:1px solid var(--border);padding:1rem 0}article>header{font-weight:600;margin-bottom:.5rem}
article>header .when{color:var(--muted);font-weight:400;font-size:.85rem;margin-left:.5rem}
article.user>header{color:var(--accent)}
a{color:var(--accent)}pre,code{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:var(--card);border:1px solid var(--border);border-radius:6px;padding:.75rem;overflow:auto;
white-space:pre-wrap;word-break:break-word}
:not(pre)>code{background:var(--card);padding:.1em .3em;border-radius:4px}
details{border:1px solid var(--border);border-radius:6px;margin:.5rem 0;padding:.25rem .75rem;background:var(--card)}
summary{cursor:pointer}.status{color:var(--muted);font-size:.85rem}
.error{border-left:3px solid #cf222e;padding-left:.75rem}
table{border-collapse:collapse}td,th{border:1px solid var(--border);padding:.25rem .5rem}
blockquote{margin:0;padding-left:1rem;border-left:3px solid var(--border);color:var(--muted)}
.images img{max-width:100%;height:auto;max-height:24rem;border:1px solid var(--border);margin:.25rem}
.todos li{list-style:none}.todos li::before{content:"☐ "}.todos li.completed::before{content:"☑ "}
${RICH_CSS}`;

/** Nothing may load or run: the styles are inline, images only data: URIs. */
export const EXPORT_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const iso = (ms: number) => new Date(ms).toISOString();

function part(p: MessagePart, md: Marked): string {
  if (p.type === 'text') return md.parse(p.text, { async: false });
  if (p.type === 'thinking')
    return `<details><summary>Thinking</summary>${md.parse(p.text, { async: false })}</details>`;
  if (p.type === 'plan')
    return `<section class="plan" aria-label="Plan"><p class="status">Plan — ${escapeHtml(p.plan.status)}</p>${md.parse(
      planArtifactToMarkdown(p.plan),
      { async: false },
    )}</section>`;
  if (p.type === 'report') {
    const notes = p.report.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('');
    const head = `<p class="status">Report — ${escapeHtml(p.report.title)}</p>`;
    const body = md.parse(p.report.markdown, { async: false });
    const tail = notes ? `<p>Verification notes</p><ul>${notes}</ul>` : '';
    return `<section class="report" aria-label="Report">${head}${body}${tail}</section>`;
  }
  if (p.type === 'compaction') {
    const head = `Earlier turns compacted (${p.compaction.replaces} messages) — brief`;
    const brief = md.parse(p.compaction.brief, { async: false });
    return `<details class="compaction"><summary>${head}</summary>${brief}</details>`;
  }
  if (p.type === 'notice') return `<p class="notice" role="note">${escapeHtml(p.notice.text)}</p>`;
  if (p.type === 'attachments') {
    const images = p.attachments.flatMap((a) => (a.image ? [htmlImage(a.image, a.label)] : []));
    return `<p class="attachments">Attached: ${p.attachments
      .map((a) => `<code>${escapeHtml(attachmentLine(a))}</code>`)
      .join(', ')}</p>${images.length ? `<p class="images">${images.join('')}</p>` : ''}`;
  }
  const c = p.call;
  const body = c.detail ?? c.preview ?? c.liveOutput;
  const duration = c.durationMs !== undefined ? ` · ${c.durationMs} ms` : '';
  const why = c.summary ? `: ${escapeHtml(c.summary)}` : '';
  const status = `<span class="status">${escapeHtml(c.status)}${duration}${why}</span>`;
  const summary = `Tool: ${escapeHtml(c.name)} — <code>${escapeHtml(c.subject)}</code> ${status}`;
  const sub = c.subagent
    ? `<details class="subagent" open><summary>${escapeHtml(subagentHead(c.subagent))}</summary>` +
      `<pre>${escapeHtml(subagentTranscript(c.subagent))}</pre></details>`
    : '';
  const shots = (c.images ?? []).map((i) => htmlImage(i, imageRefLabel(i, 'screenshot')));
  const shown =
    (body ? `<pre>${escapeHtml(body)}</pre>` : '') + (shots.length ? `<p class="images">${shots.join('')}</p>` : '');
  return `<details class="tool"><summary>${summary}</summary>${shown}${sub}</details>`;
}

function message(m: ChatMessage, md: Marked): string {
  const who = m.role === 'user' ? 'You' : `Sextant${m.model ? ` · ${escapeHtml(m.model)}` : ''}`;
  const parts = m.parts.map((p) => part(p, md)).join('\n');
  const extra = [
    m.status === 'stopped' ? '<p class="status">Stopped before it finished.</p>' : '',
    m.error
      ? `<p class="error"><strong>Error (${escapeHtml(m.error.code)}):</strong> ${escapeHtml(m.error.message)}</p>`
      : '',
    m.usage ? `<p class="status">Usage: ${escapeHtml(usageLine(m.usage))}</p>` : '',
  ].join('');
  const header = `<header>${who}<span class="when">${escapeHtml(m.mode)} · ${iso(m.createdAt)}</span></header>`;
  const label = m.role === 'user' ? 'You' : 'Sextant';
  return `<article class="${m.role}" aria-label="${label}">${header}${parts}${extra}</article>`;
}

export function renderHtml({ session, artifacts }: ExportInput, now: number, diagrams?: ExportDiagrams): string {
  const md = markdownRenderer(diagrams);
  const total = sessionUsage(session.messages);
  const body: string[] = [
    `<h1>${escapeHtml(session.title)}</h1>`,
    `<p class="meta">Mode ${escapeHtml(session.mode)} · Model ${escapeHtml(session.model)} · ` +
      `Created ${iso(session.createdAt)} · Exported ${iso(now)} by Sextant</p>`,
    ...(total.answers ? [`<p class="meta">Usage: ${escapeHtml(usageLine(total))}</p>`] : []),
    ...session.messages.map((m) => message(m, md)),
  ];
  if (session.todos.length) {
    const items = session.todos.map((t) => `<li class="${escapeHtml(t.status)}">${escapeHtml(t.content)}</li>`);
    body.push(`<section><h2>Todos</h2><ul class="todos">${items.join('')}</ul></section>`);
  }
  for (const a of artifacts) {
    const sources = a.citations?.length
      ? `<h3>Sources</h3><ol>${a.citations
          .map((c) => {
            const href = safeHref(c.url);
            const label = escapeHtml(c.title ?? c.url);
            // The URL is printed too: a saved or printed report must still say where a claim came from.
            const url = c.title ? ` <span class="status">${escapeHtml(c.url)}</span>` : '';
            const link = href ? `<a href="${escapeHtml(href)}" rel="noopener noreferrer nofollow">${label}</a>` : label;
            return `<li value="${c.n}">${link}${url}</li>`;
          })
          .join('')}</ol>`
      : '';
    const heading = `<h2>${escapeHtml(a.kind)}: ${escapeHtml(a.title)}</h2>`;
    body.push(`<section class="artifact">${heading}${md.parse(a.content, { async: false })}${sources}</section>`);
  }
  return htmlDocument(session.title, body.join('\n'));
}

/** A self-contained page: our CSS inline, a CSP under which nothing loads or runs, no referrer. */
export function htmlDocument(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${EXPORT_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title><style>${EXPORT_CSS}</style></head>
<body><main>
${body}
</main></body></html>
`;
}
