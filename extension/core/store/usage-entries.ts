// What each message spent, by source, in `usage_entries` (schema v10): written with the message's rows,
// so the Usage view sums one narrow table instead of parsing every message. The rows outlive the message
// body (a session gone cold, a rewind that dropped the answer): the money was spent all the same. Only a
// purge (retention, Reclaim) removes them, with the rest of the session.
import { type ChatMessage, type UsageSource, usageSlices } from '../../protocol';
import type { Logger } from '../ports';
import type { ColdFiles } from './cold-files';
import type { Database } from './sqljs';
import { queryAll, queryOne } from './sqljs';

/** Replaces one message's entries with what its usage says now (called whenever the message is written). */
export function writeUsageEntries(db: Database, sessionId: string, m: ChatMessage): void {
  db.run('DELETE FROM usage_entries WHERE message_id = ?', [m.id]);
  const slices = usageSlices(m);
  if (!slices.length) return;
  const ws = queryOne(db, 'SELECT workspace FROM sessions WHERE id = ?', [sessionId])?.workspace;
  const workspace = typeof ws === 'string' ? ws : '';
  slices.forEach((s, idx) => {
    db.run(
      `INSERT INTO usage_entries (message_id, idx, session_id, at, key, input_tokens, cached_tokens, output_tokens,
         cost_usd) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        m.id,
        idx,
        sessionId,
        m.createdAt,
        usageKey(db, { model: s.model, mode: m.mode, source: s.source, label: s.label, workspace }),
        s.inputTokens,
        s.cachedTokens,
        s.outputTokens,
        s.costUsd ?? null,
      ],
    );
  });
}

/** What an entry is about, as the Usage view groups it. */
export interface UsageKey {
  model: string;
  mode: string;
  source: UsageSource;
  label: string;
  /** The session's workspace folders, one per line ('' without a folder). */
  workspace: string;
}

/** The id of a key in `usage_keys`, added when new. */
export function usageKey(db: Database, k: UsageKey): number {
  const args = [k.model, k.mode, k.source, k.label, k.workspace];
  db.run('INSERT OR IGNORE INTO usage_keys (model, mode, source, label, workspace) VALUES (?, ?, ?, ?, ?)', args);
  const row = queryOne(
    db,
    'SELECT id FROM usage_keys WHERE model = ? AND mode = ? AND source = ? AND label = ? AND workspace = ?',
    args,
  );
  return Number(row?.id);
}

export function deleteSessionUsage(db: Database, sessionId: string): void {
  db.run('DELETE FROM usage_entries WHERE session_id = ?', [sessionId]);
}

/** Cold sessions read per snapshot by the backfill: each is one gunzip of its file. */
const BACKFILL_BATCH = 200;

/**
 * Carries the usage of sessions that were already cold when schema v10 arrived over from their files, a
 * batch per snapshot (the migration itself cannot read files). Returns whether some are left. A file
 * that cannot be read is logged and skipped: its session's usage is missing from the view, nothing else.
 */
export function backfillColdUsage(db: Database, cold: ColdFiles, log: Logger): boolean {
  if (queryOne(db, "SELECT value FROM meta WHERE key = 'usage_backfill'")?.value !== 'pending') return false;
  const done = queryOne(db, "SELECT value FROM meta WHERE key = 'usage_backfill_after'")?.value;
  const after = typeof done === 'string' ? done : '';
  const rows = queryAll(
    db,
    `SELECT s.id, s.cold_file FROM sessions s
      WHERE s.cold_file IS NOT NULL AND s.id > ?
        AND NOT EXISTS (SELECT 1 FROM usage_entries u WHERE u.session_id = s.id)
      ORDER BY s.id LIMIT ?`,
    [after, BACKFILL_BATCH],
  );
  db.exec('BEGIN');
  try {
    for (const r of rows) {
      const id = String(r.id);
      try {
        for (const m of cold.read(String(r.cold_file)).messages) writeUsageEntries(db, id, m);
      } catch (err) {
        log.warn(`store: the usage of cold session ${id} could not be read: ${(err as Error).message}`);
      }
    }
    const last = rows.length === BACKFILL_BATCH ? String(rows[rows.length - 1].id) : undefined;
    if (last) db.run("INSERT OR REPLACE INTO meta (key, value) VALUES ('usage_backfill_after', ?)", [last]);
    else db.run("DELETE FROM meta WHERE key IN ('usage_backfill', 'usage_backfill_after')");
    db.exec('COMMIT');
    return last !== undefined;
  } catch (err) {
    db.exec('ROLLBACK');
    throw err;
  }
}
