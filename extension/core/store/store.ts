// The session store: journal first, sql.js snapshot off the hot path. See README.md for the files,
// the durability guarantees and how two windows share one folder. append(): redact → one synchronous
// write of one JSON line to this window's journal segment → apply to the in-memory database →
// schedule a snapshot. It returns only after the write, so an acknowledged record survives SIGKILL.
// Snapshots (debounced, on flush and on close) run under a lock shared by all windows: they merge
// every other window's journal, export the database, write it atomically with a checksum, and rotate
// the journal. Open = newest good snapshot + every journal record it does not contain.
import * as fs from 'node:fs';
import { join } from 'node:path';
import type { InterruptedSession, JournalRecord, Logger, StoredSession } from '../ports';
import type { MermaidRenderer, SessionSummary } from '../../protocol';
import { registerFunctions } from './bm25';
import { BlobStore } from './blobs';
import { ImageFiles } from './image-files';
import { resolveImages } from './image-refs';
import { ColdFiles } from './cold-files';
import { DEFAULT_HOT_POLICY } from './cold-move';
import type { Embedder } from './embeddings';
import { exportSession, type ExportFormat } from './export';
import { JournalWriter } from './journal';
import { deleteCoveredSegments, replayJournals } from './journal-replay';
import { JournalTails } from './journal-tails';
import { acquireLock } from './lock';
import type { MemoryHit, MemorySearchOptions } from './memory-query';
import { loadDatabase, type Hwm, type LoadedDb, writeSnapshotMarks } from './open-db';
import { Projection } from './projection';
import { countSessions, listSessions, readArtifacts, readSession } from './sessions-read';
import { storedResearch, type ResearchOf } from './research-sources';
import { DB_FILE, dbPath, quarantine, readMeta, sha256, writeSnapshot } from './snapshot';
import { loadSqlJs, type SqlJsStatic } from './sqljs';
import { makePrivateDir, narrowStoreFiles } from './private-files';
import { runPendingDeletes } from './pending-deletes';
import { storageReport, type StorageReport } from './retention';
import type { ReclaimResult, SessionStore, SessionStoreOptions } from './store-contract';
import { SnapshotSchedule } from './snapshot-schedule';
import { SessionRuns } from './store-runs';
import { RecordPrep } from './record-prep';
import { StoreSearch } from './store-search';
import { StoreUpkeep } from './store-upkeep';
import { UnsavedRecords } from './unsaved-records';
import { type UsageRowsQuery, usageRows, usageSummary } from './usage-query';

export type { ReclaimResult, SessionStore, SessionStoreOptions } from './store-contract';

export async function openSessionStore(opts: SessionStoreOptions): Promise<SessionStore> {
  const SQL = opts.sql ?? (await loadSqlJs(opts.wasmPath ?? join(__dirname, 'sql-wasm.wasm')));
  // Owner-only: the folder and every store file in it (older versions left them readable by others).
  makePrivateDir(opts.dir);
  narrowStoreFiles(opts.dir);
  // Under the snapshot lock (no half-renamed snapshot is read). NewerSchemaError: from a newer Sextant.
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
  readonly images: ImageFiles;
  private readonly projection: Projection;
  private readonly journal: JournalWriter;
  private hwm: Hwm;
  /** How far each journal segment was read: a refresh reads only what other windows appended since. */
  private tails = new JournalTails();
  private state: LoadedDb;
  private readonly snapshots: SnapshotSchedule;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly cold: ColdFiles;
  private readonly search: StoreSearch;
  private readonly upkeep: StoreUpkeep;
  private readonly unsaved: UnsavedRecords;
  private freedBytes = 0;
  private readonly runs: SessionRuns;
  // The run-state API is SessionRuns' (store-runs.ts).
  readonly markRunning = (sessionId: string, requestId: string) => this.runs.markRunning(sessionId, requestId);
  readonly markEnded = (sessionId: string) => this.runs.markEnded(sessionId);
  readonly interruptedSessions = (): InterruptedSession[] => this.runs.interruptedSessions();
  readonly runningElsewhere = (sessionId: string) => this.runs.runningElsewhere(sessionId);
  readonly usageRows = (q: UsageRowsQuery) => usageRows(this.projection.materialized(), q);
  readonly usageSummary = (q: UsageRowsQuery, n: number) => usageSummary(this.projection.materialized(), q, n);
  private readonly prep: RecordPrep;

  constructor(
    private readonly SQL: SqlJsStatic,
    private readonly opts: SessionStoreOptions,
    loaded: LoadedDb,
  ) {
    this.dir = opts.dir;
    this.log = opts.log;
    this.now = opts.now ?? Date.now;
    this.writerId = opts.journal?.writer ?? opts.writerId ?? newWriterId();
    this.blobs = new BlobStore(opts.dir);
    this.images = new ImageFiles(opts.dir);
    this.state = loaded;
    this.hwm = new Map(loaded.hwm);
    this.cold = new ColdFiles(opts.dir);
    this.search = new StoreSearch({
      dir: opts.dir,
      log: this.log,
      cold: this.cold,
      db: () => this.db,
      embedder: opts.embedder,
      workspace: opts.workspace,
      readSession: (id) => this.readSessionOrLog(id, false),
      changed: () => this.snapshots.changed(),
    });
    this.projection = new Projection(loaded.db, this.blobs, this.log, this.cold);
    this.prep = new RecordPrep(this.images, this.writerId, opts);
    this.runs = new SessionRuns(this.writerId, this.now, () => this.db, this);
    const replayed = replayJournals(this.dir, this.hwm, undefined, this.projection, this.log, this.tails);
    this.journal = opts.journal ?? new JournalWriter(opts.dir, this.writerId, opts.fsync ?? 'batch');
    this.snapshots = new SnapshotSchedule({
      now: this.now,
      delayMs: opts.snapshotDelayMs ?? 1500,
      maxDelayMs: opts.snapshotMaxDelayMs ?? 30_000,
      journalFull: () => this.journal.bytesInSegment > (opts.journalMaxBytes ?? 16 * 1024 * 1024),
      closed: () => this.closed,
      run: () => {
        this.flush().catch((err: unknown) => this.log.error(`store: snapshot failed: ${(err as Error).message}`));
      },
    });
    this.upkeep = new StoreUpkeep({
      dir: opts.dir,
      log: this.log,
      now: this.now,
      blobs: this.blobs,
      cold: this.cold,
      projection: this.projection,
      policy: opts.hot === false ? undefined : { ...DEFAULT_HOT_POLICY, ...opts.hot },
      purgeAfterDays: opts.purgeDeletedAfterDays,
      afterColdFileWritten: opts.faults?.afterColdFileWritten,
    });
    this.unsaved = new UnsavedRecords({
      dir: opts.dir,
      log: this.log,
      write: (record) => this.hwm.set(this.writerId, this.journal.append(record)),
      closed: () => this.closed,
      recovered: () => this.snapshots.schedule(),
      onWriteError: opts.onWriteError,
      onWriteRecovered: opts.onWriteRecovered,
      writeRetryMs: opts.writeRetryMs,
    });
    if (loaded.source !== 'current' || loaded.migratedFrom !== undefined || replayed > 0) {
      const migrated = loaded.migratedFrom !== undefined ? ` (migrated from schema v${loaded.migratedFrom})` : '';
      this.log.info(`store: opened from ${loaded.source}${migrated}, replayed ${replayed} journal records`);
      this.snapshots.changed(replayed + 1);
    }
  }

  // ---- writes -------------------------------------------------------------------------------

  append(record: JournalRecord): void {
    if (this.closed) throw new Error('the session store is closed');
    // Image bytes go to their files first: the journal and the database keep references.
    const clean = this.prep.prepare(record);
    this.unsaved.push(clean);
    try {
      this.projection.apply(clean);
    } catch (err) {
      // The record is durable; the next open replays it. Never un-acknowledge a written record.
      this.log.error(`store: could not apply a ${record.kind} record: ${(err as Error).message}`);
    }
    this.snapshots.changed();
  }

  /** Records kept in memory because they could not be written yet (a full disk). */
  get unsavedRecords(): number {
    return this.unsaved.length;
  }

  setEmbedder(embedder: Embedder | undefined): void {
    this.search.embedder = embedder;
  }

  // ---- reads --------------------------------------------------------------------------------

  private get db() {
    return this.projection.db;
  }

  /** A session with its model history's images loaded back from their files (what a request sends). */
  getSession(sessionId: string): StoredSession | undefined {
    this.projection.materialize();
    const session = this.readSessionOrLog(sessionId, false);
    return session && { ...session, modelMessages: resolveImages(session.modelMessages, this.images) };
  }

  research(of: ResearchOf): ReturnType<typeof storedResearch> {
    this.projection.materialize();
    return storedResearch(this.db, of);
  }

  /** A session, its body read from its cold file when it is cold; undefined (logged) when that fails. */
  private readSessionOrLog(sessionId: string, includeDeleted: boolean): StoredSession | undefined {
    try {
      return readSession(this.db, this.blobs, sessionId, includeDeleted, this.cold);
    } catch (err) {
      // Another window may have warmed or purged it since our last reload: the next snapshot reloads.
      this.log.error(`store: ${(err as Error).message}`);
      this.snapshots.changed();
      return undefined;
    }
  }

  listSessions(opts?: { query?: string; limit?: number; offset?: number; ids?: readonly string[] }): SessionSummary[] {
    // A later page reads what the first page's refresh picked up: paging stays consistent.
    if (!opts?.offset) this.refresh();
    this.projection.materialize();
    return this.runs.flagInterrupted(listSessions(this.db, opts, this.search.coldSearch));
  }

  countSessions(): number {
    this.projection.materialize();
    return countSessions(this.db);
  }

  async searchMemory(query: string, opts: MemorySearchOptions = {}): Promise<MemoryHit[]> {
    this.refresh();
    this.projection.materialize();
    return this.search.search(query, opts);
  }

  exportSession(
    sessionId: string,
    format: ExportFormat,
    opts: { secrets?: Iterable<string>; mermaid?: MermaidRenderer } = {},
  ): string | undefined {
    this.projection.materialize();
    const session = this.readSessionOrLog(sessionId, true);
    if (!session) return undefined;
    return exportSession({ session, artifacts: readArtifacts(this.db, sessionId) }, format, {
      ...opts,
      secrets: [...(this.opts.secrets?.() ?? []), ...(opts.secrets ?? [])],
      now: this.now(),
      image: (sha) => this.images.read(sha),
    });
  }

  /** Picks up what other windows appended since (their journals), without writing anything. */
  refresh(): void {
    if (!this.closed) replayJournals(this.dir, this.hwm, this.writerId, this.projection, this.log, this.tails);
  }

  // ---- snapshots ----------------------------------------------------------------------------

  flush(): Promise<void> {
    const run = this.chain.then(() => this.snapshot());
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async snapshot(): Promise<void> {
    if (this.closed) return;
    // A snapshot must never hold records the journal does not: they would be replayed twice later.
    if (this.unsaved.length) this.unsaved.writeUnsaved();
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
      else replayJournals(this.dir, this.hwm, this.writerId, this.projection, this.log, this.tails);
      const db = this.db;
      this.projection.materialize();
      if (this.upkeep.retentionDue()) this.upkeep.retentionPass(false);
      const moreToMove = this.upkeep.moveCold(false) || this.upkeep.migrateColdSearch();
      const generation = this.state.generation + 1;
      const prevHwm = this.state.currentGood ? this.state.hwm : this.state.prevHwm;
      writeSnapshotMarks(db, generation, this.hwm, prevHwm);
      const pendingAtExport = this.snapshots.pending;
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
      this.snapshots.saved(pendingAtExport);
      deleteCoveredSegments(this.dir, this.journal, this.writerId, prevHwm);
      const freed = runPendingDeletes(db, this.dir, generation, this.log);
      this.freedBytes += freed;
      // The queue rows just removed, and sessions still to move, are worth another snapshot.
      if (freed > 0 || moreToMove) {
        this.snapshots.changed();
      }
    } finally {
      release();
    }
  }

  storageReport(): Promise<StorageReport> {
    return this.runExclusive(() => {
      this.refresh();
      this.projection.materialize();
      return storageReport(this.db, this.dir);
    });
  }

  setRetention(purgeDeletedAfterDays: number | undefined): void {
    this.upkeep.setRetention(purgeDeletedAfterDays);
  }

  async reclaim(opts: { allDeleted?: boolean } = {}): Promise<ReclaimResult> {
    const pass = await this.runExclusive(() => {
      this.refresh();
      this.projection.materialize();
      return this.upkeep.retentionPass(opts.allDeleted ?? false);
    });
    const before = this.freedBytes;
    // Two snapshots: after the second, neither the current snapshot nor .prev names the queued files.
    this.snapshots.pending++;
    await this.flush();
    this.snapshots.pending++;
    await this.flush();
    return { purgedSessions: pass.purged, orphanFiles: pass.orphans, freedBytes: this.freedBytes - before };
  }

  async compact(): Promise<number> {
    const before = await this.runExclusive(() => this.upkeep.countCold());
    await this.runExclusive(() => {
      this.projection.materialize();
      this.upkeep.moveCold(true);
    });
    this.snapshots.pending++;
    await this.flush();
    return this.upkeep.countCold() - before;
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
    // Every journal is read again over the new snapshot, from its first byte.
    this.tails = new JournalTails();
    replayJournals(this.dir, this.hwm, undefined, this.projection, this.log, this.tails);
    old.close();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.unsaved.stopRetrying();
    if (this.unsaved.length) this.unsaved.writeUnsaved();
    if (this.unsaved.length)
      this.log.error(`store: closing with ${this.unsaved.length} records not written (disk full)`);
    this.snapshots.cancel();
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
