// The Usage panel's host side, without VS Code: it validates what the panel asks, reads the store's rows
// for the range, and answers with the report — or saves them as CSV where the user chooses. The panel
// (vscode/usage-panel.ts) gives it the store, the clock, the time zone and the save dialog.
import { type UsageOutbound, type UsageRange, UsageInboundSchema } from '../../protocol';
import type { UsageRow, UsageRowsQuery, UsageSummary } from '../store/usage-query';
import { usageCsv } from './usage-csv';
import { buildReport, dayString, MAX_SESSION_ROWS, resolveRange } from './usage-report';

export interface UsageServiceDeps {
  /** The report's sums (usage-query.ts), the costliest `sessionLimit` sessions named. */
  summary(q: UsageRowsQuery, sessionLimit: number): Promise<UsageSummary>;
  /** The CSV's lines. */
  rows(q: UsageRowsQuery): Promise<UsageRow[]>;
  now(): number;
  /** Minutes to add to UTC for local time at `at` (the panel's time zone). */
  offsetMinutes(at: number): number;
  /** Asks where to save and writes the text there; the path written, or undefined when cancelled. */
  save(suggestedName: string, text: string): Promise<string | undefined>;
  post(m: UsageOutbound): void;
}

/** What the panel needs of the history store (LazySessionStore: waits for the database, reads other windows'). */
export interface UsageReader {
  readUsageSummary(q: UsageRowsQuery, sessionLimit: number): Promise<UsageSummary>;
  readUsageRows(q: UsageRowsQuery): Promise<UsageRow[]>;
}

export class UsageService {
  constructor(private readonly deps: UsageServiceDeps) {}

  async handle(raw: unknown): Promise<void> {
    const parsed = UsageInboundSchema.safeParse(raw);
    if (!parsed.success) {
      this.deps.post({ type: 'usageError', message: 'The Usage view sent a message Sextant does not understand.' });
      return;
    }
    const m = parsed.data;
    try {
      if (m.type === 'usageQuery') await this.report(m.range);
      else if (m.type === 'usageExport') await this.export(m.range);
    } catch (err) {
      this.deps.post({ type: 'usageError', message: `Sextant could not read the usage: ${(err as Error).message}` });
    }
  }

  private resolve(range: UsageRange) {
    const now = this.deps.now();
    return resolveRange(range, now, this.deps.offsetMinutes(now));
  }

  private async report(range: UsageRange): Promise<void> {
    const resolved = this.resolve(range);
    const started = performance.now();
    const summary = await this.deps.summary(resolved.query, MAX_SESSION_ROWS);
    const report = buildReport(summary, range, resolved);
    report.computeMs = Math.round((performance.now() - started) * 10) / 10;
    this.deps.post({ type: 'usageReport', report });
  }

  private async export(range: UsageRange): Promise<void> {
    const resolved = this.resolve(range);
    const rows = await this.deps.rows(resolved.query);
    const first = rows.reduce((min, r) => Math.min(min, r.day), Number.POSITIVE_INFINITY);
    const from = resolved.fromDay ?? (Number.isFinite(first) ? first : resolved.toDay);
    const name = `sextant-usage-${dayString(from)}-to-${dayString(resolved.toDay)}.csv`;
    const path = await this.deps.save(name, usageCsv(rows));
    this.deps.post({ type: 'usageExported', path: path ?? null });
  }
}
