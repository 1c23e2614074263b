// A research report as a card: the verified Markdown (Summary, Key findings, Conclusion, with `[n]`
// citations), the numbered source list (a list named "Sources": title, link, accessed date), what
// verification found, and Export. Links never navigate the view: they go to the host as openLink.
import { html, nothing, type TemplateResult } from 'lit';
import { ref } from 'lit/directives/ref.js';
import {
  filterLines,
  researchPercent,
  SCOPE_LABEL,
  type Report,
  type ResearchProgress,
} from '../../extension/protocol';
import type { HostChannel } from '../host';
import type { ViewContext } from './base';
import { citedClaim, linkCitations, openPassage, quoteTip, SOURCE_ANCHOR } from './citation-quotes';
import './markdown-view';

const plainTitle = (s: string) =>
  s
    .replace(/[*_`]+/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/**
 * The report's Markdown without the Sources section, which the card draws as a real list, and without
 * the heading that is the card's title (the card's head shows it): wherever the writer put it — after
 * a preamble, with emphasis, closed with #s, as a bold line or a setext heading.
 */
export function reportBody(markdown: string, title: string): string {
  const m = /^#{1,6}\s*Sources\s*$/im.exec(markdown);
  const body = m ? markdown.slice(0, m.index).trimEnd() : markdown;
  const want = plainTitle(title);
  const lines = body.split('\n');
  const at = lines.findIndex((line, i) => {
    const atx = /^\s{0,3}#\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    const bold = /^\s*(?:\*\*|__)(.+)(?:\*\*|__)\s*$/.exec(line)?.[1];
    const setext = /^\s{0,3}=+\s*$/.test(lines[i + 1] ?? '') ? line : undefined;
    const text = atx ?? bold ?? setext;
    return text !== undefined && plainTitle(text) === want;
  });
  if (at < 0) return body;
  const drop = /^\s{0,3}=+\s*$/.test(lines[at + 1] ?? '') ? 2 : 1;
  lines.splice(at, drop);
  return lines.join('\n').replace(/^\s*\n/, '');
}

const FLOOR_LABELS = {
  pinned: 'pinned to a passage',
  kept: 'kept on word overlap (older report)',
  judge: 'sent to the model',
  rejected: 'rejected as unrelated',
} as const;
const floorLabel = (f: NonNullable<Report['verdicts'][number]['floor']>) =>
  `${FLOOR_LABELS[f.decision]}, score ${f.score.toFixed(2)}`;

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function renderReportCard(report: Report, ctx: ViewContext): TemplateResult {
  const host: HostChannel = ctx.host;
  const open = (e: Event, url: string) => {
    e.preventDefault();
    host.post({ type: 'openLink', url });
  };
  const openFile = (e: Event | undefined, src: Report['sources'][number]) => {
    e?.preventDefault();
    if (src.path) host.post({ type: 'openSource', path: src.path, start: src.lines?.start, end: src.lines?.end });
  };
  // The Markdown view keeps in-page links from navigating; a citation opens its passage (or its file).
  const linkOf = (e: Event) => (e.target as Element | null)?.closest?.('a') ?? undefined;
  const onBodyClick = (e: Event) => {
    const href = linkOf(e)?.getAttribute('href') ?? '';
    const claim = citedClaim(report, href);
    if (claim) {
      e.preventDefault();
      openPassage(host, report, claim);
      return;
    }
    if (!href.startsWith(SOURCE_ANCHOR)) return;
    const src = report.sources.find((s) => s.n === Number(href.slice(SOURCE_ANCHOR.length)));
    if (src) openFile(e, src);
  };
  // One tooltip per card shows the quote of the citation under the pointer or with the keyboard focus.
  const tipId = `quote-tip-${report.id}`;
  const tipOf = (e: Event) => (e.currentTarget as Element).parentElement?.querySelector<HTMLElement>(`.citation-tip`);
  const showTip = (e: Event) => {
    const a = linkOf(e);
    const claim = a && citedClaim(report, a.getAttribute('href') ?? '');
    const tip = tipOf(e);
    if (!a || !claim || !tip) return;
    const { quote, meta } = quoteTip(report, claim);
    (tip.querySelector('.citation-tip-quote') as HTMLElement).textContent = quote;
    (tip.querySelector('.citation-tip-meta') as HTMLElement).textContent = meta;
    a.setAttribute('aria-describedby', tipId);
    tip.hidden = false;
    const box = a.getBoundingClientRect();
    const card = (e.currentTarget as HTMLElement).getBoundingClientRect();
    tip.style.top = `${box.bottom - card.top + 4}px`;
  };
  const hideTip = (e: Event) => {
    const tip = tipOf(e);
    if (tip) tip.hidden = true;
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') hideTip(e);
  };
  const where = [report.scope ? `Scope: ${SCOPE_LABEL[report.scope]}` : '', ...filterLines(report.filters)].filter(
    Boolean,
  );
  const s = report.stats;
  const flagged = report.verdicts.filter((v) => v.verdict !== 'supported');
  const counts = `${plural(s.searches, 'search', 'searches')}, ${plural(s.sourcesRead, 'page')} read`;
  const partial = report.partial;
  return html`<section class="report-card card" role="region" aria-label="Report">
    <div class="report-head">
      <span class="report-title">${report.title}</span>
      ${partial ? html`<span class="badge report-partial" title=${partial.detail}>Partial</span>` : nothing}
      <span class="badge" title="Cited claims checked against the pages they cite"
        >${s.supported} of ${s.claims} claims verified</span
      >
    </div>
    ${partial ? html`<p class="report-partial-note" role="note">Partial report. ${partial.detail}</p>` : nothing}
    ${where.length ? html`<p class="report-filters" aria-label="Source filters">${where.join(' · ')}</p>` : nothing}
    <div
      class="report-body"
      @click=${onBodyClick}
      @mouseover=${showTip}
      @focusin=${showTip}
      @mouseout=${hideTip}
      @focusout=${hideTip}
      @keydown=${onKey}
    >
      <sx-markdown
        .ctx=${ctx}
        .text=${linkCitations(reportBody(report.markdown, report.title), report)}
        .streaming=${false}
      ></sx-markdown>
    </div>
    <div class="citation-tip" role="tooltip" id=${tipId} hidden>
      <span class="citation-tip-quote"></span>
      <span class="citation-tip-meta"></span>
    </div>
    <h3 class="report-sources-title" id=${`sources-${report.id}`}>Sources</h3>
    <ol class="report-sources" aria-label="Sources">
      ${report.sources.map((src) =>
        src.path
          ? html`<li value=${src.n}>
                <a
                  href=${`${SOURCE_ANCHOR}${src.n}`}
                  title=${`Open ${src.path} at these lines`}
                  @click=${(e: Event) => openFile(e, src)}
                  >${src.path}${src.lines ? `:${src.lines.start}–${src.lines.end}` : ''}</a
                >
                <span class="report-source-meta">· workspace file · read ${day(src.accessedAt)}</span>
              </li>`
          : html`<li value=${src.n}>
                <a href=${src.url} title=${src.url} @click=${(e: Event) => open(e, src.url)}>${src.title || src.url}</a>
                <span class="report-source-meta">· ${hostOf(src.url)} · accessed ${day(src.accessedAt)}</span>
              </li>`,
      )}
    </ol>
    <details class="report-notes">
      <summary>Verification and notes (${counts})</summary>
      <ul>
        ${report.notes.map((n) => html`<li>${n}</li>`)}
      </ul>
      ${
        flagged.length
          ? html`<h3>Claims not verified</h3>
              <ul class="report-flagged">
                ${flagged.map(
                  (v) =>
                    html`<li>
                      <span class="badge">${v.verdict}</span> ${v.claim}${v.reason ? html` — ${v.reason}` : nothing}${
                        v.floor ? html` <span class="report-floor">(floor: ${floorLabel(v.floor)})</span>` : nothing
                      }
                    </li>`,
                )}
              </ul>`
          : nothing
      }
    </details>
    <div class="actions report-actions">
      <vscode-button @click=${() => host.post({ type: 'exportReport', reportId: report.id })}
        >Export report…</vscode-button
      >
    </div>
  </section>`;
}

const PHASE_LABELS: Record<ResearchProgress['phase'], string> = {
  planning: 'Planning the searches',
  searching: 'Searching',
  reading: 'Reading sources',
  evaluating: 'Looking for gaps',
  writing: 'Writing the report',
  verifying: 'Checking citations',
  done: 'Done',
};

/** Sets the bar's width through the CSSOM: the view's CSP refuses inline style attributes. */
function width(pct: number): (el: Element | undefined) => void {
  return (el) => {
    if (el instanceof HTMLElement) el.style.width = `${pct}%`;
  };
}

export function renderResearchProgress(p: ResearchProgress): TemplateResult {
  const pct = researchPercent(p);
  const counts = `${p.searchesDone}/${p.searchesPlanned} searches · ${p.sourcesRead} sources read`;
  const detail = p.detail ? ` · ${p.detail}` : '';
  return html`<div class="research-progress">
    <div
      class="research-bar"
      role="progressbar"
      aria-label="Research progress"
      aria-valuemin="0"
      aria-valuemax="100"
      aria-valuenow=${pct}
      aria-valuetext=${`${PHASE_LABELS[p.phase]} — ${counts}`}
    >
      <div class="research-bar-fill" ${ref(width(pct))}></div>
    </div>
    <div class="research-status" aria-live="polite">
      <span class="research-phase">${PHASE_LABELS[p.phase]}</span> · ${counts}${detail}
    </div>
    ${
      p.branches?.length
        ? html`<ul class="research-branches" aria-label="Sub-researchers">
            ${p.branches.map(
              (b) =>
                html`<li class=${`branch-${b.status}`}>
                  <span class="badge">${b.status}</span> ${b.question}
                  <span class="report-source-meta"
                    >· ${plural(b.searches, 'search', 'searches')}, ${plural(b.sources, 'source')}</span
                  >
                </li>`,
            )}
          </ul>`
        : nothing
    }
  </div>`;
}
