// The rich blocks a report (or any answer) may hold beyond plain Markdown, shared by the chat view and
// the exports so both read the same syntax:
//   - math: `$…$` inline and `$$…$$` on lines of their own (TeX), and a fenced ```math block;
//   - diagrams: a fenced ```mermaid block;
//   - charts: a fenced ```chart block holding a Markdown table — the first column the labels, each
//     further numeric column a series — drawn as horizontal SVG bars by our own code (`chartSvg`).
// The math syntax is a `marked` extension; what a math token becomes is the caller's (the view marks
// it for its lazily loaded renderer, an export renders it at once). Imports nothing at run time.
import type { TokenizerAndRendererExtension, Tokens } from 'marked';

/**
 * How TeX is typeset, in the view and in exports alike (KaTeX's options, without `displayMode`): MathML
 * only (no CSS or fonts), `trust: false` (no \href, \includegraphics or raw HTML), and sizes and macro
 * expansion bounded so a hostile formula cannot blow up the page.
 */
export const MATH_TYPESETTING = {
  output: 'mathml',
  throwOnError: true,
  trust: false,
  strict: 'ignore',
  maxSize: 20,
  maxExpand: 500,
} as const;

export interface MathToken extends Tokens.Generic {
  type: 'mathBlock' | 'mathInline';
  raw: string;
  tex: string;
}

/**
 * `$$…$$` blocks and `$…$` inline math. Inline math follows Pandoc's rule so prices are not math: the
 * opening `$` is not followed by a space, the closing one not preceded by a space nor followed by a digit.
 */
export function mathExtensions(render: (tex: string, display: boolean) => string): TokenizerAndRendererExtension[] {
  return [
    {
      name: 'mathBlock',
      level: 'block',
      start: (src: string) => src.match(/^ {0,3}\$\$/m)?.index,
      tokenizer(src: string): MathToken | undefined {
        const m = /^ {0,3}\$\$([\s\S]+?)\$\$[ \t]*(?:\n|$)/.exec(src);
        return m ? { type: 'mathBlock', raw: m[0], tex: m[1].trim() } : undefined;
      },
      renderer: (t) => render((t as MathToken).tex, true),
    },
    {
      name: 'mathInline',
      level: 'inline',
      start: (src: string) => src.indexOf('$'),
      tokenizer(src: string): MathToken | undefined {
        const m = /^\$(?!\s)((?:\\.|[^\\$\n])+?)(?<!\s)\$(?!\d)/.exec(src);
        return m ? { type: 'mathInline', raw: m[0], tex: m[1] } : undefined;
      },
      renderer: (t) => render((t as MathToken).tex, false),
    },
  ];
}

/** A chart read from a Markdown table: labels and one or more numeric series. */
export interface ChartData {
  title?: string;
  labels: string[];
  series: Array<{ name: string; values: number[] }>;
}

const MAX_ROWS = 50;
const MAX_SERIES = 4;

/** Reads a ```chart block: an optional `title: …` line, then a Markdown table. Throws with a reason. */
export function parseChart(source: string): ChartData {
  const lines = source.split('\n').map((l) => l.trim());
  const title = lines.find((l) => /^title:/i.test(l))?.replace(/^title:\s*/i, '');
  const rows = lines.filter((l) => l.startsWith('|')).map(cells);
  if (rows.length < 3) throw new Error('a chart needs a Markdown table: a header, a separator and at least one row');
  const [header, separator, ...body] = rows;
  if (!separator.every((c) => /^:?-{1,}:?$/.test(c))) throw new Error('the second table line must be the separator');
  if (header.length < 2) throw new Error('a chart needs a label column and at least one number column');
  if (body.length > MAX_ROWS) throw new Error(`a chart shows at most ${MAX_ROWS} rows`);
  const series = header.slice(1, 1 + MAX_SERIES).map((name, k) => ({
    name,
    values: body.map((row, i) => {
      const v = Number((row[k + 1] ?? '').replace(/[,%\s]/g, ''));
      if (!Number.isFinite(v)) throw new Error(`row ${i + 1}, column "${name}" is not a number: "${row[k + 1] ?? ''}"`);
      return v;
    }),
  }));
  return { ...(title ? { title } : {}), labels: body.map((r) => r[0] ?? ''), series };
}

function cells(line: string): string[] {
  return line
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, '|'));
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * Horizontal bars as a self-contained SVG (no script, no style element: colours are presentation
 * attributes taking `currentColor` and the series' classes, so a page's CSS may theme them). Each bar
 * has its value printed beside it and a <title>, so the chart reads without colour and to a screen reader.
 */
export function chartSvg(chart: ChartData): string {
  const barH = 16;
  const gap = 6;
  const labelW = Math.min(220, 8 + 7 * Math.max(...chart.labels.map((l) => l.length), 4));
  const plotW = 360;
  const valueW = 70;
  const n = chart.series.length;
  const groupH = n * barH + gap * 2;
  const legendH = n > 1 ? 22 : 0;
  const titleH = chart.title ? 24 : 0;
  const width = labelW + plotW + valueW;
  const height = titleH + legendH + chart.labels.length * groupH + 4;
  const all = chart.series.flatMap((s) => s.values);
  const min = Math.min(0, ...all);
  const max = Math.max(0, ...all);
  const span = max - min || 1;
  const x = (v: number) => labelW + ((v - min) / span) * plotW;
  const parts: string[] = [];
  if (chart.title) parts.push(`<text x="0" y="16" font-weight="600" fill="currentColor">${esc(chart.title)}</text>`);
  chart.series.forEach((s, k) => {
    if (n < 2) return;
    const lx = labelW + k * 110;
    parts.push(
      `<rect class="chart-series-${k}" x="${lx}" y="${titleH + 4}" width="12" height="12" fill="${COLOURS[k]}"/>` +
        `<text x="${lx + 16}" y="${titleH + 14}" font-size="12" fill="currentColor">${esc(s.name)}</text>`,
    );
  });
  chart.labels.forEach((label, i) => {
    const top = titleH + legendH + i * groupH + gap;
    parts.push(
      `<text x="${labelW - 6}" y="${top + (n * barH) / 2 + 4}" text-anchor="end" font-size="12" fill="currentColor">` +
        `${esc(label.length > 30 ? `${label.slice(0, 29)}…` : label)}</text>`,
    );
    chart.series.forEach((s, k) => {
      const v = s.values[i];
      const x0 = x(Math.min(0, v));
      const w = Math.max(1, Math.abs(x(v) - x(0)));
      const y = top + k * barH;
      const name = n > 1 ? `${s.name}: ` : '';
      parts.push(
        `<rect class="chart-series-${k}" x="${x0.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${barH - 2}" ` +
          `fill="${COLOURS[k]}"><title>${esc(`${label} — ${name}${fmt(v)}`)}</title></rect>` +
          `<text x="${(Math.max(x(v), x(0)) + 4).toFixed(1)}" y="${y + barH - 4}" font-size="11" fill="currentColor">` +
          `${esc(fmt(v))}</text>`,
      );
    });
  });
  const x0 = x(0).toFixed(1);
  const axis =
    `<line x1="${x0}" y1="${titleH + legendH}" x2="${x0}" y2="${height - 2}" ` +
    'stroke="currentColor" stroke-opacity="0.5"/>';
  const label = chart.title ?? `Bar chart of ${chart.series.map((s) => s.name).join(', ')}`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="report-chart" role="img" aria-label="${esc(label)}" ` +
    `viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">${parts.join('')}${axis}</svg>`
  );
}

/** Colours that read on light and dark backgrounds alike (Okabe–Ito, safe for colour blindness). */
const COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7'];

function fmt(v: number): string {
  return Number.isInteger(v) ? v.toLocaleString('en') : v.toLocaleString('en', { maximumFractionDigits: 3 });
}
