// Math and charts in an answer, drawn after it is rendered — like code highlighting — so the chat's
// first paint never waits for them: KaTeX (webview/math-render.ts) is a chunk of its own, imported the
// first time an answer holds math; a chart is our own few lines (extension/protocol/report-blocks.ts).
// A block that cannot be drawn (bad TeX, a chart whose table is not numeric) keeps its source in view
// with the reason above it: never a blank. While the chunk loads, the source shows.
// A ```mermaid block becomes a picture (mermaid-blocks.ts, with its own lazily loaded renderer chunk).
import { chartSvg, parseChart } from '../extension/protocol';
import { diagramFigure } from './mermaid-blocks';

type MathRenderer = typeof import('./math-render');

let math: Promise<MathRenderer> | undefined;

/** The KaTeX chunk, imported once, on first need. */
function loadMath(): Promise<MathRenderer> {
  math ??= import('./math-render');
  return math;
}

const DONE = 'rich';
const BLOCKS = 'pre > code.language-math, pre > code.language-chart, pre > code.language-mermaid';
/** Block kinds by the fence's language. */
const KINDS = { math: 'Formula', chart: 'Chart', mermaid: 'Diagram' } as const;
type Kind = keyof typeof KINDS;

/** Draws the not yet drawn math, chart and diagram blocks inside `roots`; resolves when all are settled. */
export async function renderRichBlocksIn(roots: readonly Element[]): Promise<void> {
  const work: Array<Promise<void>> = [];
  for (const root of roots) {
    for (const code of root.querySelectorAll<HTMLElement>('code.math-inline')) {
      if (code.dataset[DONE]) continue;
      code.dataset[DONE] = 'pending';
      work.push(inlineMath(code));
    }
    for (const code of root.querySelectorAll<HTMLElement>(BLOCKS)) {
      if (code.dataset[DONE]) continue;
      code.dataset[DONE] = 'pending';
      const kind = /language-(math|chart|mermaid)/.exec(code.className)?.[1] as Kind;
      work.push(block(code, kind));
    }
  }
  if (!work.length) return;
  await Promise.all(work);
  window.dispatchEvent(new CustomEvent('sextant-rich-rendered', { detail: work.length }));
}

async function inlineMath(code: HTMLElement): Promise<void> {
  const tex = code.textContent ?? '';
  try {
    const r = await loadMath();
    if (!code.isConnected) return;
    const out = r.renderMath(tex, false);
    code.replaceWith(out);
  } catch (e) {
    // Inline: the TeX stays as code, marked, with the reason as its tooltip and accessible description.
    code.dataset[DONE] = 'error';
    code.classList.add('rich-error-inline');
    code.title = `Formula could not be typeset: ${message(e)}`;
  }
}

async function block(code: HTMLElement, kind: Kind): Promise<void> {
  const pre = code.parentElement as HTMLElement;
  // The Copy button's wrapper (markdown-view.ts) goes too: the figure carries its own source.
  const holder = pre.parentElement?.classList.contains('code-block') ? pre.parentElement : pre;
  const source = code.textContent ?? '';
  if (kind === 'mermaid') {
    // The figure is built where it goes: its colours are those of the place it is shown in.
    const place = holder.parentElement ?? holder;
    try {
      const figure = await diagramFigure(source, place);
      if (holder.isConnected) holder.replaceWith(figure);
    } catch (e) {
      if (holder.isConnected) holder.replaceWith(failed(kind, source, e));
    }
    return;
  }
  let drawn: Element;
  try {
    drawn = await drawnOnce(kind, source);
  } catch (e) {
    if (!holder.isConnected) return;
    holder.replaceWith(failed(kind, source, e));
    return;
  }
  if (!holder.isConnected) return;
  const figure = document.createElement('figure');
  figure.className = `rich-block rich-${kind}`;
  figure.dataset[DONE] = 'yes';
  // A wide chart or formula scrolls sideways; keyboard users reach it with Tab.
  figure.tabIndex = 0;
  figure.setAttribute('role', 'group');
  figure.setAttribute('aria-label', KINDS[kind]);
  figure.append(drawn);
  holder.replaceWith(figure);
}

/**
 * Each block source is drawn once per view: the answer's final render (and a re-opened chat) redraws the
 * same blocks. Copies of the first drawing are handed out.
 */
const drawings = new Map<string, Promise<Element>>();
const MAX_DRAWINGS = 200;

function drawnOnce(kind: 'math' | 'chart', source: string): Promise<Element> {
  const key = `${kind}\n${source}`;
  let got = drawings.get(key);
  if (!got) {
    got = draw(kind, source);
    if (drawings.size >= MAX_DRAWINGS) drawings.delete(drawings.keys().next().value as string);
    drawings.set(key, got);
  }
  return got.then((el) => el.cloneNode(true) as Element);
}

async function draw(kind: 'math' | 'chart', source: string): Promise<Element> {
  if (kind === 'math') return (await loadMath()).renderMath(source, true);
  return svgElement(chartSvg(parseChart(source)));
}

/** The source, in view, with why it was not drawn. */
function failed(kind: Kind, source: string, e: unknown): HTMLElement {
  const box = document.createElement('div');
  box.className = `rich-block rich-error rich-${kind}`;
  box.dataset[DONE] = 'error';
  const why = document.createElement('p');
  why.className = 'rich-error-message';
  why.setAttribute('role', 'note');
  // A diagram's reason is a whole sentence already ("Diagram not drawn: …", "Diagram type not supported: …").
  why.textContent =
    e instanceof Error && e.name === 'DiagramError' ? e.message : `${KINDS[kind]} could not be drawn: ${message(e)}`;
  const pre = document.createElement('pre');
  pre.tabIndex = 0;
  const code = document.createElement('code');
  code.textContent = source;
  pre.append(code);
  box.append(why, pre);
  return box;
}

function message(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.replace(/\s+/g, ' ').trim().slice(0, 300) || 'unknown error';
}

/** Our own chart SVG (no script, escaped text) parsed as SVG, not HTML. */
function svgElement(svg: string): Element {
  const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
  const el = doc.documentElement;
  if (el.nodeName !== 'svg') throw new Error('the chart could not be drawn');
  return document.importNode(el, true);
}
