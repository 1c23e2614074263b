// The Usage view's report, made from the store's day × session × model × mode × source rows: the range a
// preset means in local days, the chart's bars (per day, or per month over long ranges) and each
// dimension's rows. Pure: the host passes the rows, the clock and the time zone offset.
import {
  SOURCE_NAMES,
  USAGE_DIMENSIONS,
  USAGE_SOURCES,
  type UsageBar,
  type UsageDimension,
  type UsageFigures,
  type UsageGroup,
  type UsageRange,
  type UsageReport,
  type UsageSource,
} from '../../protocol';
import { slot, type UsageCell, type UsageRowsQuery, type UsageSummary } from '../store/usage-query';

const DAY_MS = 86_400_000;
/** Rows the session dimension lists; the rest are counted (and all are in the CSV). */
export const MAX_SESSION_ROWS = 100;
/** Over this many days the chart draws a bar per month. */
const MAX_DAY_BARS = 92;

/** The local days a range covers (`from` null: no lower bound) and the query that reads them. */
export interface ResolvedRange {
  fromDay: number | null;
  toDay: number;
  query: UsageRowsQuery;
}

export function resolveRange(range: UsageRange, now: number, offsetMinutes: number): ResolvedRange {
  const offsetMs = offsetMinutes * 60_000;
  const today = Math.floor((now + offsetMs) / DAY_MS);
  let fromDay: number | null;
  let toDay = today;
  switch (range.preset) {
    case 'today':
      fromDay = today;
      break;
    case '7d':
      fromDay = today - 6;
      break;
    case '30d':
      fromDay = today - 29;
      break;
    case 'all':
      fromDay = null;
      break;
    case 'custom': {
      if (!range.from || !range.to) throw new Error('A custom range needs both a first and a last day.');
      fromDay = dayNumber(range.from);
      toDay = dayNumber(range.to);
      if (fromDay > toDay) throw new Error(`The range starts (${range.from}) after it ends (${range.to}).`);
      break;
    }
  }
  return {
    fromDay,
    toDay,
    query: {
      ...(fromDay === null ? {} : { fromMs: fromDay * DAY_MS - offsetMs }),
      // 'all' and ranges ending today take what was recorded later today too (and a clock set back).
      ...(range.preset === 'custom' ? { toMs: (toDay + 1) * DAY_MS - offsetMs } : {}),
      offsetMinutes,
    },
  };
}

export function dayNumber(day: string): number {
  const ms = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(ms)) throw new Error(`Not a day: ${day}`);
  return Math.floor(ms / DAY_MS);
}

export function dayString(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export function emptyFigures(): UsageFigures {
  return { inputTokens: 0, cachedTokens: 0, outputTokens: 0, costUsd: 0, unpriced: 0, entries: 0 };
}

function add(f: UsageFigures, r: UsageFigures): void {
  f.inputTokens += r.inputTokens;
  f.cachedTokens += r.cachedTokens;
  f.outputTokens += r.outputTokens;
  f.costUsd += r.costUsd;
  f.unpriced += r.unpriced;
  f.entries += r.entries;
}

/** The dimensions a cell (day × key) rolls up into; sessions come summed apart. */
const CELL_DIMENSIONS = USAGE_DIMENSIONS.filter((d) => d !== 'session');

/** The key and label of a cell in each dimension. */
function keyOf(c: UsageCell, d: UsageDimension): [string, string] {
  const k = c.key;
  switch (d) {
    case 'source':
      return k.label
        ? [`${k.source}:${k.label}`, `${SOURCE_NAMES[k.source]}: ${k.label}`]
        : [k.source, SOURCE_NAMES[k.source]];
    case 'model':
      return [k.model, k.model || 'Unknown model'];
    case 'mode':
      return [k.mode, k.mode.charAt(0).toUpperCase() + k.mode.slice(1)];
    case 'workspace':
      return [k.workspace, workspaceName(k.workspace)];
    default:
      return [dayString(c.day), dayString(c.day)];
  }
}

/** "sextant" for /home/me/sextant; "api, web" for a multi-root workspace; "No folder" without one. */
export function workspaceName(ws: string): string {
  const names = ws
    .split('\n')
    .filter(Boolean)
    .map(
      (p) =>
        p
          .replace(/[\\/]+$/, '')
          .split(/[\\/]/)
          .pop() || p,
    );
  return names.length ? names.join(', ') : 'No folder';
}

const byCost = (a: UsageGroup, b: UsageGroup) =>
  b.costUsd - a.costUsd ||
  b.inputTokens + b.outputTokens - (a.inputTokens + a.outputTokens) ||
  a.label.localeCompare(b.label);

export function buildReport(
  summary: UsageSummary,
  range: UsageRange,
  resolved: ResolvedRange,
  computeMs = 0,
): UsageReport {
  const total = emptyFigures();
  const groups = new Map<UsageDimension, Map<string, UsageGroup>>(CELL_DIMENSIONS.map((d) => [d, new Map()]));
  let first = resolved.fromDay ?? Number.POSITIVE_INFINITY;
  for (const c of summary.cells) {
    add(total, c);
    if (resolved.fromDay === null) first = Math.min(first, c.day);
    for (const d of CELL_DIMENSIONS) {
      const [key, label] = keyOf(c, d);
      const m = slot(groups, d, () => new Map<string, UsageGroup>());
      add(
        slot(m, key, () => ({ key, label, ...emptyFigures() })),
        c,
      );
    }
  }
  const fromDay = Number.isFinite(first) ? first : resolved.toDay;
  const bucket = resolved.toDay - fromDay + 1 > MAX_DAY_BARS ? 'month' : 'day';
  const sorted = Object.fromEntries(
    CELL_DIMENSIONS.map((d) => {
      const list = [...(groups.get(d)?.values() ?? [])];
      // Days read best in calendar order; everything else most expensive first.
      return [d, d === 'day' ? list.sort((a, b) => a.key.localeCompare(b.key)) : list.sort(byCost)];
    }),
  ) as Record<UsageDimension, UsageGroup[]>;
  sorted.session = summary.sessions.map(({ sessionId, title, ...f }) => ({
    key: sessionId,
    label: title || 'Untitled chat',
    ...f,
  }));
  return {
    range,
    from: resolved.fromDay === null && !summary.cells.length ? null : dayString(fromDay),
    to: dayString(resolved.toDay),
    bucket,
    total,
    bars: bars(summary.cells, fromDay, resolved.toDay, bucket),
    groups: sorted,
    moreSessions: summary.sessionCount - summary.sessions.length,
    computeMs,
  };
}

/** A bar for every day (or month) of the range, empty ones included, so the axis keeps time evenly. */
function bars(cells: readonly UsageCell[], fromDay: number, toDay: number, bucket: 'day' | 'month'): UsageBar[] {
  const name = (day: number) => (bucket === 'day' ? dayString(day) : dayString(day).slice(0, 7));
  const out = new Map<string, { bar: UsageBar; sources: Map<string, Cell>; models: Map<string, Cell> }>();
  for (let d = fromDay; d <= toDay; d++) {
    const b = name(d);
    if (!out.has(b))
      out.set(b, {
        bar: { bucket: b, total: emptyFigures(), bySource: [], byModel: [] },
        sources: new Map(),
        models: new Map(),
      });
  }
  for (const c of cells) {
    const e = out.get(name(c.day));
    if (!e) continue;
    add(e.bar.total, c);
    cell(e.sources, c.key.source, c);
    cell(e.models, c.key.model, c);
  }
  return [...out.values()].map(({ bar, sources, models }) => ({
    ...bar,
    bySource: USAGE_SOURCES.flatMap((s) => {
      const c = sources.get(s);
      return c ? [{ ...c, key: s as UsageSource }] : [];
    }),
    byModel: [...models.values()].sort((a, b) => b.costUsd - a.costUsd || b.tokens - a.tokens),
  }));
}

interface Cell {
  key: string;
  costUsd: number;
  tokens: number;
}

function cell(m: Map<string, Cell>, key: string, r: UsageFigures): void {
  const c = slot(m, key, () => ({ key, costUsd: 0, tokens: 0 }));
  c.costUsd += r.costUsd;
  c.tokens += r.inputTokens + r.outputTokens;
}
