// The store as the runtime gets it: usable at once, while sql.js (wasm), the snapshot and the journal
// replay are still loading — so the first request never waits for history.
//
// Opening the journal writer is cheap (a mkdir and an open), so it happens first, synchronously.
// Until the database is ready, append() redacts and writes the record to this writer's journal
// segment with the same synchronous write as the store itself (the journal is the source of truth:
// a window that dies now loses nothing, the next open replays it). The database then opens with this
// same writer (same id, same segment, seq continuing), and its replay at open reads this writer's
// records like every other journal record, so what was appended meanwhile is in the database before
// any read. Reads go through `ready`; the synchronous reads of SessionPersistence answer empty until
// then, so callers that need history wait for `ready` first (the runtime gates those messages).
import { createLiveRedactor, redactDeep } from '../security/redact';
import type { InterruptedSession, JournalRecord, StoredResearch, StoredSession } from '../ports';
import type { SessionSummary } from '../../protocol';
import type { Embedder } from './embeddings';
import type { ExportFormat } from './export';
import { ImageFiles } from './image-files';
import { externalizeImages } from './image-refs';
import { JournalWriter } from './journal';
import type { MemoryHit, MemorySearchOptions } from './memory-query';
import { makePrivateDir } from './private-files';
import type { StorageReport } from './retention';
import type { ReclaimResult, SessionStore, SessionStoreOptions } from './store';
import { stampWriter } from './store-runs';
import type { UsageRow, UsageRowsQuery, UsageSummary } from './usage-query';

export interface LazySessionStore extends SessionStore {
  /** The Usage view's sums, other windows' records included (waits for the database to open). */
  readUsageSummary(q: UsageRowsQuery, sessionLimit: number): Promise<UsageSummary>;
  /** The Usage CSV's lines, the same way. */
  readUsageRows(q: UsageRowsQuery): Promise<UsageRow[]>;
  /** Settles when the database is open: true when it is, false when it could not be opened. */
  readonly ready: Promise<boolean>;
  /** Whether the database is open now (reads answer from it). */
  readonly isOpen: boolean;
}

export interface LazySessionStoreOptions extends SessionStoreOptions {
  /** Called once when the database could not be opened; the chat goes on without history. */
  onUnavailable?(err: unknown): void;
  /**
   * Open the database only when something waits for it (`ready`: a read of history, flush, close)
   * instead of at once; appends go to the journal meanwhile, as they do while it opens. A one-shot host
   * (`sextant -p`) sets it, so sql.js, the snapshot and the replay never stand between the process start
   * and its request: the run's records are journaled as it goes and folded in when it closes.
   */
  openOnFirstUse?: boolean;
}

function newWriterId(): string {
  return `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
}

export function openSessionStoreLazily(opts: LazySessionStoreOptions): LazySessionStore {
  return new LazyStore(opts);
}

class LazyStore implements LazySessionStore {
  private opening: Promise<boolean> | undefined;
  private inner: SessionStore | undefined;
  /** Set when the database could not be opened: nothing more is written or read. */
  private failed = false;
  private closed = false;
  private journal: JournalWriter | undefined;
  private embedder: Embedder | undefined;
  private retention: number | undefined;
  private readonly redact: ReturnType<typeof createLiveRedactor>;
  /** Records that could not be written before the database opened (a full disk), oldest first. */
  private readonly early: JournalRecord[] = [];
  private toldFull = false;
  /** This window's journal writer (stamped on run state records before the database opens). */
  private readonly writer: string;
  /** Image files need no database: usable (and written by append) before it opens. */
  readonly images: ImageFiles;

  constructor(private readonly opts: LazySessionStoreOptions) {
    this.redact = createLiveRedactor(opts.secrets ?? (() => []), { assignments: false });
    this.embedder = opts.embedder;
    this.retention = opts.purgeDeletedAfterDays;
    makePrivateDir(opts.dir);
    this.images = new ImageFiles(opts.dir);
    const journal = new JournalWriter(opts.dir, opts.writerId ?? newWriterId(), opts.fsync ?? 'batch');
    this.journal = journal;
    this.writer = journal.writer;
    // The user was told already when the disk filled while opening: the store's first telling is the same news.
    const onWriteError = (err: Error, dir: string) => {
      if (this.toldFull) this.toldFull = false;
      else opts.onWriteError?.(err, dir);
    };
    this.startOpening = () => this.openDatabase(journal, onWriteError);
    if (!opts.openOnFirstUse) void this.ready;
  }

  private readonly startOpening: () => Promise<boolean>;

  /** Settles when the database is open (opening it now if it waited for its first use). */
  get ready(): Promise<boolean> {
    this.opening ??= this.startOpening();
    return this.opening;
  }

  private openDatabase(journal: JournalWriter, onWriteError: (err: Error, dir: string) => void): Promise<boolean> {
    const opts = this.opts;
    // The database's code (sql.js glue, replay, search, export) is evaluated only when it opens.
    return import('./store')
      .then(({ openSessionStore }) => openSessionStore({ ...opts, journal, embedder: this.embedder, onWriteError }))
      .then(
        (store) => {
          this.inner = store;
          this.journal = undefined;
          // Records a full disk kept from the journal while opening: the store keeps and retries them.
          for (const r of this.early.splice(0)) store.append(r);
          if (this.toldFull && store.unsavedRecords === 0) opts.onWriteRecovered?.();
          if (store.unsavedRecords === 0) this.toldFull = false;
          store.setEmbedder(this.embedder);
          store.setRetention(this.retention);
          return true;
        },
        (err: unknown) => {
          // The records written so far stay in the journal for a Sextant that can open the database.
          this.failed = true;
          this.journal = undefined;
          try {
            journal.close();
          } catch {
            /* already gone */
          }
          opts.onUnavailable?.(err);
          return false;
        },
      );
  }

  get isOpen(): boolean {
    return this.inner !== undefined;
  }

  get unsavedRecords(): number {
    return this.inner?.unsavedRecords ?? 0;
  }

  append(record: JournalRecord): void {
    if (this.closed) throw new Error('the session store is closed');
    if (this.inner) this.inner.append(record);
    // Durable before returning, exactly like the store's own append; applied when the database opens.
    else if (!this.failed) {
      const clean = redactDeep(stampWriter(externalizeImages(record, this.images), this.writer), this.redact);
      try {
        if (this.early.length) throw new Error('earlier records are waiting'); // keep the order
        this.journal?.append(clean);
      } catch (err) {
        // A full disk while the database opens: kept in memory, handed to the store once it is open.
        if (!this.early.length && err instanceof Error && (err as NodeJS.ErrnoException).code) {
          this.toldFull = true;
          this.opts.onWriteError?.(err, this.opts.dir);
        }
        this.early.push(clean);
      }
    }
  }

  markRunning(sessionId: string, requestId: string): void {
    this.append({ kind: 'run_state', sessionId, requestId, at: (this.opts.now ?? Date.now)() });
  }

  markEnded(sessionId: string): void {
    this.append({ kind: 'run_state', sessionId, requestId: null, at: (this.opts.now ?? Date.now)() });
  }

  /** Empty until the database is open (the runtime lists sessions after `ready`). */
  interruptedSessions(): InterruptedSession[] {
    return this.inner?.interruptedSessions() ?? [];
  }

  runningElsewhere(sessionId: string): boolean {
    return this.inner?.runningElsewhere(sessionId) ?? false;
  }

  research(of: { sessionId: string } | { reportId: string }): (StoredResearch & { reportId: string }) | undefined {
    return this.inner?.research?.(of);
  }

  getSession(sessionId: string): StoredSession | undefined {
    return this.inner?.getSession(sessionId);
  }

  listSessions(opts?: { query?: string; limit?: number; offset?: number; ids?: readonly string[] }): SessionSummary[] {
    return this.inner?.listSessions(opts) ?? [];
  }

  countSessions(): number {
    return this.inner?.countSessions() ?? 0;
  }

  async searchMemory(query: string, opts?: MemorySearchOptions): Promise<MemoryHit[]> {
    await this.ready;
    return this.inner ? this.inner.searchMemory(query, opts) : [];
  }

  exportSession(sessionId: string, format: ExportFormat, opts?: { secrets?: Iterable<string> }): string | undefined {
    return this.inner?.exportSession(sessionId, format, opts);
  }

  setEmbedder(embedder: Embedder | undefined): void {
    this.embedder = embedder;
    this.inner?.setEmbedder(embedder);
  }

  setRetention(purgeDeletedAfterDays: number | undefined): void {
    this.retention = purgeDeletedAfterDays;
    this.inner?.setRetention(purgeDeletedAfterDays);
  }

  async storageReport(): Promise<StorageReport> {
    return (await this.openStore()).storageReport();
  }

  usageSummary(q: UsageRowsQuery, sessionLimit: number): UsageSummary {
    return this.inner?.usageSummary(q, sessionLimit) ?? { cells: [], sessions: [], sessionCount: 0 };
  }

  usageRows(q: UsageRowsQuery): UsageRow[] {
    return this.inner?.usageRows(q) ?? [];
  }

  refresh(): void {
    this.inner?.refresh();
  }

  async readUsageSummary(q: UsageRowsQuery, sessionLimit: number): Promise<UsageSummary> {
    const store = await this.openStore();
    store.refresh();
    return store.usageSummary(q, sessionLimit);
  }

  async readUsageRows(q: UsageRowsQuery): Promise<UsageRow[]> {
    const store = await this.openStore();
    store.refresh();
    return store.usageRows(q);
  }

  async reclaim(opts?: { allDeleted?: boolean }): Promise<ReclaimResult> {
    return (await this.openStore()).reclaim(opts);
  }

  async compact(): Promise<number> {
    return (await this.openStore()).compact();
  }

  /** The open store, or a clear error when history is unavailable in this window. */
  private async openStore(): Promise<SessionStore> {
    await this.ready;
    if (!this.inner || this.closed) throw new Error('chat history is not available in this window');
    return this.inner;
  }

  async flush(): Promise<void> {
    await this.ready;
    await this.inner?.flush();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.ready;
    this.closed = true;
    await this.inner?.close();
  }
}
