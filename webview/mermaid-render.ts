// Drawing Mermaid, in its own chunk (loaded by mermaid-blocks.ts the first time an answer holds a
// diagram): beautiful-mermaid (with elkjs for the layout) needs no DOM and writes the picture as an
// SVG string, which extension/protocol/mermaid-svg.ts checks and neutralises — the same code the
// exports draw with.
import { renderMermaidSVG } from 'beautiful-mermaid';
import { drawMermaid, type DiagramColours, type DrawnDiagram } from '../extension/protocol/mermaid-svg';

/** The diagram drawn in `colours`; throws DiagramError with the sentence to show when it cannot be. */
export function renderDiagram(source: string, colours: DiagramColours): DrawnDiagram {
  return drawMermaid(renderMermaidSVG, source, colours);
}
