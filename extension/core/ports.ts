// The interfaces core needs from its host and its storage. The VS Code adapters in extension/vscode
// implement them; a Node-fs implementation backs unit tests. Core reaches the editor only here.
import type {
  ChatMessage,
  MemoryReply,
  Mode,
  PendingApproval,
  PendingMemory,
  Question,
  SessionSummary,
  Todo,
} from '../protocol';
import type { ModelMessage } from './providers/types';
import type { Proposal } from './tools/types';
import type { SearchProviderId, SearchQuery, SearchResult } from './web/types';
import type { Checkpoint } from './checkpoints/types';
import type { SandboxPort } from './sandbox/types';
import type { LanguagePort } from './language/types';
import type { InterruptedSession, JournalRecord } from './store/store-contract';

// The journal's record kinds live with the store's contract; re-exported here for the code that always
// took them from the ports.
export type { InterruptedSession, JournalRecord } from './store/store-contract';

export interface FileStat {
  type: 'file' | 'directory' | 'symlink' | 'other';
  size: number;
  mtimeMs: number;
}

/** One cell edit, for notebooks open in VS Code's notebook editor (undoable there). */
export type NotebookCellEdit =
  | { mode: 'replace'; index: number; source: string; cellType: 'code' | 'markdown' }
  | { mode: 'insert'; index: number; source: string; cellType: 'code' | 'markdown' }
  | { mode: 'delete'; index: number };

export interface ReadFileOptions {
  maxBytes?: number;
  signal?: AbortSignal;
}

export interface WorkspacePort {
  /** Workspace folder roots, absolute paths. The first is the default cwd. */
  roots(): string[];
  /** Absolute folders outside the workspace that writers may change too (sextant.sandbox.extraWriteRoots). */
  extraWriteRoots?(): string[];
  /**
   * Reads bytes from disk. Throws an Error with code 'ENOENT' when missing; with `maxBytes`, reads
   * at most that much and throws code 'EFBIG' past it; with `signal`, stops when it aborts.
   */
  readFile(absPath: string, options?: ReadFileOptions): Promise<Uint8Array>;
  /** The unsaved text of an open, dirty editor for this path, if any. */
  dirtyText(absPath: string): Promise<string | undefined>;
  /** Writes bytes, creating parent folders. */
  writeFile(absPath: string, data: Uint8Array): Promise<void>;
  /**
   * Replaces the whole text of a file in an undoable way when the editor has it open
   * (a WorkspaceEdit); otherwise writes it. Returns how it was applied.
   */
  applyTextEdit(absPath: string, newText: string, encodedBytes: Uint8Array): Promise<'editor' | 'disk'>;
  /**
   * Applies a cell edit through the notebook API when the notebook is open in an editor, and saves
   * it; 'not-open' when it is not (the caller then edits the file). Optional: hosts without a
   * notebook editor leave it out.
   */
  applyNotebookEdit?(absPath: string, edit: NotebookCellEdit): Promise<'applied' | 'not-open'>;
  stat(absPath: string): Promise<FileStat | undefined>;
  readDir(absPath: string): Promise<Array<{ name: string; type: FileStat['type'] }>>;
  realPath(absPath: string): Promise<string>;
  /** Glob patterns the user excluded (files.exclude / search.exclude), as globs. */
  excludeGlobs(): string[];
}

export interface SearchPort {
  /** Absolute path of a ripgrep binary, or undefined when none was found. */
  ripgrepPath(): string | undefined;
}

/** A display-only view of one command in a VS Code terminal: core writes the output it captured. */
export interface TerminalMirror {
  write(chunk: string): void;
  /** The command finished; `summary` is e.g. "[exit code 0 · 1.2 s]". */
  end(summary: string): void;
}

export interface TerminalPort {
  /**
   * Mirrors a command in a visible VS Code terminal. Output is always captured from a child
   * process by core, which feeds it to the returned mirror; this is display only and may be a no-op.
   */
  show?(command: string, cwd: string): TerminalMirror | undefined;
}

export interface ApprovalRequest extends Omit<PendingApproval, 'callId'> {
  callId: string;
  sessionId: string;
  /**
   * A file writer's change (original and proposed text; several files for rename), for the editor's
   * diff review; never sent to the webview.
   */
  proposal?: Proposal;
}

/**
 * `editedText`: the proposal as the user edited it in the diff review before approving (absent when
 * they left it as proposed); core then writes that text instead of running the tool. `editedTexts`:
 * the same for a change of several files, by absolute path (only the files the user edited).
 */
export type ApprovalDecision =
  | { decision: 'approve'; editedText?: string; editedTexts?: Record<string, string>; restOfTurn?: boolean }
  | { decision: 'deny'; reason?: string }
  | { decision: 'always'; editedText?: string; editedTexts?: Record<string, string> };

/** Asks the user to approve a write or execute call. Designed so the permission policy and diff review slot in. */
export interface ApprovalPort {
  request(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
}

/** What the user did to a proposal while it was shown: edited it, or the file changed under it. */
export interface DiffReviewUpdate {
  edited: boolean;
  /** Why the proposal is out of date (the file changed since it was made); undefined once it matches again. */
  stale?: string;
}

/** One proposal on show in the editor's diff view, for as long as its approval is pending. */
export interface DiffReviewSession {
  /**
   * The proposed text as the user left it, when it differs from the proposal; else undefined. `path`
   * (absolute) names the file of a change of several; absent: the only (first) file.
   */
  editedText(path?: string): string | undefined;
  /** The approval was decided or abandoned: stop showing the proposal. */
  close(): void;
}

/**
 * Shows a file writer's proposed change in the editor's diff view while its approval is pending; a
 * change of several files (a ChangeSet) shows each file's diff.
 */
export interface DiffReviewPort {
  open(review: { callId: string; change: Proposal }, update: (u: DiffReviewUpdate) => void): DiffReviewSession;
}

export interface AskAnswer {
  selected: string[];
  other?: string;
}

export interface AskPort {
  ask(req: { callId: string; sessionId: string; questions: Question[] }, signal: AbortSignal): Promise<AskAnswer[]>;
}

/** A memory the agent proposes ("this repo uses pnpm"): the user keeps it (maybe edited, elsewhere) or drops it. */
export interface MemoryPort {
  propose(req: { callId: string; sessionId: string; memory: PendingMemory }, signal: AbortSignal): Promise<MemoryReply>;
}

export interface SecretsPort {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** A web search: the query, optional domain filters, and a provider to ask first. */
export interface WebSearchRequest extends SearchQuery {
  provider?: SearchProviderId;
}

export interface WebSearchOutcome {
  /** The provider that answered. */
  provider: SearchProviderId;
  results: SearchResult[];
  /** Providers passed over before it (no key, failing, …), with why. */
  skipped: Array<{ provider: SearchProviderId; reason: string }>;
}

/** Web search through the configured providers (core/web/search/client.ts implements it). */
export interface WebSearchPort {
  /** Throws SearchError (core/web/search/errors.ts) with a message written for the user. */
  search(request: WebSearchRequest, signal: AbortSignal): Promise<WebSearchOutcome>;
  /**
   * Undefined when a search can be tried; otherwise exactly what to configure (the command, the
   * environment variables, or the empty provider list) — for Research mode before it starts.
   */
  setupProblem(): Promise<string | undefined>;
}

/** Everything a tool may touch. */
export interface ToolPorts {
  workspace: WorkspacePort;
  search: SearchPort;
  terminal: TerminalPort;
  approval: ApprovalPort;
  ask: AskPort;
  /** Memory cards (the `remember` tool); absent where nobody can review one (the command line). */
  memory?: MemoryPort;
  log: Logger;
  /**
   * The environment of every process the agent starts: the host's, without provider key variables,
   * secret-named variables and credential URLs (core/security/child-env.ts). Without it, core
   * scrubs `process.env` by name alone.
   */
  childEnv?(): Record<string, string>;
  /**
   * Removes secrets (key shapes and the exact stored key values) from text. The registry applies it
   * to every tool result and progress chunk; without it, known key shapes are still removed.
   */
  redact?(text: string): string;
  /** Web search (web_search); absent where no search client is wired (the tool then says so). */
  webSearch?: WebSearchPort;
  /** The box commands run in (core/sandbox/types.ts); absent: commands run as the user, unboxed. */
  sandbox?: SandboxPort;
  /** The editor's language features (diagnostics, definitions, …); absent: those tools say so. */
  language?: LanguagePort;
}

// ---- Session persistence: what the session controller needs from the store. The store
// (core/store) implements it; a memory implementation backs tests that do not care about disk.

/** One request's turn: where it starts in the model history, and the files it changed. */
export interface TurnCheckpoint {
  /** The user message (chat) that started the turn. */
  userMessageId: string;
  requestId: string;
  /** Length of the model-facing history before the turn: a rewind to this message cuts it here. */
  modelIndex: number;
  /** The files the turn changed (beforeWrite), when it could write; absent for turns without writers. */
  files?: Checkpoint;
}

/** The last rewind of a session, to undo it ("Redo"). */
export interface RewindRedo {
  /** The user message rewound to (its text went back to the composer). */
  userMessageId: string;
  summary: string;
  /** The session holding the conversation as it was before the rewind, when the conversation was rewound. */
  branchSessionId?: string;
  /** The files as they were just before the rewind, when files were rewound. */
  files?: Checkpoint;
  at: number;
}

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
  /** A report: its question and every source read with its text, so a follow-up after a restart reuses them. */
  research?: StoredResearch;
}

/** What a follow-up on a report continues from: its question and its sources' texts (report numbers). */
export interface StoredResearch {
  question: string;
  sources: Array<{
    n: number;
    url: string;
    /** Where the content came from after redirects (also accepted in the text). */
    finalUrl?: string;
    title: string;
    /** The text as read (what citations' quote offsets point into). */
    text: string;
    accessedAt: number;
    /** A workspace section: its path (relative to the workspace folder) and the lines `text` holds. */
    path?: string;
    lines?: { start: number; end: number };
  }>;
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
  /** Turn checkpoints in the order the turns ran (absent: none recorded). */
  checkpoints?: TurnCheckpoint[];
  /** The last rewind, while it can still be undone. */
  redo?: RewindRedo;
}

/**
 * Content-addressed image files beside the history database (core/store/image-files.ts): the saved
 * chat and model history name an image by its SHA-256 and never hold its bytes.
 */
export interface ImageStorage {
  /** Stores the bytes durably (once per content) and returns their SHA-256; throws when it cannot write. */
  put(bytes: Uint8Array): string;
  /** The bytes, or undefined when the file is missing or damaged. */
  read(sha256: string): Uint8Array | undefined;
}

export interface SessionPersistence {
  /**
   * Appends a record durably (written to the journal file before returning) — survives a crash of
   * the process. Throws if it could not be written; the caller must then not acknowledge the event.
   */
  append(record: JournalRecord): void;
  getSession(sessionId: string): StoredSession | undefined;
  /** A report with its sources' texts: the session's last one, or the one named (absent: not kept). */
  research?(of: { sessionId: string } | { reportId: string }): (StoredResearch & { reportId: string }) | undefined;
  /**
   * Sessions whose request was running in a window that is gone, newest first (absent: a store that does
   * not keep run state — tests' fakes). Never a session running in this window or another live one.
   */
  interruptedSessions?(): InterruptedSession[];
  /** Whether another window that is still open runs a request of this session now (absent: never). */
  runningElsewhere?(sessionId: string): boolean;
  /** Newest first; `query` matches title and content; `offset` pages. Deleted sessions are left out. */
  listSessions(opts?: { query?: string; limit?: number; offset?: number }): SessionSummary[];
  /** Where images are kept (absent: no store folder; images then stay inline in the records). */
  readonly images?: ImageStorage;
}

// ---- VS Code's Language Model API (vscode.lm): models the user already has (e.g. GitHub Copilot
// Chat), reached without a key. The adapter in extension/vscode implements it; the `vscode-lm`
// provider kind (core/providers/vscode-lm.ts) translates the provider contract to and from it.

export interface LmModelInfo {
  /** The model's opaque id: what a `vscode-lm/<id>` model reference names. */
  id: string;
  name: string;
  vendor: string;
  family: string;
  maxInputTokens: number;
}

/** A message part as the API takes it; tool results go in user messages, tool calls in assistant ones. */
export type LmPart =
  | { type: 'text'; text: string }
  | { type: 'tool_call'; callId: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; callId: string; text: string };

/** The API has no system role: the provider sends the system prompt as the first user message. */
export interface LmMessage {
  role: 'user' | 'assistant';
  parts: LmPart[];
}

/** What a response streams: text, or a complete tool call. */
export type LmResponsePart =
  | { type: 'text'; text: string }
  | { type: 'tool_call'; callId: string; name: string; input: unknown };

export interface LmRequestOptions {
  tools?: Array<{ name: string; description: string; inputSchema: Record<string, unknown> }>;
  /** Why Sextant asks (shown in VS Code's consent prompt). */
  justification: string;
}

/**
 * Failures are Errors with a `code`: `NotFound` (no such model), `NoPermissions` (the user did not
 * allow it), `Blocked` (quota or rate limit), or anything else VS Code reports.
 */
export interface LanguageModelsPort {
  list(): Promise<LmModelInfo[]>;
  send(
    modelId: string,
    messages: LmMessage[],
    options: LmRequestOptions,
    signal: AbortSignal,
  ): Promise<AsyncIterable<LmResponsePart>>;
  /** Tokens in a text by the model's own tokenizer (the API reports no usage). */
  countTokens(modelId: string, text: string, signal: AbortSignal): Promise<number>;
}
