// The session store's contract: what the host passes to openSessionStore and the interface it programs
// against. Kept apart from the implementation in store.ts so the options and promises can be read
// without the journal and snapshot machinery (store.ts re-exports them from where they always were).
import type { ChatMessage, Envelope, MermaidRenderer, Mode, SessionSummary, Todo } from '../../protocol';
import type { Logger, RewindRedo, SessionPersistence, StoredArtifact, TurnCheckpoint } from '../ports';
import type { ModelMessage } from '../providers/types';
import type { HotPolicy } from './cold-move';
import type { Embedder } from './embeddings';
import type { ExportFormat } from './export';
import type { FsyncPolicy, JournalWriter } from './journal';
import type { LockOptions } from './lock';
import type { MemoryHit, MemorySearchOptions } from './memory-query';
import type { StorageReport } from './retention';
import type { SqlJsStatic } from './sqljs';
import type { UsageRow, UsageRowsQuery, UsageSummary } from './usage-query';

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
  exportSession(
    sessionId: string,
    format: ExportFormat,
    opts?: { secrets?: Iterable<string>; mermaid?: MermaidRenderer },
  ): string | undefined;
  setEmbedder(embedder: Embedder | undefined): void;
  /** Where the store's disk space goes. */
  storageReport(): Promise<StorageReport>;
  /** The Usage view's sums in a range: by local day and key, and the costliest `sessionLimit` sessions. */
  usageSummary(q: UsageRowsQuery, sessionLimit: number): UsageSummary;
  /** The Usage CSV's lines: usage in a range summed by local day, session and key. */
  usageRows(q: UsageRowsQuery): UsageRow[];
  /** Picks up what other windows appended since (their journals), without writing anything. */
  refresh(): void;
  /** Changes the retention period (days; 0 keeps deleted sessions). */
  setRetention(purgeDeletedAfterDays: number | undefined): void;
  /**
   * Purges every deleted session now (or only those past the retention period) and every orphan file,
   * then writes the snapshots after which their files can go, and deletes them.
   */
  reclaim(opts?: { allDeleted?: boolean }): Promise<ReclaimResult>;
  /** Moves every session the hot policy lets go to cold files now, and snapshots. Returns how many moved. */
  compact(): Promise<number>;
  /** Journals that a request of the session runs in this window (the request runner, when it starts). */
  markRunning(sessionId: string, requestId: string): void;
  /** Journals that the session's request ended (or that its interruption was dealt with). */
  markEnded(sessionId: string): void;
  /** Sessions whose request was running in a window that is gone (crash, reload), newest first. */
  interruptedSessions(): InterruptedSession[];
  /** Whether another window that is still open runs a request of this session now. */
  runningElsewhere(sessionId: string): boolean;
}

/** One durable fact, appended to the journal before the webview is told about it. */
export type JournalRecord =
  | {
      kind: 'session_created';
      sessionId: string;
      title: string;
      mode: Mode;
      model: string;
      at: number;
      /** The workspace the session was started in (its folders' paths); the store stamps it. */
      workspace?: string;
    }
  /** `titleSource: 'user'` (a rename) stops later generated titles from replacing it. */
  | {
      kind: 'session_meta';
      sessionId: string;
      title?: string;
      titleSource?: 'auto' | 'user';
      mode?: Mode;
      model?: string;
      at: number;
    }
  /** Request events exactly as posted to the webview; replayed through the protocol reducer. */
  | { kind: 'events'; sessionId: string; envelopes: Envelope[]; at: number }
  /** Messages appended to the model-facing history (what the next request sends). */
  | { kind: 'model_messages'; sessionId: string; messages: ModelMessage[]; at: number }
  | { kind: 'todos'; sessionId: string; todos: Todo[]; at: number }
  | { kind: 'session_deleted'; sessionId: string; at: number }
  | { kind: 'session_restored'; sessionId: string; at: number }
  /** A plan or report (with its numbered citations); the same id again replaces it. */
  | { kind: 'artifact'; sessionId: string; artifact: StoredArtifact; at: number }
  /** Where a request's turn starts, and the files it changed (hashes only); the same user message id replaces it. */
  | { kind: 'turn_checkpoint'; sessionId: string; checkpoint: TurnCheckpoint; at: number }
  /**
   * The whole conversation of a session replaced (a rewind truncates it, an earlier branch is written
   * as a new session, a redo puts it back): messages, model history and turn checkpoints.
   */
  | {
      kind: 'conversation_replaced';
      sessionId: string;
      messages: ChatMessage[];
      modelMessages: ModelMessage[];
      checkpoints: TurnCheckpoint[];
      at: number;
    }
  /** What a redo of the last rewind needs (null: nothing to redo any more). */
  | { kind: 'rewind_state'; sessionId: string; redo: RewindRedo | null; at: number }
  /**
   * A request of the session started running (`requestId`) or ended (null). `writer` (the window's journal
   * writer, `<pid>-<id>`) is stamped by the store: a session left running by a writer whose process is gone
   * was interrupted (a crash or a reload mid-run).
   */
  | { kind: 'run_state'; sessionId: string; requestId: string | null; writer?: string; at: number };

/** A session whose request was running in a window that is gone (crashed or reloaded mid-run). */
export interface InterruptedSession {
  id: string;
  title: string;
  /** The interrupted request, and when it started. */
  requestId: string;
  startedAt: number;
  /** When the session was last written to (its last saved event). */
  lastEventAt: number;
}
