// The webview's state: the shared reducer's ChatState plus header data, the history list and
// the current view. Changes are tracked per topic and per message and flushed once per animation
// frame, so a streaming answer redraws one message element per frame however long the chat is.
import {
  type ProjectContextInfo,
  applyEnvelope,
  chatStateFromSnapshot,
  dispatchOutbound,
  compactRequests,
  emptyChatState,
  type ChatState,
  type ContextBreakdown,
  type Reference,
  type ChatImage,
  type ReferenceCandidate,
  type ErrorInfo,
  type Envelope,
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
  type Snapshot,
} from '../extension/protocol';
import { StoredImages } from './stored-images';

export type Topic = 'structure' | 'meta' | 'panels' | 'history' | 'view' | 'notice' | 'announce' | 'project';
/** A listener may return a promise (an element's update); the flush awaits it before reporting the render. */
type Listener = () => unknown;

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

/** Fired on window after each flush: lets tests and the benchmark time renders from inside the page. */
export interface RenderTiming {
  /** When the first message of this batch arrived (before validation). */
  receivedAt: number;
  /** When the frame's render began, and when the DOM was up to date. */
  startedAt: number;
  renderedAt: number;
  messages: number;
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

  /** Per message: bumped on every change, so an element can tell whether to redraw. */
  private readonly versions = new Map<string, number>();
  private readonly topicListeners = new Map<Topic, Set<Listener>>();
  private readonly messageListeners = new Map<string, Set<Listener>>();
  private readonly dirtyTopics = new Set<Topic>();
  private readonly dirtyMessages = new Set<string>();
  private firstReceivedAt: number | undefined;
  private scheduled = false;

  version(messageId: string): number {
    return this.versions.get(messageId) ?? 0;
  }

  on(topic: Topic, listener: Listener): () => void {
    return addListener(this.topicListeners, topic, listener);
  }

  onMessage(messageId: string, listener: Listener): () => void {
    return addListener(this.messageListeners, messageId, listener);
  }

  /** One handler per outbound message type: a new type without one does not compile. */
  private readonly handlers: OutboundHandlers = {
    snapshot: (m) => {
      // A snapshot is the whole truth: later mode answers, if any, are applied as they come.
      this.modeRequests = 0;
      this.applySnapshot(m.snapshot);
    },
    events: (m) => this.applyEvents(m.envelopes),
    history: (m) => {
      // The host's order is the ranking (newest first, or by relevance for a search): kept as is.
      const query = m.query ?? '';
      const offset = m.offset ?? 0;
      if (offset > 0) {
        // A later page: it extends the list it was asked for (a page of an older query is dropped).
        if (query !== this.history.query || offset > this.history.sessions.length) return;
        const sessions = [...this.history.sessions.slice(0, offset), ...m.sessions];
        this.history = { sessions, query, hasMore: m.hasMore ?? false };
        this.mark('history');
        return;
      }
      this.history = { sessions: m.sessions, query, hasMore: m.hasMore ?? false };
      this.view = 'history';
      this.mark('history', 'view');
    },
    mode: (m) => {
      // The host answers every mode change the UI asked for, in order. While later ones are still
      // unanswered, an answer to an earlier one is stale: applying it would undo the newer choice (and
      // a quick second Shift+Tab would then cycle from the wrong mode). The last answer is applied — the
      // host may have corrected the choice.
      if (this.modeRequests > 0) this.modeRequests--;
      if (this.modeRequests > 0) return;
      this.meta = { ...this.meta, mode: m.mode };
      this.mark('meta');
    },
    model: (m) => {
      this.meta = { ...this.meta, model: m.model };
      this.mark('meta');
    },
    showView: (m) => {
      this.view = m.view;
      this.mark('view');
    },
    promptHistory: (m) => {
      this.prompts = m.prompts;
      this.mark('project');
    },
    projectContext: (m) => {
      this.project = m.info;
      this.mark('project');
    },
    protocolError: (m) => {
      this.protocolError = m.error;
      // A refused rewind preview or rewind: nothing is pending any more.
      this.rewind = undefined;
      this.mark('notice', 'panels');
    },
    rewindPreview: (m) => {
      if (this.rewind?.messageId !== m.preview.messageId) return; // cancelled meanwhile
      this.rewind = { ...this.rewind, preview: m.preview };
      this.mark('panels');
    },
    mcpServers: (m) => {
      this.mcp = { servers: m.servers, problems: m.problems };
      this.mark('panels');
    },
    imageData: (m) => {
      for (const id of this.images.receive(m.sha256, m.mediaType, m.dataBase64)) {
        this.versions.set(id, (this.versions.get(id) ?? 0) + 1);
        this.dirtyMessages.add(id);
      }
      this.schedule();
    },
    referenceCandidates: (m) => {
      this.referenceFiles = { query: m.query, items: m.items };
      this.mark('project');
    },
    sendRefused: (m) => {
      // Nothing was sent: the message and its chips go back into the composer, with why.
      this.protocolError = { code: 'bad_request', message: m.message, recoverable: true };
      this.draftRequest = {
        text: m.text,
        references: m.references,
        ...(m.images ? { images: m.images } : {}),
        n: (this.draftRequest?.n ?? 0) + 1,
      };
      this.mark('notice', 'panels', 'meta');
    },
    contextUsage: (m) => {
      this.context = m.breakdown;
      this.mark('meta', 'project');
    },
    hooks: (m) => {
      this.hooks = m.view;
      this.mark('panels');
    },
    queued: (m) => {
      this.queued = m.items;
      this.mark('panels');
    },
    goal: (m) => {
      this.goal = m.goal ?? undefined;
      this.mark('panels');
    },
    rewound: (m) => {
      this.rewind = undefined;
      this.rewindNotice = m.summary;
      if (m.draft !== undefined) this.draftRequest = { text: m.draft, n: (this.draftRequest?.n ?? 0) + 1 };
      this.mark('panels', 'meta');
    },
  };

  handle(message: Outbound, receivedAt = performance.now()): void {
    dispatchOutbound(this.handlers, message);
    this.firstReceivedAt ??= receivedAt;
    this.schedule();
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

  private applySnapshot(snapshot: Snapshot): void {
    if (snapshot.sessionId !== this.meta.sessionId) {
      // Another chat: a preview or notice of the previous one no longer applies.
      this.rewind = undefined;
      this.rewindNotice = undefined;
    }
    this.chat = chatStateFromSnapshot(snapshot);
    this.meta = {
      sessionId: snapshot.sessionId,
      title: snapshot.title,
      mode: snapshot.mode,
      model: snapshot.model,
      models: snapshot.models,
      modes: snapshot.modes,
      workspaceTrusted: snapshot.workspaceTrusted,
      reasoning: snapshot.reasoning ?? {},
      ...(snapshot.sandbox ? { sandbox: snapshot.sandbox } : {}),
      ...(snapshot.researchScope ? { researchScope: snapshot.researchScope } : {}),
      ...(snapshot.permissionMode ? { permissionMode: snapshot.permissionMode } : {}),
    };
    this.redo = snapshot.redo;
    this.goal = snapshot.goal;
    this.versions.clear();
    this.generation++;
    this.loaded = true;
    this.view = 'chat';
    this.mark('structure', 'meta', 'panels', 'view');
  }

  private applyEvents(envelopes: Envelope[]): void {
    let ended = false;
    for (const env of envelopes) {
      const before = this.chat.messages.length;
      const changed = applyEnvelope(this.chat, env);
      if (changed === undefined) continue;
      if (this.chat.messages.length !== before) this.mark('structure', 'meta');
      this.versions.set(changed, (this.versions.get(changed) ?? 0) + 1);
      this.dirtyMessages.add(changed);
      switch (env.event.type) {
        case 'started':
          // A new request moves the chat on: the host no longer offers to undo the last rewind.
          if (this.redo || this.rewindNotice) {
            this.redo = undefined;
            this.rewindNotice = undefined;
            this.mark('panels');
          }
          break;
        case 'approval_needed':
          this.announce(`Approval needed: ${env.event.approval.tool} ${env.event.approval.subject}`);
          this.mark('panels');
          break;
        case 'question':
          this.announce('Sextant is asking you a question');
          this.mark('panels');
          break;
        case 'plan_proposed':
          this.announce('Plan ready for review');
          break;
        case 'report':
          this.announce('Research report ready');
          break;
        case 'approval_resolved':
        case 'question_resolved':
        case 'todos':
          this.mark('panels');
          break;
        case 'usage':
          this.mark('meta'); // the header's session total
          break;
        case 'complete':
        case 'aborted':
        case 'error':
          this.announce(
            env.event.type === 'complete'
              ? 'Answer complete'
              : env.event.type === 'aborted'
                ? 'Stopped'
                : 'Request failed',
          );
          ended = true;
          this.mark('panels', 'meta');
          break;
        default:
          break;
      }
    }
    if (ended) compactRequests(this.chat);
  }

  private announce(text: string): void {
    this.announcement = { text, n: this.announcement.n + 1 };
    this.mark('announce');
  }

  private mark(...topics: Topic[]): void {
    for (const t of topics) this.dirtyTopics.add(t);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // One render per frame; the timeout covers a page whose frames are throttled (hidden).
    let done = false;
    const run = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      void this.flush();
    };
    const timer = setTimeout(run, 100);
    requestAnimationFrame(run);
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const startedAt = performance.now();
    const receivedAt = this.firstReceivedAt ?? performance.now();
    this.firstReceivedAt = undefined;
    const topics = [...this.dirtyTopics];
    const messages = [...this.dirtyMessages];
    this.dirtyTopics.clear();
    this.dirtyMessages.clear();
    const pending: unknown[] = [];
    for (const t of topics) for (const l of this.topicListeners.get(t) ?? []) pending.push(l());
    // A structural change re-renders the list, which brings every visible message up to date.
    if (!topics.includes('structure')) {
      for (const id of messages) for (const l of this.messageListeners.get(id) ?? []) pending.push(l());
    }
    await Promise.all(pending);
    const timing: RenderTiming = { receivedAt, startedAt, renderedAt: performance.now(), messages: messages.length };
    window.dispatchEvent(new CustomEvent<RenderTiming>('sextant-render', { detail: timing }));
  }
}

function addListener<K>(map: Map<K, Set<Listener>>, key: K, listener: Listener): () => void {
  const existing = map.get(key);
  const set = existing ?? new Set<Listener>();
  if (!existing) map.set(key, set);
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) map.delete(key);
  };
}
