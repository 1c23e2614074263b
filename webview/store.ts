// The webview's state: the shared reducer's ChatState plus header data, the history list, the panels and
// the current view, and the changes the view makes itself before the host confirms them. What the host's
// messages do to it is host-messages.ts; when it is drawn, render-batch.ts (one render per frame).
import {
  type ProjectContextInfo,
  dispatchOutbound,
  emptyChatState,
  type ChatState,
  type ContextBreakdown,
  type Reference,
  type ChatImage,
  type ReferenceCandidate,
  type ErrorInfo,
  type Mode,
  type HooksView,
  type GoalView,
  type QueuedMessage,
  type McpServerView,
  type ModelChoice,
  type PermissionMode,
  type ReasoningChoice,
  type Outbound,
  type OutboundHandlers,
  type RedoOffer,
  type RewindPreview,
  type SessionSummary,
  type SandboxView,
  type ResearchScope,
} from '../extension/protocol';
import { hostMessageHandlers } from './host-messages';
import { RenderBatch, type Topic } from './render-batch';
import { StoredImages } from './stored-images';

export type { RenderTiming, Topic } from './render-batch';

export interface ModeInfo {
  mode: Mode;
  enabled: boolean;
  reason?: string;
}

export interface Meta {
  sessionId: string;
  title: string;
  mode: Mode;
  model: string;
  models: ModelChoice[];
  modes: ModeInfo[];
  workspaceTrusted: boolean;
  /** The reasoning option chosen per model reference (absent: off). */
  reasoning: Record<string, ReasoningChoice>;
  /** Where commands run (absent: the host has no sandbox). */
  sandbox?: SandboxView;
  /** Research mode's "Research scope" (absent: the host has no research). */
  researchScope?: ResearchScope;
  /** sextant.permissions.defaultMode (absent: the host has no policy). */
  permissionMode?: PermissionMode;
}

export class ChatStore {
  chat: ChatState = emptyChatState();
  meta: Meta = {
    sessionId: '',
    title: '',
    mode: 'chat',
    model: '',
    models: [],
    modes: [],
    workspaceTrusted: true,
    reasoning: {},
  };
  view: 'chat' | 'history' = 'chat';
  /** The pages of the history list loaded so far; `hasMore` when the host has further rows. */
  history: { sessions: SessionSummary[]; query: string; hasMore: boolean } = {
    sessions: [],
    query: '',
    hasMore: false,
  };
  protocolError: ErrorInfo | undefined;
  /** MCP servers (those with `approval` wait for the user) and problems with their configuration. */
  mcp: { servers: McpServerView[]; problems: string[] } = { servers: [], problems: [] };
  /** Hooks: the workspace's waiting for approval (or decided), and configuration problems. */
  hooks: HooksView = { problems: [] };
  /** Messages queued while a turn runs (the host keeps them; sent one by one when a turn completes). */
  queued: QueuedMessage[] = [];
  /** The session's goal (`/goal`): the banner above the composer. */
  goal: GoalView | undefined;
  /** Rules files, skills and slash commands in effect (asked for on `/` and by the context popover). */
  project: ProjectContextInfo | undefined;
  /** The user's earlier prompts in this workspace, oldest first (Up/Down in the composer). */
  prompts: string[] = [];
  /** The context popover is open (its button, /context or /cost). */
  contextOpen = false;
  /** Bumped whenever the whole chat is replaced, so the list drops its window and caches. */
  generation = 0;
  /** True once the first snapshot arrived (before it, the view shows a placeholder). */
  loaded = false;
  /** A rewind being prepared or previewed ("Rewind to here", or an edited message to resend with `edit`). */
  rewind: { messageId: string; edit?: string; preview?: RewindPreview } | undefined;
  /** The last rewind while it can be undone (from the host's snapshot). */
  redo: RedoOffer | undefined;
  /** What the last rewind (or redo) did, until dismissed. */
  rewindNotice: string | undefined;
  /** Text the composer should take (a rewound or refused message, with its chips); `n` changes on every request. */
  draftRequest: { text: string; n: number; references?: Reference[]; images?: ChatImage[] } | undefined;
  /** The host's files and folders for the `@` listbox, for the query they answer. */
  referenceFiles: { query: string; items: ReferenceCandidate[] } | undefined;
  /** Stored images the chat shows (sent images, screenshots), fetched from the host once each. */
  readonly images = new StoredImages();
  /** The context meter's breakdown of the next request (asked for by the meter). */
  context: ContextBreakdown | undefined;

  /**
   * What the view's live region tells a screen reader: an answer finished, an approval or a question
   * waiting, a plan or report ready. `n` changes every time, so the same words are announced again.
   */
  announcement: { text: string; n: number } = { text: '', n: 0 };

  /** What changed since the last frame, and the listeners a frame's render runs. */
  readonly changes = new RenderBatch();
  private readonly handlers: OutboundHandlers = hostMessageHandlers(this);

  version(messageId: string): number {
    return this.changes.version(messageId);
  }

  on(topic: Topic, listener: () => unknown): () => void {
    return this.changes.on(topic, listener);
  }

  onMessage(messageId: string, listener: () => unknown): () => void {
    return this.changes.onMessage(messageId, listener);
  }

  /** Applies one message from the host (host-messages.ts); the view redraws at the next frame. */
  handle(message: Outbound, receivedAt = performance.now()): void {
    dispatchOutbound(this.handlers, message);
    this.changes.received(receivedAt);
    this.changes.schedule();
  }

  /** Mode changes the UI asked the host for that it has not answered yet. */
  private modeRequests = 0;

  /**
   * Local, optimistic changes made by the UI itself (the host confirms or corrects them). The caller
   * posts `setMode` to the host with it: the host answers each with a `mode` message.
   */
  setMode(mode: Mode): void {
    this.modeRequests++;
    this.meta = { ...this.meta, mode };
    this.mark('meta');
    this.schedule();
  }

  /**
   * The host answers every mode change the UI asked for, in order. While later ones are still
   * unanswered, an answer to an earlier one is stale: applying it would undo the newer choice (and a
   * quick second Shift+Tab would then cycle from the wrong mode). The last answer is applied — the host
   * may have corrected the choice.
   */
  modeAnswered(mode: Mode): void {
    if (this.modeRequests > 0) this.modeRequests--;
    if (this.modeRequests > 0) return;
    this.meta = { ...this.meta, mode };
    this.mark('meta');
  }

  /** A snapshot carries the host's mode: answers still to come are applied as they come. */
  forgetModeRequests(): void {
    this.modeRequests = 0;
  }

  /** The header's permission mode, shown at once (the host writes the setting and sends a snapshot). */
  setPermissionMode(permissionMode: PermissionMode): void {
    this.meta = { ...this.meta, permissionMode };
    this.mark('meta');
    this.schedule();
  }

  setModel(model: string): void {
    this.meta = { ...this.meta, model };
    this.mark('meta');
    this.schedule();
  }

  /** The picker's reasoning option for a model, shown at once (the host keeps it). */
  setReasoning(model: string, choice: ReasoningChoice): void {
    this.meta = { ...this.meta, reasoning: { ...this.meta.reasoning, [model]: choice } };
    this.mark('meta');
    this.schedule();
  }

  setContextOpen(open: boolean): void {
    this.contextOpen = open;
    // Each opening shows the files as they are now: the host is asked again.
    if (open) this.project = undefined;
    this.mark('project');
    this.schedule();
  }

  /** Shows a refusal (a command the view could not carry out) where host errors appear; the draft stays. */
  refuse(message: string): void {
    this.protocolError = { code: 'bad_request', message, recoverable: true };
    this.mark('notice', 'panels');
    this.schedule();
  }

  setView(view: 'chat' | 'history'): void {
    this.view = view;
    this.mark('view');
    this.schedule();
  }

  dismissError(): void {
    this.protocolError = undefined;
    this.mark('notice');
    this.schedule();
  }

  /** Asks for a rewind preview (the caller posts `rewindPreview`); `edit` is the edited text to resend. */
  startRewind(messageId: string, edit?: string): void {
    this.rewind = edit === undefined ? { messageId } : { messageId, edit };
    this.rewindNotice = undefined;
    this.mark('panels');
    this.schedule();
  }

  cancelRewind(): void {
    this.rewind = undefined;
    this.mark('panels');
    this.schedule();
  }

  dismissRewindNotice(): void {
    this.rewindNotice = undefined;
    this.redo = undefined;
    this.mark('panels');
    this.schedule();
  }

  removeSession(sessionId: string): void {
    this.history = { ...this.history, sessions: this.history.sessions.filter((s) => s.id !== sessionId) };
    this.mark('history');
    this.schedule();
  }

  renameSessionLocally(sessionId: string, title: string): void {
    this.history = {
      ...this.history,
      sessions: this.history.sessions.map((s) => (s.id === sessionId ? { ...s, title } : s)),
    };
    this.mark('history');
    this.schedule();
  }

  /** Tells a screen reader (the live region) something happened; the same words are announced again. */
  announce(text: string): void {
    this.announcement = { text, n: this.announcement.n + 1 };
    this.mark('announce');
  }

  private mark(...topics: Topic[]): void {
    this.changes.mark(...topics);
  }

  private schedule(): void {
    this.changes.schedule();
  }
}
