// The Usage view benchmark's TypeScript side (bundled by bench/usage.mjs): a generated history in a
// fresh database, and one report or CSV timed as the host makes it.
import { loadSqlJs } from '../../extension/core/store/sqljs';
import { usageRows, usageSummary } from '../../extension/core/store/usage-query';
import { usageCsv } from '../../extension/core/usage/usage-csv';
import { buildReport, MAX_SESSION_ROWS, resolveRange } from '../../extension/core/usage/usage-report';
import type { UsageRange } from '../../extension/protocol';
import { generateUsageHistory, HISTORY_END } from '../../test/fixtures/usage-history';

export async function setUp(wasm: string, sessions: number) {
  const db = new (await loadSqlJs(wasm)).Database();
  const entries = generateUsageHistory(db, sessions).length;
  const now = HISTORY_END + 3_600_000;
  return {
    entries,
    report(preset: UsageRange['preset']) {
      const range = { preset };
      const started = performance.now();
      const resolved = resolveRange(range, now, 60);
      const summary = usageSummary(db, resolved.query, MAX_SESSION_ROWS);
      buildReport(summary, range, resolved);
      return { ms: performance.now() - started, cells: summary.cells.length, sessions: summary.sessionCount };
    },
    csv() {
      const started = performance.now();
      const text = usageCsv(usageRows(db, resolveRange({ preset: 'all' }, now, 60).query));
      return { ms: performance.now() - started, bytes: text.length };
    },
    close: () => db.close(),
  };
}
