// What the session controller needs from the store (DESIGN §8). The store implements it in
// extension/core/store; a memory implementation backs tests that do not care about disk.
import type { Envelope, Mode, SessionSummary, Todo, ChatMessage } from '../../protocol';
import type { ModelMessage } from '../providers/types';

/** One durable fact, appended to the journal before the webview is told about it. */
export type JournalRecord =
  | { kind: 'session_created'; sessionId: string; title: string; mode: Mode; model: string; at: number }
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
  | { kind: 'artifact'; sessionId: string; artifact: StoredArtifact; at: number };

export interface StoredCitation {
  n: number;
  url: string;
  title?: string;
  snippet?: string;
}

export interface StoredArtifact {
  id: string;
  kind: 'plan' | 'report' | (string & {});
  title: string;
  /** Markdown. */
  content: string;
  citations?: StoredCitation[];
}

export interface StoredSession {
  id: string;
  title: string;
  mode: Mode;
  model: string;
  createdAt: number;
  updatedAt: number;
  messages: ChatMessage[];
  modelMessages: ModelMessage[];
  todos: Todo[];
}

export interface SessionPersistence {
  /**
   * Appends a record durably (written to the journal file before returning) — survives a crash of
   * the process. Throws if it could not be written; the caller must then not acknowledge the event.
   */
  append(record: JournalRecord): void;
  getSession(sessionId: string): StoredSession | undefined;
  /** Newest first; `query` matches title and content. Deleted sessions are left out. */
  listSessions(opts?: { query?: string; limit?: number }): SessionSummary[];
  /** Writes a snapshot now (also done on idle by the store itself). */
  flush(): Promise<void>;
  close(): Promise<void>;
}
