// The Usage view's one query: usage entries in a time range summed by local day, session, model, mode,
// source and label — the finest grain the view and the CSV need; every rollup (by model, by day, …) is
// made from these rows in JS (core/usage/usage-report.ts). One GROUP BY over the `at` index is what keeps
// the view fast at 10,000 sessions (bench/usage.mjs).
import type { UsageSource } from '../../protocol';
import type { Database } from './sqljs';

export interface UsageRow {
  /** Local days since 1970-01-01 (the offset applied). */
  day: number;
  sessionId: string;
  title: string;
  /** The session's workspace folders, one per line ('' without a folder). */
  workspace: string;
  model: string;
  mode: string;
  source: UsageSource;
  label: string;
  inputTokens: number;
  cachedTokens: number;
  outputTokens: number;
  costUsd: number;
  unpriced: number;
  entries: number;
}

export interface UsageRowsQuery {
  /** Entries at or after this time (ms); undefined: from the first. */
  fromMs?: number;
  /** Entries before this time (ms); undefined: up to now and beyond. */
  toMs?: number;
  /** Minutes to add to UTC for local time (e.g. 120 in Berlin in summer): where days begin. */
  offsetMinutes: number;
}

const DAY_MS = 86_400_000;

export function usageRows(db: Database, q: UsageRowsQuery): UsageRow[] {
  const stmt = db.prepare(
    `SELECT (u.at + :off) / ${DAY_MS} AS day, u.session_id, coalesce(s.title, ''), coalesce(s.workspace, ''),
            u.model, u.mode, u.source, u.label, sum(u.input_tokens), sum(u.cached_tokens), sum(u.output_tokens),
            total(u.cost_usd), sum(u.cost_usd IS NULL), count(*)
       FROM usage_entries u LEFT JOIN sessions s ON s.id = u.session_id
      WHERE u.at >= :from AND u.at < :to
      GROUP BY day, u.session_id, u.model, u.mode, u.source, u.label`,
  );
  const rows: UsageRow[] = [];
  try {
    stmt.bind({
      ':off': q.offsetMinutes * 60_000,
      ':from': q.fromMs ?? Number.MIN_SAFE_INTEGER,
      ':to': q.toMs ?? Number.MAX_SAFE_INTEGER,
    });
    while (stmt.step()) {
      const v = stmt.get();
      rows.push({
        day: Number(v[0]),
        sessionId: String(v[1]),
        title: String(v[2]),
        workspace: String(v[3]),
        model: String(v[4]),
        mode: String(v[5]),
        source: String(v[6]) as UsageSource,
        label: String(v[7]),
        inputTokens: Number(v[8]),
        cachedTokens: Number(v[9]),
        outputTokens: Number(v[10]),
        costUsd: Number(v[11]),
        unpriced: Number(v[12]),
        entries: Number(v[13]),
      });
    }
  } finally {
    stmt.free();
  }
  return rows;
}
