// A Mermaid diagram drawn to a picture, the same way in the chat view and the exports: the renderer
// (beautiful-mermaid's renderMermaidSVG, handed in by each side's own bundle so this file imports
// nothing) draws the prepared source, its SVG is checked (a drawing with nothing in it is a failure,
// not a blank) and neutralised, then shown as an <img> with a data: URL — a picture runs no script,
// loads nothing and needs no style in our page. Neutralising is defence in depth on top of that: the
// renderer's `@import url(https://fonts.googleapis.com/…)`, any url() that is not a local #fragment
// (a `style A fill:url(https://…)` line lands in an attribute), links, scripts, foreign objects and
// event attributes are taken out, so even an SVG opened on its own reaches nothing.
import { diagramFailure, DiagramError, prepareMermaid } from './mermaid-source';

/** The colours a diagram is drawn in (the renderer's options); each one a CSS colour we checked. */
export interface DiagramColours {
  bg: string;
  fg: string;
  line?: string;
  accent?: string;
  muted?: string;
  surface?: string;
  border?: string;
}

/** The renderer: beautiful-mermaid's `renderMermaidSVG`, or a stand-in with its shape. */
export type MermaidRenderer = (
  source: string,
  options: DiagramColours & { font?: string; transparent?: boolean },
) => string;

export interface DrawnDiagram {
  /** The neutralised SVG. */
  svg: string;
  /** The picture's text alternative: its type and title, or its first labels. */
  alt: string;
  width: number;
  height: number;
}

/** Colours for documents with no theme of their own (exports): light, and dark when the reader prefers it. */
export const LIGHT_DIAGRAM: DiagramColours = { bg: '#ffffff', fg: '#1f2328', accent: '#0969da' };
const DARK_DIAGRAM: DiagramColours = { bg: '#0d1117', fg: '#e6edf3', accent: '#4493f8' };

const COLOUR = /^(?:#[0-9a-f]{3,8}|(?:rgb|hsl)a?\(\s*[-\d.%\s,/]+\)|[a-z]{3,20})$/i;

/** `value` when it is a plain CSS colour (hex, rgb(), hsl() or a name), else undefined. */
export function cssColour(value: string | undefined): string | undefined {
  const v = value?.trim();
  return v && COLOUR.test(v) && !/^(?:inherit|initial|unset|revert|currentcolor|transparent)$/i.test(v) ? v : undefined;
}

/** Draws `text` with `render`; throws DiagramError with the sentence to show when it cannot. */
export function drawMermaid(
  render: MermaidRenderer,
  text: string,
  colours: DiagramColours,
  opts: { darkAlternative?: boolean } = {},
): DrawnDiagram {
  const diagram = prepareMermaid(text);
  const safe: DiagramColours = { bg: cssColour(colours.bg) ?? '#ffffff', fg: cssColour(colours.fg) ?? '#1f2328' };
  for (const k of ['line', 'accent', 'muted', 'surface', 'border'] as const) {
    const c = cssColour(colours[k]);
    if (c) safe[k] = c;
  }
  let raw: string;
  try {
    raw = render(diagram.source, { ...safe, transparent: true });
  } catch (e) {
    throw diagramFailure(e);
  }
  const svg = neutraliseSvg(raw, opts.darkAlternative ? DARK_DIAGRAM : undefined);
  const labels = svgLabels(svg);
  const body = svg.replace(/<defs>[\s\S]*?<\/defs>/g, '').replace(/<style>[\s\S]*?<\/style>/g, '');
  if (!labels.length && !/<(?:text|rect|path|polyline|circle|ellipse|line)\b/.test(body))
    throw new DiagramError('Diagram not drawn: it has nothing to draw (no node or statement the renderer could read)');
  const width = Number(/<svg\b[^>]*?\swidth="([\d.]+)"/.exec(svg)?.[1]);
  const height = Number(/<svg\b[^>]*?\sheight="([\d.]+)"/.exec(svg)?.[1]);
  if (!(width > 0 && height > 0)) throw new DiagramError('Diagram not drawn: the renderer returned no picture');
  const named = diagram.title ?? (labels.length ? labels.slice(0, 6).join(', ') : undefined);
  const alt = [`${diagram.type}${named ? `: ${named}` : ''}`, diagram.description].filter(Boolean).join('. ');
  return { svg, alt, width: Math.ceil(width), height: Math.ceil(height) };
}

const FONT = 'system-ui, -apple-system, "Segoe UI", Ubuntu, sans-serif';

/**
 * The renderer's SVG with everything that could reach outside it taken out (see the file's head), its
 * font set to the system's, and optionally a second palette for readers who prefer a dark scheme.
 */
export function neutraliseSvg(svg: string, dark?: DiagramColours): string {
  // Labels are text the renderer escaped (`&lt;`), so a raw `<` only ever starts real markup: elements and
  // attributes are cleaned tag by tag, and a label's text is never touched.
  let out = svg
    .replace(/<script\b[\s\S]*?(?:<\/script\s*>|$)/gi, '')
    .replace(/<foreignObject\b[\s\S]*?(?:<\/foreignObject\s*>|$)/gi, '')
    .replace(/<(?:image|iframe|object|embed|audio|video)\b[^>]*>/gi, '')
    .replace(/<\/?a\b[^>]*>/gi, '')
    .replace(/(<style\b[^>]*>)([\s\S]*?)(<\/style>)/gi, (_, open: string, css: string, close: string) => {
      const clean = localUrls(css.replace(/@import\b[^;]*;?/gi, ''));
      return `${open}${clean.replace(/text\s*\{\s*font-family:[^}]*\}/, `text { font-family: ${FONT}; }`)}${close}`;
    })
    .replace(/<[A-Za-z][^>]*>/g, cleanTag);
  if (dark) {
    // The palette is set on the <svg> element's style, so the dark one needs !important to win.
    const vars = Object.entries(dark)
      .map(([k, v]) => `--${k}: ${v} !important;`)
      .join(' ');
    out = out.replace('</style>', `  @media (prefers-color-scheme: dark) { svg { ${vars} } }\n</style>`);
  }
  return out;
}

/** An opening tag without event handlers or links, its url()s local only. */
function cleanTag(tag: string): string {
  const m = /^<([A-Za-z][\w:.-]*)([\s\S]*?)(\/?)>$/.exec(tag);
  if (!m) return '';
  const attrs = [...m[2].matchAll(/([^\s=/>"']+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>"']+))?/g)]
    .filter(([, name]) => !/^(?:on|(?:xlink:)?href$|src$)/i.test(name))
    // A data- attribute (the renderer's copy of a label) references nothing: kept as written.
    .map(([, name, value]) =>
      value === undefined ? ` ${name}` : ` ${name}=${name.startsWith('data-') ? value : localUrls(value)}`,
    );
  return `<${m[1]}${attrs.join('')}${m[3]}>`;
}

/** Every url() that is not a local #fragment (a marker, a gradient) becomes `none`. */
function localUrls(css: string): string {
  return css.replace(/\burl\(\s*(?!['"]?#)[^)]*\)/gi, 'none');
}

/** The labels of the drawing's nodes, participants, classes and entities, in drawing order. */
export function svgLabels(svg: string): string[] {
  const out: string[] = [];
  for (const m of svg.matchAll(/<g class="(?:node|actor|class-node|entity)[^"]*"[^>]*?\sdata-label="([^"]*)"/g)) {
    const label = decodeXml(m[1]).trim();
    if (label && !out.includes(label)) out.push(label);
  }
  return out;
}

/** The SVG as a data: URL for an <img>. */
export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

function decodeXml(s: string): string {
  return s.replace(/&(?:#(\d+)|#x([0-9a-f]+)|(amp|lt|gt|quot|apos));/gi, (_, d, h, n) =>
    d
      ? String.fromCodePoint(Number(d))
      : h
        ? String.fromCodePoint(Number.parseInt(h, 16))
        : ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[n.toLowerCase()],
  );
}
