// A ```mermaid block as a picture (rich-blocks.ts hands each finished block here). The renderer is a
// chunk of its own (mermaid-render.ts, ~2 MB with its layout engine), imported on the first diagram,
// never at first paint. The drawing is an <img> with a data: URL (the CSP's img-src allows data:), so
// nothing in it can run, load or style our page; it is drawn in the theme's colours, read from the
// page, and drawn again when the theme changes. The figure keeps its source behind a "Show source"
// button; a wide diagram shrinks to three quarters of its size at most, then scrolls sideways.
import type { DiagramColours, DrawnDiagram } from '../extension/protocol/mermaid-svg';

type Renderer = typeof import('./mermaid-render');

let renderer: Promise<Renderer> | undefined;

function loadRenderer(): Promise<Renderer> {
  renderer ??= import('./mermaid-render');
  return renderer;
}

/** Each source is drawn once per palette (an answer's final render draws the same blocks again). */
const drawings = new Map<string, Promise<DrawnDiagram>>();
const MAX_DRAWINGS = 100;

function drawnOnce(source: string, colours: DiagramColours): Promise<DrawnDiagram> {
  const key = `${JSON.stringify(colours)}\n${source}`;
  let got = drawings.get(key);
  if (!got) {
    got = loadRenderer().then((r) => {
      const start = performance.now();
      try {
        return r.renderDiagram(source, colours);
      } finally {
        // Visible in the developer tools' performance panel (and read by the webview test).
        performance.measure('sextant-diagram', { start });
      }
    });
    if (drawings.size >= MAX_DRAWINGS) drawings.delete(drawings.keys().next().value as string);
    drawings.set(key, got);
  }
  return got;
}

/** The colours of the view where `place` is: its text and background, and the theme's link and muted text. */
export function themeColours(place: Element): DiagramColours {
  const root = getComputedStyle(document.documentElement);
  const v = (name: string) => root.getPropertyValue(`--vscode-${name}`).trim() || undefined;
  const colours: DiagramColours = { bg: backgroundBehind(place), fg: getComputedStyle(place).color };
  const accent = v('textLink-foreground');
  const muted = v('descriptionForeground');
  const border = v('contrastBorder');
  if (accent) colours.accent = accent;
  if (muted) colours.muted = muted;
  if (border) colours.border = border;
  return colours;
}

/** The first background that is not transparent, from `el` up. */
function backgroundBehind(el: Element): string {
  for (let at: Element | null = el; at; at = at.parentElement) {
    const bg = getComputedStyle(at).backgroundColor;
    if (bg && !/^(?:transparent|rgba\(0, 0, 0, 0\))$/.test(bg)) return bg;
  }
  return '#ffffff';
}

let ids = 0;

/** The figure for a ```mermaid block drawn where `place` is; rejects with a DiagramError to show. */
export async function diagramFigure(source: string, place: Element): Promise<HTMLElement> {
  const colours = themeColours(place);
  const drawn = await drawnOnce(source, colours);
  watchTheme();
  const figure = document.createElement('figure');
  figure.className = 'rich-block rich-mermaid';
  figure.dataset.rich = 'yes';
  figure.setAttribute('role', 'group');
  figure.setAttribute('aria-label', 'Diagram');
  const scroll = document.createElement('div');
  scroll.className = 'diagram-scroll';
  // A diagram wider than the view scrolls sideways: keyboard users reach it with Tab.
  scroll.tabIndex = 0;
  const img = document.createElement('img');
  scroll.append(img);
  const pre = document.createElement('pre');
  pre.id = `diagram-source-${++ids}`;
  pre.className = 'diagram-source';
  pre.hidden = true;
  pre.tabIndex = 0;
  const code = document.createElement('code');
  code.textContent = source;
  pre.append(code);
  const toggle = document.createElement('button');
  toggle.type = 'button';
  toggle.className = 'diagram-toggle link-button';
  toggle.textContent = 'Show source';
  toggle.setAttribute('aria-expanded', 'false');
  toggle.setAttribute('aria-controls', pre.id);
  toggle.addEventListener('click', () => {
    pre.hidden = !pre.hidden;
    toggle.textContent = pre.hidden ? 'Show source' : 'Hide source';
    toggle.setAttribute('aria-expanded', String(!pre.hidden));
  });
  figure.append(scroll, toggle, pre);
  show(figure, img, drawn, colours);
  return figure;
}

function show(figure: HTMLElement, img: HTMLImageElement, drawn: DrawnDiagram, colours: DiagramColours): void {
  // Set from script (CSSOM), which the CSP allows; the markup carries no style.
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(drawn.svg)}`;
  img.alt = drawn.alt;
  img.width = drawn.width;
  img.height = drawn.height;
  img.style.minWidth = `${Math.round(drawn.width * 0.75)}px`;
  figure.dataset.colours = JSON.stringify(colours);
}

let watching = false;
let pending = false;

/** VS Code changes the body's class and the root's variables on a theme change: redraw then. */
function watchTheme(): void {
  if (watching) return;
  watching = true;
  const observer = new MutationObserver(() => {
    if (pending) return;
    pending = true;
    // Several attributes change at once: one redraw, after they all have.
    requestAnimationFrame(() => {
      pending = false;
      void redrawAll();
    });
  });
  observer.observe(document.body, { attributes: true, attributeFilter: ['class'] });
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
}

async function redrawAll(): Promise<void> {
  const figures = [...document.querySelectorAll<HTMLElement>('figure.rich-mermaid')];
  await Promise.all(
    figures.map(async (figure) => {
      const colours = themeColours(figure.parentElement ?? figure);
      if (figure.dataset.colours === JSON.stringify(colours)) return;
      const source = figure.querySelector('pre.diagram-source')?.textContent ?? '';
      const img = figure.querySelector('img');
      if (!img) return;
      try {
        show(figure, img, await drawnOnce(source, colours), colours);
      } catch {
        /* It was drawn before in these very lines: keep the old colours rather than lose the picture. */
      }
    }),
  );
  window.dispatchEvent(new CustomEvent('sextant-diagrams-redrawn', { detail: figures.length }));
}
