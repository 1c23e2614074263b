// The Usage panel: cost and tokens over a chosen range as a bar per day stacked by source or model, a
// breakdown of one dimension (source, model, mode, workspace, session, day), the same rows as a table —
// the accessible form of the data — and CSV export. The host computes the report from the history store;
// this element only draws what it is sent and asks for another range.
import { html, LitElement, nothing, type PropertyValues } from 'lit';
import {
  formatTokens,
  formatUsd,
  SOURCE_NAMES,
  USAGE_DIMENSIONS,
  USAGE_SOURCES,
  type UsageDimension,
  type UsageGroup,
  type UsageInbound,
  type UsageOutbound,
  type UsageRange,
  type UsageReport,
} from '../../extension/protocol';
import { defineElement } from './base';
import { breakdownChart, formatMetric, type Metric, type Series, seriesClass, stackedBarChart } from './usage-chart';

const PRESETS: ReadonlyArray<[UsageRange['preset'], string]> = [
  ['today', 'Today'],
  ['7d', 'Last 7 days'],
  ['30d', 'Last 30 days'],
  ['all', 'All time'],
  ['custom', 'Custom range'],
];
const DIMENSION_NAMES: Record<UsageDimension, string> = {
  source: 'Source',
  model: 'Model',
  mode: 'Mode',
  workspace: 'Workspace',
  session: 'Session',
  day: 'Day',
};
/** Models beyond this many are stacked together as "Other models". */
const MAX_MODEL_SERIES = 7;

export class SxUsageView extends LitElement {
  static override properties = {
    report: { state: true },
    status: { state: true },
    error: { state: true },
    range: { state: true },
    dimension: { state: true },
    stackBy: { state: true },
    metric: { state: true },
  };
  declare report: UsageReport | undefined;
  declare status: string;
  declare error: string | undefined;
  declare range: UsageRange;
  declare dimension: UsageDimension;
  declare stackBy: 'source' | 'model';
  declare metric: Metric;
  /** Posts to the host (set by usage-main.ts). */
  post: (m: UsageInbound) => void = () => undefined;

  constructor() {
    super();
    this.status = 'Loading usage…';
    this.range = { preset: '7d' };
    this.dimension = 'source';
    this.stackBy = 'source';
    this.metric = 'cost';
  }

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  /** A message from the host (already validated). */
  receive(m: UsageOutbound): void {
    if (m.type === 'usageReport') {
      this.report = m.report;
      this.error = undefined;
      this.status = `Usage ${rangeText(m.report)}: ${totalText(m.report)}.`;
    } else if (m.type === 'usageError') {
      this.error = m.message;
      this.status = m.message;
    } else this.status = m.path ? `Saved the CSV to ${m.path}.` : 'Export cancelled.';
  }

  protected override updated(changed: PropertyValues): void {
    // The tests (and the benchmark) wait for this, as they do for the chat's renders.
    if (changed.has('report') || changed.has('error') || changed.has('status'))
      window.dispatchEvent(new CustomEvent('sextant-render', { detail: { view: 'usage' } }));
  }

  private query(range: UsageRange): void {
    this.range = range;
    if (range.preset === 'custom' && (!range.from || !range.to)) return;
    this.status = 'Loading usage…';
    this.post({ type: 'usageQuery', range });
  }

  override render() {
    const r = this.report;
    return html`<main class="usage" aria-labelledby="usage-title">
      <header class="usage-head">
        <h1 id="usage-title">Usage</h1>
        ${this.controls()}
      </header>
      <p class="usage-status" role="status">${this.status}</p>
      ${this.error ? html`<p class="usage-error" role="alert">${this.error}</p>` : nothing}
      ${r ? this.body(r) : nothing}
    </main>`;
  }

  private controls() {
    const custom = this.range.preset === 'custom';
    return html`<div class="usage-controls">
      <label>Range
        <select @change=${(e: Event) => this.query({ preset: selected<UsageRange['preset']>(e) })}>
          ${PRESETS.map(([v, label]) => option(v, label, this.range.preset === v))}
        </select>
      </label>
      ${
        custom
          ? html`<form class="usage-custom" @submit=${(e: Event) => this.submitCustom(e)}>
            <label>From <input type="date" name="from" required .value=${this.range.from ?? ''} /></label>
            <label>To <input type="date" name="to" required .value=${this.range.to ?? ''} /></label>
            <button type="submit">Show</button>
          </form>`
          : nothing
      }
      <label>Show
        <select @change=${(e: Event) => {
          this.metric = (e.target as HTMLSelectElement).value as Metric;
        }}>
          <option value="cost" ?selected=${this.metric === 'cost'}>Cost</option>
          <option value="tokens" ?selected=${this.metric === 'tokens'}>Tokens</option>
        </select>
      </label>
      <button type="button" class="usage-export" @click=${() => this.post({ type: 'usageExport', range: this.range })}>
        Export CSV…
      </button>
    </div>`;
  }

  private submitCustom(e: Event): void {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    this.query({ preset: 'custom', from: String(data.get('from')), to: String(data.get('to')) });
  }

  private body(r: UsageReport) {
    const value = (g: { costUsd: number; inputTokens: number; outputTokens: number }) =>
      this.metric === 'cost' ? g.costUsd : g.inputTokens + g.outputTokens;
    const rows = r.groups[this.dimension];
    const { series, bars } = this.stacks(r);
    const unit = r.bucket === 'day' ? 'day' : 'month';
    const what = this.metric === 'cost' ? 'Cost' : 'Tokens';
    const top = series
      .map((s) => ({ s, v: bars.reduce((sum, b) => sum + (b.values.get(s.key) ?? 0), 0) }))
      .filter((x) => x.v > 0)
      .map((x) => `${x.s.label} ${formatMetric(this.metric, x.v)}`)
      .join(', ');
    const chartSummary =
      `${what} per ${unit}, ${rangeText(r)}, stacked by ${this.stackBy}: ` + `${top || 'nothing recorded'}.`;
    const breakdownSummary =
      `${what} by ${DIMENSION_NAMES[this.dimension].toLowerCase()}: ` +
      (rows
        .slice(0, 5)
        .map((g) => `${g.label} ${formatMetric(this.metric, value(g))}`)
        .join(', ') || 'nothing recorded') +
      '. The table below lists every row.';
    return html`<section class="usage-section" aria-labelledby="usage-chart-title">
        <div class="usage-section-head">
          <h2 id="usage-chart-title">${what} per ${unit}</h2>
          <label>Stack by
            <select @change=${(e: Event) => {
              this.stackBy = (e.target as HTMLSelectElement).value as 'source' | 'model';
            }}>
              <option value="source" ?selected=${this.stackBy === 'source'}>Source</option>
              <option value="model" ?selected=${this.stackBy === 'model'}>Model</option>
            </select>
          </label>
        </div>
        ${stackedBarChart(bars, series, this.metric, chartSummary)}
        <ul class="usage-legend" aria-label="Legend">
          ${series.map(
            (s, i) => html`<li><span class="swatch ${seriesClass(i)}" aria-hidden="true"></span>${s.label}</li>`,
          )}
        </ul>
      </section>
      <section class="usage-section" aria-labelledby="usage-breakdown-title">
        <div class="usage-section-head">
          <h2 id="usage-breakdown-title">By ${DIMENSION_NAMES[this.dimension].toLowerCase()}</h2>
          <label>Group by
            <select @change=${(e: Event) => {
              this.dimension = (e.target as HTMLSelectElement).value as UsageDimension;
            }}>
              ${USAGE_DIMENSIONS.map((d) => option(d, DIMENSION_NAMES[d], this.dimension === d))}
            </select>
          </label>
        </div>
        ${breakdownChart(
          rows.map((g) => ({ label: g.label, value: value(g) })),
          this.metric,
          breakdownSummary,
        )}
        ${this.table(r, rows)}
      </section>`;
  }

  /** The chart's series and bars: by source (fixed order), or by model (the costliest, the rest as "Other"). */
  private stacks(r: UsageReport): { series: Series[]; bars: Array<{ label: string; values: Map<string, number> }> } {
    const pick = (c: { costUsd: number; tokens: number }) => (this.metric === 'cost' ? c.costUsd : c.tokens);
    if (this.stackBy === 'source') {
      const used = new Set(r.bars.flatMap((b) => b.bySource.map((c) => c.key)));
      return {
        series: USAGE_SOURCES.filter((s) => used.has(s)).map((s) => ({ key: s, label: SOURCE_NAMES[s] })),
        bars: r.bars.map((b) => ({ label: b.bucket, values: new Map(b.bySource.map((c) => [c.key, pick(c)])) })),
      };
    }
    const models = r.groups.model.slice(0, MAX_MODEL_SERIES).map((g) => g.key);
    const named = new Set(models);
    const other = r.groups.model.length > models.length;
    const series = [
      ...models.map((m) => ({ key: m, label: m || 'Unknown model' })),
      ...(other ? [{ key: '\0other', label: 'Other models' }] : []),
    ];
    const bars = r.bars.map((b) => {
      const values = new Map<string, number>();
      for (const c of b.byModel) {
        const key = named.has(c.key) ? c.key : '\0other';
        values.set(key, (values.get(key) ?? 0) + pick(c));
      }
      return { label: b.bucket, values };
    });
    return { series, bars };
  }

  private table(r: UsageReport, rows: readonly UsageGroup[]) {
    const totalCost = r.total.costUsd;
    const dim = DIMENSION_NAMES[this.dimension];
    return html`<table class="usage-table">
      <caption>
        Usage by ${dim.toLowerCase()}, ${rangeText(r)}${
          this.dimension === 'session' && r.moreSessions
            ? ` (the ${rows.length} costliest sessions; ${r.moreSessions} more are in the CSV)`
            : ''
        }
      </caption>
      <thead>
        <tr>
          <th scope="col">${dim}</th>
          <th scope="col" class="num">Cost</th>
          <th scope="col" class="num">Share</th>
          <th scope="col" class="num">Input tokens</th>
          <th scope="col" class="num">Cached</th>
          <th scope="col" class="num">Output tokens</th>
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          (g) => html`<tr>
            <th scope="row">${g.label}</th>
            <td class="num">${formatUsd(g.costUsd)}${g.unpriced ? unpricedMark(g.unpriced) : nothing}</td>
            <td class="num">${totalCost ? `${Math.round((g.costUsd / totalCost) * 100)}%` : '–'}</td>
            <td class="num">${formatTokens(g.inputTokens)}</td>
            <td class="num">${formatTokens(g.cachedTokens)}</td>
            <td class="num">${formatTokens(g.outputTokens)}</td>
          </tr>`,
        )}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Total</th>
          <td class="num">${formatUsd(totalCost)}</td>
          <td class="num">${totalCost ? '100%' : '–'}</td>
          <td class="num">${formatTokens(r.total.inputTokens)}</td>
          <td class="num">${formatTokens(r.total.cachedTokens)}</td>
          <td class="num">${formatTokens(r.total.outputTokens)}</td>
        </tr>
      </tfoot>
    </table>`;
  }
}

const selected = <T extends string>(e: Event) => (e.target as HTMLSelectElement).value as T;

const option = (value: string, label: string, isSelected: boolean) =>
  html`<option value=${value} ?selected=${isSelected}>${label}</option>`;

const unpricedMark = (n: number) =>
  html`<span class="unpriced" title="${n} at an unknown price (tokens only)"> +?</span>`;

function rangeText(r: UsageReport): string {
  if (r.from === null) return 'all time (nothing recorded yet)';
  return r.from === r.to ? r.to : `${r.from} to ${r.to}`;
}

function totalText(r: UsageReport): string {
  const t = r.total;
  const unpriced = t.unpriced ? ` (${t.unpriced} at an unknown price, counted in tokens only)` : '';
  const tokens = `${formatTokens(t.inputTokens)} tokens in, ${formatTokens(t.outputTokens)} out`;
  return `${formatUsd(t.costUsd)}${unpriced}, ${tokens}`;
}

defineElement('sx-usage-view', SxUsageView);
