// Which sessions have a request running, and which were interrupted. A request's start and end are
// journaled (`run_state` records, crash-safe like every other record) with the window's journal writer
// stamped on them; `session_runs` holds the running ones. A row whose writer's process is gone was left
// by a window that crashed or reloaded mid-run: that session was interrupted. A row of a live writer
// (this window, or another window still open) is a run in progress, never "interrupted".
//
// The store's whole run-state API is here (SessionRuns); store.ts only hands it the database and its writer.
import type { SessionSummary } from '../../protocol';
import { writerIsAlive } from './lock';
import type { Database } from './sqljs';
import { queryAll, queryOne } from './sqljs';
import type { InterruptedSession, JournalRecord } from './store-contract';

/** What the run-state API needs of the store besides its database, writer and clock. */
export interface SessionRunsHost {
  append(record: JournalRecord): void;
  /** Reads what other windows journaled since (their runs started and ended); private to the store. */
  refresh(): void;
}

/** A store's run state: marking a request running or ended, and asking which runs were cut off or run elsewhere. */
export class SessionRuns {
  constructor(
    private readonly writerId: string,
    private readonly now: () => number,
    private readonly db: () => Database,
    private readonly host: SessionRunsHost,
  ) {}

  markRunning(sessionId: string, requestId: string): void {
    this.host.append({ kind: 'run_state', sessionId, requestId, at: this.now() });
  }

  markEnded(sessionId: string): void {
    this.host.append({ kind: 'run_state', sessionId, requestId: null, at: this.now() });
  }

  interruptedSessions(): InterruptedSession[] {
    // Other windows' journals first: a run another window started or ended since is known.
    this.host.refresh();
    return interruptedSessions(this.db(), this.writerId);
  }

  runningElsewhere(sessionId: string): boolean {
    this.host.refresh();
    return runningElsewhere(this.db(), sessionId, this.writerId);
  }

  /** The History list with its interrupted sessions flagged (read as the list was: no refresh). */
  flagInterrupted(list: SessionSummary[]): SessionSummary[] {
    const interrupted = new Set(interruptedSessions(this.db(), this.writerId).map((s) => s.id));
    return interrupted.size ? list.map((s) => (interrupted.has(s.id) ? { ...s, interrupted: true } : s)) : list;
  }
}

/** The record with this window's writer on it (a `run_state` record says who runs the request). */
export function stampWriter(record: JournalRecord, writer: string): JournalRecord {
  return record.kind === 'run_state' && record.writer === undefined ? { ...record, writer } : record;
}

/** Sessions left running by a writer that is not this one and whose process is gone, newest first. */
export function interruptedSessions(db: Database, ownWriter: string): InterruptedSession[] {
  const rows = queryAll(
    db,
    `SELECT r.session_id, r.request_id, r.writer, r.started_at, s.title, s.updated_at
       FROM session_runs r JOIN sessions s ON s.id = r.session_id
      WHERE s.deleted_at IS NULL
      ORDER BY s.updated_at DESC, r.session_id`,
  );
  return rows
    .filter((r) => String(r.writer) !== ownWriter && !writerIsAlive(String(r.writer)))
    .map((r) => ({
      id: String(r.session_id),
      title: String(r.title),
      requestId: String(r.request_id),
      startedAt: Number(r.started_at),
      lastEventAt: Number(r.updated_at),
    }));
}

/** Whether another live window runs a request of this session now (this window then only reads it). */
export function runningElsewhere(db: Database, sessionId: string, ownWriter: string): boolean {
  const row = queryOne(db, 'SELECT writer FROM session_runs WHERE session_id = ?', [sessionId]);
  return row !== undefined && String(row.writer) !== ownWriter && writerIsAlive(String(row.writer));
}
