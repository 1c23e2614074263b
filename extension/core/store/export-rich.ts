// Math, charts and diagrams in the HTML (and so the PDF) exports — the same syntax the chat view draws
// (extension/protocol/report-blocks.ts). An export runs no script (its CSP), so everything is drawn
// here, on the host: TeX becomes MathML with KaTeX (browsers draw MathML themselves: no fonts, no CSS
// to embed), a ```chart table becomes our SVG bars, a ```mermaid block a picture drawn by `diagrams`
// (export-diagrams.ts; without it, the source with a caption). A block that cannot be drawn shows its
// source and why.
import katex from 'katex';
import type { MarkedExtension, Tokens } from 'marked';
import { chartSvg, MATH_TYPESETTING, mathExtensions, parseChart } from '../../protocol';
import { undrawnDiagram, type ExportDiagrams } from './export-diagrams';

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** TeX as MathML (KaTeX, `trust: false`: no links, no images); bad TeX shows as code with the reason. */
export function mathHtml(tex: string, display: boolean): string {
  try {
    const mathml = katex.renderToString(tex, { ...MATH_TYPESETTING, displayMode: display });
    return display ? `<div class="math-display">${mathml}</div>` : mathml;
  } catch (e) {
    const why = `Formula could not be typeset: ${message(e)}`;
    return display ? failed(why, tex) : `<code class="math-error" title="${esc(why)}">${esc(tex)}</code>`;
  }
}

/** The marked extension the export renderer uses: math, ```chart, ```math and ```mermaid blocks. */
export function richBlocks(diagrams?: ExportDiagrams): MarkedExtension {
  return {
    extensions: mathExtensions(mathHtml),
    renderer: {
      code(token: Tokens.Code): string | false {
        const lang = (token.lang ?? '').trim().toLowerCase();
        if (lang === 'math') return mathHtml(token.text, true);
        if (lang === 'chart') {
          try {
            return `<figure class="chart">${chartSvg(parseChart(token.text))}</figure>`;
          } catch (e) {
            return failed(`Chart could not be drawn: ${message(e)}`, token.text);
          }
        }
        if (lang === 'mermaid') return diagrams ? diagrams.html(token.text) : undrawnDiagram(token.text);
        return false;
      },
    },
  };
}

function failed(why: string, source: string): string {
  return `<div class="block-error"><p role="note">${esc(why)}</p><pre><code>${esc(source)}</code></pre></div>`;
}

function message(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ').trim().slice(0, 300);
}

/** The export stylesheet's part for these blocks (wide ones scroll on screen; print wraps them). */
export const RICH_CSS = `
.table-scroll,figure.chart,figure.diagram,.math-display{overflow-x:auto;max-width:100%}
figure{margin:.75rem 0}figure.chart svg{color:var(--fg)}figure.diagram img{max-width:none;height:auto}
figure.diagram summary{color:var(--muted);font-size:.85rem}
.math-display math{display:block;font-size:1.15em}
.block-error{border-left:3px solid #cf222e;padding-left:.75rem}.block-error p{color:#cf222e;margin:0 0 .25rem}
figure.diagram-source figcaption{color:var(--muted);font-size:.85rem}
.math-error{text-decoration:underline wavy #cf222e}
@media print{.table-scroll,figure.chart,figure.diagram{overflow:visible}table{font-size:.8rem}
figure.diagram img{max-width:100%}figure.diagram details{display:none}}
`;
