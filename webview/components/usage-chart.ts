// The Usage view's two charts, as SVG drawn here rather than with a chart library: the view needs a stacked
// bar chart and a horizontal breakdown, nothing interactive beyond what the table below already offers,
// and a library (Chart.js ≈ 200 KB, d3's modules ≈ 60 KB+) would weigh more than the whole view in the
// VSIX, want canvas or inline styles the webview's CSP refuses, and theme itself apart from VS Code. These
// functions emit plain <svg> with classes coloured from VS Code's own --vscode-charts-* colours (usage.css),
// each chart one role="img" with a summary as its label; the table is the accessible form of the data.
import { svg, type TemplateResult } from 'lit';
import { formatTokens, formatUsd } from '../../extension/protocol';

export interface Series {
  key: string;
  label: string;
}

export interface StackedBar {
  label: string;
  /** Value per series key. */
  values: ReadonlyMap<string, number>;
}

export type Metric = 'cost' | 'tokens';

export const formatMetric = (metric: Metric, n: number): string =>
  metric === 'cost' ? formatUsd(n) : formatTokens(Math.round(n));

/** Series past this many share the last colour class. */
export const SERIES_COLOURS = 8;
export const seriesClass = (i: number) => `series-${Math.min(i, SERIES_COLOURS - 1)}`;

const W = 640;
const H = 220;
const PAD = { top: 12, right: 8, bottom: 28, left: 56 };

/** A bar per day (or month), stacked by series. */
export function stackedBarChart(
  bars: readonly StackedBar[],
  series: readonly Series[],
  metric: Metric,
  summary: string,
): TemplateResult {
  const totals = bars.map((b) => series.reduce((s, x) => s + (b.values.get(x.key) ?? 0), 0));
  const max = niceMax(Math.max(0, ...totals));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const step = bars.length ? plotW / bars.length : plotW;
  const barW = Math.max(1, Math.min(40, step * 0.7));
  const y = (v: number) => PAD.top + plotH - (max ? (v / max) * plotH : 0);
  // Every nth label, so at most ~8 fit under the axis.
  const every = Math.max(1, Math.ceil(bars.length / 8));
  const ticks = [0, max / 2, max];
  return svg`<svg class="usage-chart" viewBox="0 0 ${W} ${H}" role="img" aria-label=${summary}>
    ${ticks.map(
      (t) => svg`<line class="grid" x1=${PAD.left} x2=${W - PAD.right} y1=${y(t)} y2=${y(t)}></line>
        <text class="axis" x=${PAD.left - 6} y=${y(t) + 4} text-anchor="end">${formatMetric(metric, t)}</text>`,
    )}
    ${bars.map((b, i) => {
      const x = PAD.left + i * step + (step - barW) / 2;
      let top = 0;
      return svg`<g>
        ${series.map((s, k) => {
          const v = b.values.get(s.key) ?? 0;
          if (v <= 0) return null;
          const y0 = y(top + v);
          const h = y(top) - y0;
          top += v;
          return svg`<rect class=${seriesClass(k)} x=${x} y=${y0} width=${barW} height=${Math.max(h, 0.5)}></rect>`;
        })}
        ${i % every === 0 ? axisLabel(x + barW / 2, H - 10, shortLabel(b.label)) : null}
      </g>`;
    })}
  </svg>`;
}

/** One horizontal bar per row, longest first, with its value written at its end. */
export function breakdownChart(
  rows: ReadonlyArray<{ label: string; value: number }>,
  metric: Metric,
  summary: string,
): TemplateResult {
  const shown = rows.slice(0, 10);
  const rowH = 24;
  const labelW = 200;
  const height = Math.max(rowH, shown.length * rowH) + 8;
  const max = Math.max(0, ...shown.map((r) => r.value));
  const plotW = W - labelW - 80;
  return svg`<svg class="usage-chart breakdown" viewBox="0 0 ${W} ${height}" role="img" aria-label=${summary}>
    ${shown.map((r, i) => {
      const w = max ? (r.value / max) * plotW : 0;
      const yy = 4 + i * rowH;
      return svg`<g>
        <text class="axis label" x=${labelW - 8} y=${yy + 16} text-anchor="end">${clip(r.label, 30)}</text>
        <rect class=${seriesClass(i)} x=${labelW} y=${yy + 4} width=${Math.max(w, r.value > 0 ? 1 : 0)}
          height=${rowH - 8}></rect>
        <text class="axis" x=${labelW + w + 6} y=${yy + 16}>${formatMetric(metric, r.value)}</text>
      </g>`;
    })}
  </svg>`;
}

const axisLabel = (x: number, y: number, text: string) =>
  svg`<text class="axis" x=${x} y=${y} text-anchor="middle">${text}</text>`;

/** A round axis maximum at or above `v`: 1, 2 or 5 times a power of ten. */
export function niceMax(v: number): number {
  if (v <= 0) return 0;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

/** "11-27" for a day, "2026-11" for a month. */
const shortLabel = (bucket: string) => (bucket.length === 10 ? bucket.slice(5) : bucket);

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
