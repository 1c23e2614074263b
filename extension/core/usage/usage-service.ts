// The Usage panel's host side, without VS Code: it validates what the panel asks, reads the store's rows
// for the range, and answers with the report — or saves them as CSV where the user chooses. The panel
// (vscode/usage-panel.ts) gives it the store, the clock, the time zone and the save dialog.
import { type UsageOutbound, type UsageRange, UsageInboundSchema } from '../../protocol';
import type { UsageRow, UsageRowsQuery } from '../store/usage-query';
import { usageCsv } from './usage-csv';
import { buildReport, resolveRange } from './usage-report';

export interface UsageServiceDeps {
  read(q: UsageRowsQuery): Promise<UsageRow[]>;
  now(): number;
  /** Minutes to add to UTC for local time at `at` (the panel's time zone). */
  offsetMinutes(at: number): number;
  /** Asks where to save and writes the text there; the path written, or undefined when cancelled. */
  save(suggestedName: string, text: string): Promise<string | undefined>;
  post(m: UsageOutbound): void;
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
    const rows = await this.deps.read(resolved.query);
    const report = buildReport(rows, range, resolved);
    report.computeMs = Math.round((performance.now() - started) * 10) / 10;
    this.deps.post({ type: 'usageReport', report });
  }

  private async export(range: UsageRange): Promise<void> {
    const resolved = this.resolve(range);
    const rows = await this.deps.read(resolved.query);
    const report = buildReport(rows, range, resolved);
    const name = `sextant-usage-${report.from ?? 'all'}-to-${report.to}.csv`;
    const path = await this.deps.save(name, usageCsv(rows));
    this.deps.post({ type: 'usageExported', path: path ?? null });
  }
}
