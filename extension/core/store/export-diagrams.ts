// Mermaid diagrams in the HTML (and so the PDF) exports, drawn on the host with the same code as the
// chat view (extension/protocol/mermaid-svg.ts) and the renderer the caller hands in (beautiful-mermaid,
// from its own bundle: dist/mermaid-draw.js). Like a stored image (export-images.ts), a drawing goes in
// as an <img> with a data: URL only after the page is redacted: the source is redacted before it is
// drawn, and a secret pattern must never match inside (and damage) the picture's encoded text.
// The picture is light, and dark for a reader whose system prefers it (a media rule inside the SVG).
import { drawMermaid, LIGHT_DIAGRAM, svgDataUrl, type MermaidRenderer } from '../../protocol';

const MARK = 'sextant-diagram:';
const MARKED_IMG = /<img src="sextant-diagram:(\d+)"/g;

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** One export's diagrams: drawn while its Markdown is rendered, put in once the page is redacted. */
export class ExportDiagrams {
  private readonly drawn: string[] = [];

  constructor(private readonly render: MermaidRenderer) {}

  /** A ```mermaid block's HTML: its picture (marked, see `embed`), or its source with the reason. */
  html(source: string): string {
    try {
      const d = drawMermaid(this.render, source, LIGHT_DIAGRAM, { darkAlternative: true });
      this.drawn.push(d.svg);
      const size = `width="${d.width}" height="${d.height}"`;
      const img = `<img src="${MARK}${this.drawn.length - 1}" alt="${esc(d.alt)}" ${size}>`;
      return `<figure class="diagram">${img}<details><summary>Source</summary>${code(source)}</details></figure>`;
    } catch (e) {
      return `<div class="block-error"><p role="note">${esc((e as Error).message)}</p>${code(source)}</div>`;
    }
  }

  /** The page with each marked picture's SVG as a data: URL. */
  embed(html: string): string {
    return html.replace(MARKED_IMG, (tag, i: string) => {
      const svg = this.drawn[Number(i)];
      return svg === undefined ? tag : `<img src="${svgDataUrl(svg)}"`;
    });
  }
}

/** A block not drawn because the export had no renderer (a caller that did not load it). */
export function undrawnDiagram(source: string): string {
  return `<figure class="diagram-source"><figcaption>Mermaid diagram (its source)</figcaption>${code(source)}</figure>`;
}

function code(source: string): string {
  return `<pre><code class="language-mermaid">${esc(source)}</code></pre>`;
}
