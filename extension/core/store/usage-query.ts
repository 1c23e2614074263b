// The Usage view's reads. One scan of `usage_entries` over the `at` index, reading integers and the session
// id only, summed in JS by (local day, key) and by session — no GROUP BY: sorting 60,000 string-keyed rows
// in sql.js cost 200 ms+, the scan costs ~30 ms (bench/usage.mjs). Keys (model, mode, source, label,
// workspace) are a few hundred rows read once; titles are read only for the sessions listed.
import type { UsageFigures } from '../../protocol';
import type { Database } from './sqljs';
import { queryAll } from './sqljs';
import type { UsageKey } from './usage-entries';

export interface UsageRowsQuery {
  /** Entries at or after this time (ms); undefined: from the first. */
  fromMs?: number;
  /** Entries before this time (ms); undefined: no end. */
  toMs?: number;
  /** Minutes to add to UTC for local time (e.g. 120 in Berlin in summer): where days begin. */
  offsetMinutes: number;
}

/** One local day's entries with one key, summed. */
export interface UsageCell extends UsageFigures {
  /** Local days since 1970-01-01. */
  day: number;
  key: UsageKey;
}

export interface UsageSessionTotal extends UsageFigures {
  sessionId: string;
  title: string;
}

export interface UsageSummary {
  cells: UsageCell[];
  /** The costliest sessions (then most tokens), at most the limit asked for. */
  sessions: UsageSessionTotal[];
  /** How many sessions spent anything in the range. */
  sessionCount: number;
}

/** A CSV line's grain: one local day, session and key. */
export interface UsageRow extends UsageCell {
  sessionId: string;
  title: string;
}

const DAY_MS = 86_400_000;

export const emptyFigures = (): UsageFigures => ({
  inputTokens: 0,
  cachedTokens: 0,
  outputTokens: 0,
  costUsd: 0,
  unpriced: 0,
  entries: 0,
});

/** Calls `visit` for every entry in the range: local day, session, key id, the row (tokens, cost; null: unknown). */
function scan(
  db: Database,
  q: UsageRowsQuery,
  visit: (day: number, session: string, key: number, v: readonly unknown[]) => void,
): void {
  const stmt = db.prepare(
    `SELECT at, session_id, key, input_tokens, cached_tokens, output_tokens, cost_usd
       FROM usage_entries WHERE at >= ? AND at < ?`,
  );
  const off = q.offsetMinutes * 60_000;
  try {
    stmt.bind([q.fromMs ?? Number.MIN_SAFE_INTEGER, q.toMs ?? Number.MAX_SAFE_INTEGER]);
    while (stmt.step()) {
      const v = stmt.get();
      visit(Math.floor((Number(v[0]) + off) / DAY_MS), String(v[1]), Number(v[2]), v);
    }
  } finally {
    stmt.free();
  }
}

function add(f: UsageFigures, v: readonly unknown[]): void {
  f.inputTokens += Number(v[3]);
  f.cachedTokens += Number(v[4]);
  f.outputTokens += Number(v[5]);
  if (v[6] === null) f.unpriced++;
  else f.costUsd += Number(v[6]);
  f.entries++;
}

/** The value under `k`, made and stored first when there is none. */
export function slot<K, V>(m: Map<K, V>, k: K, make: () => V): V {
  let v = m.get(k);
  if (v === undefined) {
    v = make();
    m.set(k, v);
  }
  return v;
}

/** A key id with no row (never written so; a damaged database): counted, as an unknown chat model. */
const lostKey = (id: number): UsageKey => ({
  model: '',
  mode: 'chat',
  source: 'chat',
  label: `key ${id}`,
  workspace: '',
});

function keys(db: Database): Map<number, UsageKey> {
  const out = new Map<number, UsageKey>();
  for (const r of queryAll(db, 'SELECT id, model, mode, source, label, workspace FROM usage_keys'))
    out.set(Number(r.id), {
      model: String(r.model),
      mode: String(r.mode),
      source: String(r.source) as UsageKey['source'],
      label: String(r.label),
      workspace: String(r.workspace),
    });
  return out;
}

function titles(db: Database, ids: readonly string[] | undefined): Map<string, string> {
  const out = new Map<string, string>();
  const where = ids ? `WHERE id IN (${ids.map(() => '?').join(',')})` : '';
  if (ids?.length === 0) return out;
  for (const r of queryAll(db, `SELECT id, title FROM sessions ${where}`, ids ? [...ids] : []))
    out.set(String(r.id), String(r.title));
  return out;
}

export function usageSummary(db: Database, q: UsageRowsQuery, sessionLimit: number): UsageSummary {
  const cells = new Map<number, UsageFigures & { day: number; k: number }>();
  const sessions = new Map<string, UsageFigures>();
  scan(db, q, (day, session, k, v) => {
    // Day numbers stay far below 2^32 and keys below 2^20, so one number names the pair.
    const id = day * 1_048_576 + k;
    add(
      slot(cells, id, () => ({ ...emptyFigures(), day, k })),
      v,
    );
    add(slot(sessions, session, emptyFigures), v);
  });
  const byKey = keys(db);
  const top = [...sessions.entries()]
    .sort(([, a], [, b]) => b.costUsd - a.costUsd || b.inputTokens + b.outputTokens - (a.inputTokens + a.outputTokens))
    .slice(0, sessionLimit);
  const names = titles(
    db,
    top.map(([id]) => id),
  );
  return {
    cells: [...cells.values()].map(({ k, ...c }) => ({ ...c, key: byKey.get(k) ?? lostKey(k) })),
    sessions: top.map(([sessionId, f]) => ({ sessionId, title: names.get(sessionId) ?? '', ...f })),
    sessionCount: sessions.size,
  };
}

/** Every (local day, session, key) in the range with its sums: the CSV's lines. */
export function usageRows(db: Database, q: UsageRowsQuery): UsageRow[] {
  const rows = new Map<string, UsageFigures & { day: number; k: number; sessionId: string }>();
  scan(db, q, (day, sessionId, k, v) => {
    const id = `${day}\u0000${k}\u0000${sessionId}`;
    add(
      slot(rows, id, () => ({ ...emptyFigures(), day, k, sessionId })),
      v,
    );
  });
  const byKey = keys(db);
  const names = titles(db, undefined);
  return [...rows.values()].map(({ k, ...r }) => ({
    ...r,
    key: byKey.get(k) ?? lostKey(k),
    title: names.get(r.sessionId) ?? '',
  }));
}
