// The session store: journal first, sql.js snapshot off the hot path. See README.md for the files,
// the durability guarantees and how two windows share one folder.
//
// append(): redact → one synchronous write of one JSON line to this window's journal segment →
// apply to the in-memory database → schedule a snapshot. It returns only after the write, so
// an acknowledged record survives SIGKILL. Snapshots (debounced, on flush and on close) run
// under a lock shared by all windows: they merge every other window's journal, export the
// database, write it atomically with a checksum, and rotate the journal. Open = newest good
// snapshot + every journal record it does not contain.
import * as fs from 'node:fs';
import { join } from 'node:path';
import type { JournalRecord, Logger, SessionPersistence, StoredSession } from '../ports';
import type { SessionSummary } from '../../protocol';
import { createRedactor, redactDeep } from '../security/redact';
import { registerFunctions } from './bm25';
import { BlobStore } from './blobs';
import { ColdFiles } from './cold-files';
import { coldCandidates, DEFAULT_HOT_POLICY, moveToCold, type HotPolicy } from './cold-move';
import type { Embedder } from './embeddings';
import { exportSession, type ExportFormat } from './export';
import { JournalWriter, listSegments, readSegment, type FsyncPolicy } from './journal';
import { acquireLock, writerIsAlive, type LockOptions } from './lock';
import { excerptOf, queryTerms, searchMemory, type MemoryHit, type MemorySearchOptions } from './memory-query';
import { loadDatabase, type Hwm, type LoadedDb } from './open-db';
import { Projection } from './projection';
import { countSessions, listSessions, readArtifacts, readSession } from './sessions-read';
import { DB_FILE, dbPath, quarantine, readMeta, sha256, writeSnapshot } from './snapshot';
import { loadSqlJs, type SqlJsStatic } from './sqljs';
import { makePrivateDir, narrowStoreFiles } from './private-files';
import { runPendingDeletes } from './pending-deletes';
import { messageText } from './projection';
import { purgeDeleted, queueOrphans, storageReport, type StorageReport } from './retention';

export interface SessionStoreOptions {
  /** The folder (globalStorageUri) holding sextant.db, journal/ and blobs/. */
  dir: string;
  log: Logger;
  now?: () => number;
  embedder?: Embedder;
  /** Path of sql-wasm.wasm; defaults to the one next to the bundle (dist/sql-wasm.wasm). */
  wasmPath?: string;
  /** An already-loaded sql.js (tests and benchmarks share one). */
  sql?: SqlJsStatic;
  fsync?: FsyncPolicy;
  /** Quiet time after the last append before a snapshot is written. */
  snapshotDelayMs?: number;
  /** Longest a record waits in the journal alone while appends keep coming. */
  snapshotMaxDelayMs?: number;
  /** Journal bytes that trigger a snapshot right away. */
  journalMaxBytes?: number;
  /** Exact secret values (API keys) to keep out of the database and exports. */
  secrets?: () => Iterable<string>;
  lock?: LockOptions;
  /** Identifies this writer's journal files; must start with "<pid>-". */
  writerId?: string;
  /**
   * A journal writer opened before the database (lazy-store.ts): the store takes it over, and its
   * records written meanwhile are replayed at open like any other journal's.
   */
  journal?: JournalWriter;
  /**
   * Which sessions stay in the in-memory database; the others move to cold files at snapshots.
   * `false` keeps every session hot (the layout before cold sessions; benchmarks compare the two).
   */
  hot?: Partial<HotPolicy> | false;
  /** Soft-deleted sessions are purged after this many days; 0 or undefined keeps them. */
  purgeDeletedAfterDays?: number;
  /**
   * The workspace this window has open (its folders' paths, one per line; '' with no folder): stamped
   * on the sessions it creates, and the default scope of the agent's memory search.
   */
  workspace?: () => string;
  /**
   * Called on the first write that fails (a full disk), with the error and the storage folder: the
   * records stay in memory and are retried; called again only after writing worked once more.
   */
  onWriteError?(err: Error, dir: string): void;
  /** Called when writing works again and everything kept in memory is in the journal. */
  onWriteRecovered?(): void;
  /** How often records kept in memory are retried (default 3 s; also at each new record). */
  writeRetryMs?: number;
  /** Fault injection for the crash tests: called after a cold file is durable, before the database changes. */
  faults?: { afterColdFileWritten?(): void };
}

/** What "reclaim" did: sessions purged, files queued, bytes freed now. */
export interface ReclaimResult {
  purgedSessions: number;
  orphanFiles: number;
  freedBytes: number;
}

export interface SessionStore extends SessionPersistence {
  /** Records kept in memory because they could not be written yet (a full disk); 0 normally. */
  readonly unsavedRecords: number;
  /** Writes a snapshot now (also done on idle by the store itself). */
  flush(): Promise<void>;
  /** Writes a last snapshot and releases the files; appends fail afterwards. */
  close(): Promise<void>;
  searchMemory(query: string, opts?: MemorySearchOptions): Promise<MemoryHit[]>;
  /** The history list, or with `ids` just those sessions (for a search's hits). */
  listSessions(opts?: { query?: string; limit?: number; offset?: number; ids?: readonly string[] }): SessionSummary[];
  /** How many sessions the history list holds (not deleted). */
  countSessions(): number;
  /** The session as a file's text, secrets redacted; undefined when the session does not exist. */
  exportSession(sessionId: string, format: ExportFormat, opts?: { secrets?: Iterable<string> }): string | undefined;
  setEmbedder(embedder: Embedder | undefined): void;
  /** Where the store's disk space goes. */
  storageReport(): Promise<StorageReport>;
  /** Changes the retention period (days; 0 keeps deleted sessions). */
  setRetention(purgeDeletedAfterDays: number | undefined): void;
  /**
   * Purges every deleted session now (or only those past the retention period) and every orphan file,
   * then writes the snapshots after which their files can go, and deletes them.
   */
  reclaim(opts?: { allDeleted?: boolean }): Promise<ReclaimResult>;
  /** Moves every session the hot policy lets go to cold files now, and snapshots. Returns how many moved. */
  compact(): Promise<number>;
}

export async function openSessionStore(opts: SessionStoreOptions): Promise<SessionStore> {
  const SQL = opts.sql ?? (await loadSqlJs(opts.wasmPath ?? join(__dirname, 'sql-wasm.wasm')));
  // Owner-only: the folder and every store file in it (older versions left them readable by others).
  makePrivateDir(opts.dir);
  narrowStoreFiles(opts.dir);
  // Under the snapshot lock, so another window's snapshot is never read half-renamed. Throws
  // NewerSchemaError before anything is written when the file is from a newer Sextant.
  const release = await acquireLock(opts.dir, `open-${process.pid}-${Math.random().toString(36).slice(2)}`, opts.lock);
  try {
    const loaded = await loadDatabase(SQL, opts.dir, opts.log);
    return new Store(SQL, opts, loaded);
  } finally {
    release();
  }
}

function newWriterId(): string {
  return `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
}

class Store implements SessionStore {
  private readonly dir: string;
  private readonly writerId: string;
  private readonly log: Logger;
  private readonly now: () => number;
  private readonly blobs: BlobStore;
  private readonly projection: Projection;
  private readonly journal: JournalWriter;
  private hwm: Hwm;
  private state: LoadedDb;
  private embedder: Embedder | undefined;
  private pending = 0;
  private firstPendingAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly cold: ColdFiles;
  private readonly policy: HotPolicy | undefined;
  private purgeAfterDays: number | undefined;
  /** When the retention pass (purge + orphan scan) last ran; it runs at the first snapshot, then daily. */
  private lastRetentionAt = 0;
  /** When hot sessions were last checked for moving (a scan of the hot bodies; at most every 10 minutes). */
  private lastColdCheckAt = 0;
  private freedBytes = 0;

  constructor(
    private readonly SQL: SqlJsStatic,
    private readonly opts: SessionStoreOptions,
    loaded: LoadedDb,
  ) {
    this.dir = opts.dir;
    this.log = opts.log;
    this.now = opts.now ?? Date.now;
    this.embedder = opts.embedder;
    this.writerId = opts.journal?.writer ?? opts.writerId ?? newWriterId();
    this.blobs = new BlobStore(opts.dir);
    this.state = loaded;
    this.hwm = new Map(loaded.hwm);
    this.cold = new ColdFiles(opts.dir);
    this.policy = opts.hot === false ? undefined : { ...DEFAULT_HOT_POLICY, ...opts.hot };
    this.purgeAfterDays = opts.purgeDeletedAfterDays;
    this.projection = new Projection(loaded.db, this.blobs, this.log, this.cold);
    const replayed = this.replay(undefined);
    this.journal = opts.journal ?? new JournalWriter(opts.dir, this.writerId, opts.fsync ?? 'batch');
    if (loaded.source !== 'current' || loaded.migratedFrom !== undefined || replayed > 0) {
      const migrated = loaded.migratedFrom !== undefined ? ` (migrated from schema v${loaded.migratedFrom})` : '';
      this.log.info(`store: opened from ${loaded.source}${migrated}, replayed ${replayed} journal records`);
      this.pending += replayed + 1;
      this.firstPendingAt = this.now();
      this.schedule();
    }
  }

  /** Records applied in memory but not yet in the journal (the disk was full), oldest first. */
  private readonly unsaved: JournalRecord[] = [];
  private writeFailure: Error | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;

  private redactorCache: { key: string; redact: ReturnType<typeof createRedactor> } | undefined;

  /** The redactor for the current secret values (rebuilt only when they change). */
  private redactor() {
    const secrets = [...(this.opts.secrets?.() ?? [])];
    const key = secrets.join('\u0000');
    if (this.redactorCache?.key !== key)
      this.redactorCache = { key, redact: createRedactor(secrets, { assignments: false }) };
    return this.redactorCache.redact;
  }

  // ---- writes -------------------------------------------------------------------------------

  append(record: JournalRecord): void {
    if (this.closed) throw new Error('the session store is closed');
    const clean = redactDeep(this.stamped(record), this.redactor());
    this.unsaved.push(clean);
    this.writeUnsaved();
    try {
      this.projection.apply(clean);
    } catch (err) {
      // The record is durable; the next open replays it. Never un-acknowledge a written record.
      this.log.error(`store: could not apply a ${record.kind} record: ${(err as Error).message}`);
    }
    if (this.pending++ === 0) this.firstPendingAt = this.now();
    this.schedule();
  }

  /** A new session carries this window's workspace (when it has one and the record does not say). */
  private stamped(record: JournalRecord): JournalRecord {
    if (record.kind !== 'session_created' || record.workspace !== undefined) return record;
    const workspace = this.opts.workspace?.();
    return workspace === undefined ? record : { ...record, workspace };
  }

  /**
   * Writes the records not yet in the journal, in order. On a write error (a full disk) they stay in
   * memory — the chat and the in-memory database go on — the user is told once (onWriteError), and
   * writing is retried every few seconds and at each new record until it succeeds (onWriteRecovered).
   */
  private writeUnsaved(): void {
    while (this.unsaved.length) {
      try {
        this.hwm.set(this.writerId, this.journal.append(this.unsaved[0]));
      } catch (err) {
        if (!this.writeFailure) {
          this.writeFailure = err instanceof Error ? err : new Error(String(err));
          this.log.error(
            `store: could not write to ${this.dir}: ${this.writeFailure.message}; kept in memory, retrying`,
          );
          this.opts.onWriteError?.(this.writeFailure, this.dir);
        }
        this.retryTimer ??= setTimeout(() => {
          this.retryTimer = undefined;
          if (!this.closed) this.writeUnsaved();
        }, this.opts.writeRetryMs ?? 3000);
        this.retryTimer.unref?.();
        return;
      }
      this.unsaved.shift();
    }
    if (this.writeFailure) {
      this.writeFailure = undefined;
      this.log.info('store: writing again; everything kept in memory is saved');
      this.opts.onWriteRecovered?.();
      this.schedule();
    }
  }

  /** Records kept in memory because they could not be written yet (a full disk). */
  get unsavedRecords(): number {
    return this.unsaved.length;
  }

  setEmbedder(embedder: Embedder | undefined): void {
    this.embedder = embedder;
  }

  // ---- reads --------------------------------------------------------------------------------

  private get db() {
    return this.projection.db;
  }

  getSession(sessionId: string): StoredSession | undefined {
    this.projection.materialize();
    return this.readSessionOrLog(sessionId, false);
  }

  /** A session, its body read from its cold file when it is cold; undefined (logged) when that fails. */
  private readSessionOrLog(sessionId: string, includeDeleted: boolean): StoredSession | undefined {
    try {
      return readSession(this.db, this.blobs, sessionId, includeDeleted, this.cold);
    } catch (err) {
      // Another window may have warmed or purged it since our last reload: the next snapshot reloads.
      this.log.error(`store: ${(err as Error).message}`);
      if (this.pending++ === 0) this.firstPendingAt = this.now();
      this.schedule();
      return undefined;
    }
  }

  listSessions(opts?: { query?: string; limit?: number; offset?: number; ids?: readonly string[] }): SessionSummary[] {
    // A later page reads what the first page's refresh picked up: paging stays consistent.
    if (!opts?.offset) this.refresh();
    this.projection.materialize();
    return listSessions(this.db, opts);
  }

  countSessions(): number {
    this.projection.materialize();
    return countSessions(this.db);
  }

  async searchMemory(query: string, opts: MemorySearchOptions = {}): Promise<MemoryHit[]> {
    this.refresh();
    this.projection.materialize();
    // The agent's memory stays in its project: another project's conversations are not its to read
    // (an injection in one repository must not pull text from the others) unless the user widened it.
    const own = this.opts.workspace?.();
    const workspace = opts.workspace ?? (opts.scope === 'all' || own === undefined ? undefined : own);
    const hits = await searchMemory(() => this.db, query, {
      ...opts,
      workspace,
      embedder: this.embedder,
      log: this.log,
    });
    for (const hit of hits) if (!hit.messageId) this.coldExcerpt(hit, query);
    if (this.embedder) {
      // New vectors are derived data: worth a snapshot, but not a journal record.
      if (this.pending++ === 0) this.firstPendingAt = this.now();
      this.schedule();
    }
    return hits;
  }

  /** A hit on a cold session's word list: the excerpt and message come from its file (best message). */
  private coldExcerpt(hit: MemoryHit, query: string): void {
    const session = this.readSessionOrLog(hit.sessionId, false);
    if (!session) return;
    const terms = queryTerms(query);
    let best: { id: string; text: string; score: number } | undefined;
    for (const m of session.messages) {
      const text = messageText(m);
      const lower = text.toLowerCase();
      const score = terms.reduce(
        (n, t) => n + (lower.includes(t.length > 5 ? t.slice(0, t.length - 3) : t) ? 1 : 0),
        0,
      );
      if (text && (!best || score > best.score)) best = { id: m.id, text, score };
    }
    if (!best) return;
    hit.messageId = best.id;
    hit.excerpt = excerptOf(best.text.replace(/\s+/g, ' '), terms);
  }

  exportSession(
    sessionId: string,
    format: ExportFormat,
    opts: { secrets?: Iterable<string> } = {},
  ): string | undefined {
    this.projection.materialize();
    const session = this.readSessionOrLog(sessionId, true);
    if (!session) return undefined;
    const secrets = [...(this.opts.secrets?.() ?? []), ...(opts.secrets ?? [])];
    return exportSession({ session, artifacts: readArtifacts(this.db, sessionId) }, format, {
      secrets,
      now: this.now(),
    });
  }

  /** Picks up what other windows appended since (their journals), without writing anything. */
  private refresh(): void {
    if (!this.closed) this.replay(this.writerId);
  }

  // ---- journal replay -----------------------------------------------------------------------

  /** Applies every journal record beyond the high-water marks (skipping `skipWriter`), oldest first. */
  private replay(skipWriter: string | undefined): number {
    const byWriter = new Map<string, Array<{ seq: number; record: JournalRecord }>>();
    for (const seg of listSegments(this.dir)) {
      if (seg.writer === skipWriter) continue;
      const from = this.hwm.get(seg.writer) ?? 0;
      const lines = readSegment(seg.file, this.log).filter((l) => l.seq > from);
      if (lines.length === 0) continue;
      let list = byWriter.get(seg.writer);
      if (!list) {
        list = [];
        byWriter.set(seg.writer, list);
      }
      for (const l of lines) list.push({ seq: l.seq, record: l.record as JournalRecord });
    }
    // Merge writers by time while keeping each writer's own order.
    const queues = [...byWriter.entries()].map(([writer, list]) => ({
      writer,
      list: list.sort((a, b) => a.seq - b.seq),
      i: 0,
    }));
    let applied = 0;
    for (;;) {
      let best: (typeof queues)[number] | undefined;
      for (const q of queues)
        if (q.i < q.list.length && (!best || (q.list[q.i].record.at ?? 0) < (best.list[best.i].record.at ?? 0)))
          best = q;
      if (!best) break;
      const { seq, record } = best.list[best.i++];
      if (seq <= (this.hwm.get(best.writer) ?? 0)) continue;
      try {
        this.projection.apply(record);
      } catch (err) {
        this.log.error(`store: skipped journal record ${best.writer}#${seq}: ${(err as Error).message}`);
      }
      this.hwm.set(best.writer, seq);
      applied++;
    }
    return applied;
  }

  // ---- snapshots ----------------------------------------------------------------------------

  private schedule(): void {
    if (this.closed) return;
    const delay = this.opts.snapshotDelayMs ?? 1500;
    const maxDelay = this.opts.snapshotMaxDelayMs ?? 30_000;
    const urgent =
      this.journal.bytesInSegment > (this.opts.journalMaxBytes ?? 16 * 1024 * 1024) ||
      this.now() - this.firstPendingAt >= maxDelay;
    if (this.timer && !urgent) clearTimeout(this.timer);
    else if (this.timer) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.flush().catch((err: unknown) => this.log.error(`store: snapshot failed: ${(err as Error).message}`));
      },
      urgent ? 0 : delay,
    );
    this.timer.unref?.();
  }

  flush(): Promise<void> {
    const run = this.chain.then(() => this.snapshot());
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async snapshot(): Promise<void> {
    if (this.closed) return;
    // A snapshot must never hold records the journal does not: they would be replayed twice later.
    if (this.unsaved.length) this.writeUnsaved();
    if (this.unsaved.length) throw new Error(`${this.unsaved.length} records are not written yet (disk full?)`);
    // Nor name a blob file that is not on disk yet.
    const blobsKept = this.blobs.writePending();
    if (blobsKept) throw new Error(`${blobsKept} long texts are not written yet (disk full?)`);
    const release = await acquireLock(this.dir, this.writerId, this.opts.lock);
    try {
      // Under the lock no one else is writing a snapshot: any temp file is left from a crash.
      for (const f of fs.readdirSync(this.dir))
        if (f.startsWith(`${DB_FILE}.tmp-`)) fs.rmSync(join(this.dir, f), { force: true });
      // Later appends go to a new segment; the closed one is deleted once two snapshots hold it.
      this.journal.rotate();
      const key = readMeta(dbPath(this.dir))?.sha256 ?? 'none';
      if (key !== this.state.currentKey) await this.reload();
      else this.replay(this.writerId);
      const db = this.db;
      this.projection.materialize();
      if (this.now() - this.lastRetentionAt > 86_400_000) this.retentionPass(false);
      const moreToMove = this.moveCold(false);
      const generation = this.state.generation + 1;
      const prevHwm = this.state.currentGood ? this.state.hwm : this.state.prevHwm;
      db.exec('BEGIN');
      db.run("INSERT OR REPLACE INTO meta (key, value) VALUES ('generation', ?)", [String(generation)]);
      db.run('DELETE FROM journal_hwm');
      for (const [writer, seq] of this.hwm)
        db.run('INSERT INTO journal_hwm (writer, seq, prev_seq) VALUES (?, ?, ?)', [
          writer,
          seq,
          prevHwm.get(writer) ?? 0,
        ]);
      db.exec('COMMIT');
      const pendingAtExport = this.pending;
      const hwmAtExport = new Map(this.hwm);
      const bytes = db.export();
      // export() frees prepared statements and custom functions: register them again.
      registerFunctions(db);
      if (!this.state.currentGood && fs.existsSync(dbPath(this.dir))) {
        const dest = quarantine(dbPath(this.dir), this.now());
        this.log.warn(`store: moved the corrupt snapshot aside to ${dest}`);
      }
      await writeSnapshot(this.dir, bytes, generation, this.writerId, this.state.currentGood);
      this.state = {
        ...this.state,
        currentGood: true,
        currentKey: sha256(bytes),
        generation,
        hwm: hwmAtExport,
        prevHwm,
      };
      this.pending -= Math.min(this.pending, pendingAtExport);
      this.deleteCoveredSegments(prevHwm);
      const freed = runPendingDeletes(db, this.dir, generation, this.log);
      this.freedBytes += freed;
      // The queue rows just removed, and sessions still to move, are worth another snapshot.
      if (freed > 0 || moreToMove) {
        if (this.pending++ === 0) this.firstPendingAt = this.now();
        this.schedule();
      }
    } finally {
      release();
    }
  }

  /**
   * Moves sessions the hot policy lets go to cold files (within the per-snapshot budget unless `all`).
   * Returns whether some are left for the next snapshot.
   */
  private moveCold(all: boolean): boolean {
    if (!this.policy) return false;
    if (!all && this.lastColdCheckAt > 0 && this.now() - this.lastColdCheckAt < this.policy.checkEveryMs) return false;
    this.lastColdCheckAt = this.now();
    const policy = all ? { ...this.policy, maxMoveBytes: Number.POSITIVE_INFINITY } : this.policy;
    const list = coldCandidates(this.db, policy, this.now(), this.projection.liveSessions());
    let moved = 0;
    for (const c of list) {
      try {
        moveToCold(this.db, this.blobs, this.cold, c.id, this.log, this.opts.faults?.afterColdFileWritten);
        this.projection.forget(c.id);
        moved++;
      } catch (err) {
        // The session stays hot; the next snapshot tries again.
        this.log.error(`store: could not move session ${c.id} to a cold file: ${(err as Error).message}`);
        return false;
      }
    }
    if (moved > 0) {
      this.log.info(`store: moved ${moved} session(s) to cold files`);
      this.vacuumIfSparse();
    }
    const more =
      !all && moved > 0 && coldCandidates(this.db, policy, this.now(), this.projection.liveSessions()).length > 0;
    // More to move (past the per-snapshot budget): the next snapshot checks again at once.
    if (more) this.lastColdCheckAt = 0;
    return more;
  }

  /**
   * SQLite keeps the pages of deleted rows as free pages, and export() writes them all: after moves
   * or purges leave a quarter of the database free, VACUUM so the snapshot (and the next open) shrink.
   */
  private vacuumIfSparse(): void {
    const n = (sql: string) => Number(this.db.exec(sql)[0]?.values[0]?.[0] ?? 0);
    // Deleted chunks stay in the full-text index's segments until they are merged.
    this.db.exec("INSERT INTO memory_fts(memory_fts) VALUES('optimize')");
    const free = n('PRAGMA freelist_count');
    if (free > 64 && free * 4 > n('PRAGMA page_count')) this.db.exec('VACUUM');
  }

  /** Purges deleted sessions past the retention period (all of them with `allDeleted`) and queues orphan files. */
  private retentionPass(allDeleted: boolean): { purged: number; orphans: number } {
    this.lastRetentionAt = this.now();
    let purged: string[] = [];
    const days = this.purgeAfterDays;
    if (allDeleted || (days !== undefined && days > 0))
      purged = purgeDeleted(
        this.db,
        allDeleted ? this.now() : this.now() - (days ?? 0) * 86_400_000,
        this.cold,
        this.log,
      );
    const orphans = queueOrphans(this.db, this.dir, this.now());
    if (purged.length) this.vacuumIfSparse();
    if (purged.length || orphans.files)
      this.log.info(`store: purged ${purged.length} deleted session(s); ${orphans.files} unused file(s) queued`);
    return { purged: purged.length, orphans: orphans.files };
  }

  storageReport(): Promise<StorageReport> {
    return this.runExclusive(() => {
      this.refresh();
      this.projection.materialize();
      return storageReport(this.db, this.dir);
    });
  }

  setRetention(purgeDeletedAfterDays: number | undefined): void {
    this.purgeAfterDays = purgeDeletedAfterDays;
    this.lastRetentionAt = 0;
  }

  async reclaim(opts: { allDeleted?: boolean } = {}): Promise<ReclaimResult> {
    const pass = await this.runExclusive(() => {
      this.refresh();
      this.projection.materialize();
      return this.retentionPass(opts.allDeleted ?? false);
    });
    const before = this.freedBytes;
    // Two snapshots: after the second, neither the current snapshot nor .prev names the queued files.
    this.pending++;
    await this.flush();
    this.pending++;
    await this.flush();
    return { purgedSessions: pass.purged, orphanFiles: pass.orphans, freedBytes: this.freedBytes - before };
  }

  async compact(): Promise<number> {
    const before = await this.runExclusive(() => this.countCold());
    await this.runExclusive(() => {
      this.projection.materialize();
      this.moveCold(true);
    });
    this.pending++;
    await this.flush();
    return this.countCold() - before;
  }

  private countCold(): number {
    return Number(this.db.exec('SELECT count(*) FROM sessions WHERE cold_file IS NOT NULL')[0]?.values[0]?.[0] ?? 0);
  }

  /** Runs `fn` between snapshots (never while one is being written). */
  private runExclusive<T>(fn: () => T): Promise<T> {
    const run = this.chain.then(fn);
    this.chain = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Another window wrote a newer snapshot: start from it and replay every journal over it. */
  private async reload(): Promise<void> {
    const loaded = await loadDatabase(this.SQL, this.dir, this.log);
    const old = this.db;
    this.state = loaded;
    this.hwm = new Map(loaded.hwm);
    this.projection.reset(loaded.db);
    this.replay(undefined);
    old.close();
  }

  private deleteCoveredSegments(prevHwm: Hwm): void {
    this.journal.deleteCovered(prevHwm.get(this.writerId) ?? 0);
    for (const seg of listSegments(this.dir)) {
      if (seg.writer === this.writerId || writerIsAlive(seg.writer)) continue;
      const lines = readSegment(seg.file);
      const max = lines.reduce((m, l) => Math.max(m, l.seq), 0);
      if (max <= (prevHwm.get(seg.writer) ?? 0)) fs.rmSync(seg.file, { force: true });
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    if (this.unsaved.length) this.writeUnsaved();
    if (this.unsaved.length)
      this.log.error(`store: closing with ${this.unsaved.length} records not written (disk full)`);
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    try {
      await this.flush();
    } catch (err) {
      // Everything is still in the journal; the next open replays it.
      this.log.error(`store: final snapshot failed: ${(err as Error).message}`);
    }
    this.closed = true;
    this.journal.close();
    this.db.close();
  }
}
