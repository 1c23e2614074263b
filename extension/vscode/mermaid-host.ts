// The Mermaid renderer for exports, required from its own bundle (dist/mermaid-draw.js, ~2 MB) the first
// time an export draws a diagram — never at activation, never with the runtime, never for an export
// without one. If the bundle cannot be loaded, each diagram shows its source and that reason.
import * as path from 'node:path';
import type { Logger } from '../core/ports';
import type { MermaidRenderer } from '../protocol';

let loaded: MermaidRenderer | undefined;

/** A renderer that loads beautiful-mermaid's renderMermaidSVG on its first call. */
export function lazyMermaidRenderer(log: Logger): MermaidRenderer {
  return (source, options) => {
    if (!loaded) {
      try {
        loaded = (require(path.join(__dirname, 'mermaid-draw.js')) as { renderMermaidSVG: MermaidRenderer })
          .renderMermaidSVG;
      } catch (e) {
        log.warn(`Mermaid renderer did not load: ${(e as Error).message}`);
        throw new Error(`the diagram renderer did not load (${(e as Error).message})`);
      }
    }
    return loaded(source, options);
  };
}
