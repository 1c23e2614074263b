// The chat session controller: owns the current session, runs one request at a time through the
// turn loop, journals every event before the webview sees it, and answers the webview's messages.
// It knows nothing of VS Code: everything it needs comes in through ChatControllerDeps.
import {
  applyEnvelope,
  compactRequests,
  findPlan,
  latestCompaction,
  planBrief,
  planToMarkdown,
  stepTitlesFromMarkdown,
  type PlanArtifact,
  type PlanStatus,
  type Report,
  type ResearchPlanArtifact,
  type ResearchPlanInput,
  researchPlanFromMarkdown,
  type Todo,
  type Compaction,
  type Envelope,
  type Mode,
  type ModelChoice,
  type Outbound,
  type ReasoningChoice,
  type RequestEvent,
  type RewindPreview,
  type RewindScope,
  type RunBudgetChoice,
  type SessionSummary,
  type Snapshot,
} from '../../protocol';
import type {
  AskAnswer,
  ApprovalDecision,
  DiffReviewPort,
  JournalRecord,
  Logger,
  SessionPersistence,
  StoredSession,
  ToolPorts,
  TurnCheckpoint,
} from '../ports';
import { CheckpointRecorder } from '../checkpoints';
import { type CheckpointStorage, RewindError, SessionRewinder } from './rewind-session';
import type { ModelMessage, Provider, ProviderConfig } from '../providers/types';
import type { ToolSessionState } from '../tools/types';
import { toErrorInfo } from './errors';
import { acceptsImages } from '../providers/registry';
import { effectiveMode, modeAvailability } from './modes';
import { Outbox, realScheduler, type Scheduler } from './outbox';
import { PendingReplies } from './pending-replies';
import { generateTitle } from '../session-title';
import { runTurn, type ToolRuntime, type TurnEvent } from './turn';
import { llmOf, modelRefFor, plannerTarget, reasoningFor, runBudget, type Target, withFallback } from './run-target';
import { researchPlanRequest, researchRequest } from './research-request';
import type { ResearchHost } from '../research/host';
import type { PermissionGate } from './permission-gate';
import type { AuditEntry } from '../security/audit-log';
import { liveSessionFromStored, newLiveSession, type LiveSession } from './live-session';
import { type BudgetLimits, type RunBudget, tokensOf } from './budget';
import {
  COMPACT_AT,
  DEFAULT_CONTEXT_WINDOW,
  estimatePromptTokens,
  estimateTextTokens,
  modelFacingHistory,
} from './compaction';
import { compactSession, nextPromptTokens, type SessionCompaction } from './session-compaction';

export interface ChatControllerDeps {
  persistence: SessionPersistence;
  resolveModel(ref: string): Promise<{ provider: Provider; model: string; config: ProviderConfig }>;
  modelChoices(): Promise<ModelChoice[]>;
  defaultModel(): string;
  maxSteps(): number;
  /** sextant.fallbackModel (user settings): the model a chat or agent turn fails over to; none without it. */
  fallbackModel?(): string | undefined;
  /** Spending caps (sextant.budget.*, user settings); without it runs are bounded by steps only. */
  budget?(): BudgetLimits;
  /** The tools a mode is built with (undefined: none). */
  toolsFor(mode: Mode): ToolRuntime | undefined;
  /**
   * Called before a chat or agent turn takes its tools: starts what they come from on first use (MCP
   * servers) and settles when they are ready, failed, or `signal` aborts.
   */
  prepareTools?(mode: Mode, signal: AbortSignal): Promise<void>;
  toolPorts: Omit<ToolPorts, 'approval' | 'ask'>;
  /**
   * The mode's system prompt. `sessionStartedAt` dates it: the prompt is the head of every request, so
   * it must not change within a session (a new day would otherwise empty the provider's prompt cache).
   */
  systemPrompt(mode: Mode, sessionStartedAt: number): string;
  trusted(): boolean;
  hasWorkspaceFolder(): boolean;
  createToolSession(sessionId: string): ToolSessionState;
  disposeToolSession(state: ToolSessionState): void;
  post(message: Outbound): void;
  log: Logger;
  now(): number;
  newId(): string;
  scheduler?: Scheduler;
  /** Told which session is current (undefined: an empty new chat), so a reloaded window can reopen it. */
  onCurrentSessionChanged?(sessionId: string | undefined): void;
  /** Ranked search over past sessions (memory search) for the history view; optional. */
  searchSessions?(query: string): Promise<SessionSummary[]>;
  /** The permission policy; without it reads run and writes and commands ask. */
  permissions?: PermissionGate;
  /** The audit log: one entry per decided tool call. */
  audit?(entry: AuditEntry): void;
  /** Shows file writers' proposals in the editor's diff view while they wait for approval. */
  diffReview?: DiffReviewPort;
  /** Web search, fetching and limits for Research mode; without it Research mode is not offered. */
  research?: ResearchHost;
  /** Where turn checkpoints keep file contents; without it no files are checkpointed (conversations still rewind). */
  checkpoints?: CheckpointStorage;
  /** The model picker's reasoning choice per model reference, kept by the host; without it nothing is sent. */
  reasoning?: ReasoningChoices;
  /**
   * sextant.plannerModel: the model reference Plan mode (and the research planner and gap check) runs on,
   * while Agent mode and the research report use the chat's model. Undefined: the chat's model for all.
   */
  plannerModel?(): string | undefined;
}

/** The reasoning option chosen per model reference (`off` or absent: nothing is sent). */
export interface ReasoningChoices {
  get(modelRef: string): ReasoningChoice | undefined;
  all(): Record<string, ReasoningChoice>;
  set(modelRef: string, choice: ReasoningChoice): void;
}

/** How a request runs beyond its text and mode. */
export interface SendOptions {
  /** Seeds the session's todo list when the request starts (an approved plan's steps). */
  todos?: Todo[];
  /** Research mode: carry out this approved research plan instead of planning first. */
  researchPlan?: ResearchPlanInput;
  /** Plan mode: propose a research plan (Plan Research) instead of a change plan. */
  planResearch?: boolean;
  /** The composer's budget choice for this run, or Continue after a budget stop. */
  budget?: RunBudgetChoice;
}

/** Rows per page of the history list (the view asks for the next page as it scrolls near the end). */
export const HISTORY_PAGE = 100;

interface InFlight {
  requestId: string;
  abort: AbortController;
  done: Promise<void>;
}

export class ChatController {
  private session: LiveSession;
  private inFlight: InFlight | undefined;
  /** How many history rows the view has loaded (re-sent whole after a rename, delete or undo). */
  private historyLoaded = 0;
  private readonly outbox: Outbox;
  private readonly approvals = new PendingReplies<ApprovalDecision>();
  private readonly answers = new PendingReplies<AskAnswer[]>();
  private readonly rewinder: SessionRewinder;
  /** A "Compact now" under way: a request sent meanwhile waits for it, so it gets the brief. */
  private compacting: Promise<void> | undefined;

  constructor(private readonly deps: ChatControllerDeps) {
    this.outbox = new Outbox((envs) => this.deliver(envs), deps.now, deps.scheduler ?? realScheduler);
    this.session = this.freshSession();
    this.rewinder = new SessionRewinder({
      checkpoints: deps.checkpoints,
      persistence: deps.persistence,
      journal: (r) => this.journal(r),
      now: deps.now,
      newId: deps.newId,
    });
  }

  get sessionId(): string {
    return this.session.id;
  }

  // ---- requests -------------------------------------------------------------------------------

  async send(requestId: string, text: string, requestedMode: Mode, opts: SendOptions = {}): Promise<void> {
    await this.abort();
    await this.compacting;
    const s = this.session;
    const mode = effectiveMode(requestedMode, this.modeContext());
    if (mode !== s.mode) this.setMode(mode);
    if (!s.persisted) {
      s.title = generateTitle(text);
      s.createdAt = this.deps.now();
      this.journal({
        kind: 'session_created',
        sessionId: s.id,
        title: s.title,
        mode: s.mode,
        model: s.model,
        at: this.deps.now(),
      });
      s.persisted = true;
      this.deps.onCurrentSessionChanged?.(s.id);
    }
    // A new request moves the chat on: the last rewind can no longer be undone.
    this.rewinder.clearRedo(s);
    const abort = new AbortController();
    let finish!: () => void;
    const done = new Promise<void>((r) => (finish = r));
    this.inFlight = { requestId, abort, done };
    const userMessageId = this.deps.newId();
    this.emit(requestId, {
      type: 'started',
      userMessageId,
      assistantMessageId: this.deps.newId(),
      text,
      mode,
      // The answer names the model that wrote it: the planner model for a plan.
      model: modelRefFor(this.deps, this.session.model, mode),
    });
    // Where this turn starts, so "Rewind to here" can cut the model history at this message.
    const turn: TurnCheckpoint = { userMessageId, requestId, modelIndex: s.modelMessages.length };
    s.checkpoints.push(turn);
    this.journal({ kind: 'turn_checkpoint', sessionId: s.id, checkpoint: turn, at: this.deps.now() });
    if (opts.todos) {
      s.tools.todos = opts.todos;
      this.journal({ kind: 'todos', sessionId: s.id, todos: opts.todos, at: this.deps.now() });
      this.emit(requestId, { type: 'todos', todos: opts.todos });
    }
    try {
      await this.runRequest(requestId, text, mode, abort.signal, opts, turn);
    } finally {
      if (this.inFlight?.requestId === requestId) this.inFlight = undefined;
      compactRequests(s.chat);
      finish();
    }
  }

  private async runRequest(
    requestId: string,
    text: string,
    mode: Mode,
    signal: AbortSignal,
    opts: SendOptions,
    turn: TurnCheckpoint,
  ): Promise<void> {
    const s = this.session;
    let recorder: CheckpointRecorder | undefined;
    const userMessage: ModelMessage = { role: 'user', content: text };
    let userRecorded = false;
    const recordHistory = (messages: ModelMessage[]) => {
      const add = userRecorded ? messages : [userMessage, ...messages];
      userRecorded = true;
      s.modelMessages.push(...add);
      this.journal({ kind: 'model_messages', sessionId: s.id, messages: add, at: this.deps.now() });
    };
    // Usage is a running total over the turn's model calls: the difference is the last call's prompt.
    let inputSoFar = 0;
    const isolated = mode === 'research' || (mode === 'plan' && opts.planResearch);
    const promptSeen = (inputTotal: number) => {
      if (isolated) return; // research runs without the chat history: its prompts say nothing of its size
      const tokens = inputTotal - inputSoFar;
      inputSoFar = inputTotal;
      const replaces = latestCompaction(s.chat)?.replaces ?? 0;
      if (tokens > 0) s.lastPrompt = { tokens, historyLength: s.modelMessages.length, replaces };
    };
    try {
      const ref = modelRefFor(this.deps, this.session.model, mode);
      const target: Target = { ...(await this.deps.resolveModel(ref)), ref };
      // Research mode plans (and checks for gaps) on the planner model; the report is the chat model's.
      const planner = mode === 'research' ? await plannerTarget(this.deps, target) : undefined;
      recorder = this.recorderFor(requestId, mode);
      const events = this.requestEvents(text, mode, requestId, signal, opts, target, recorder, planner);
      for (;;) {
        const next = await events.next();
        if (next.done) break;
        const ev = next.value;
        if (ev.type === 'history') recordHistory(ev.messages);
        else {
          if (ev.type === 'usage') promptSeen(ev.usage.inputTokens);
          if (ev.type === 'todos')
            this.journal({ kind: 'todos', sessionId: s.id, todos: ev.todos, at: this.deps.now() });
          if (ev.type === 'report') this.journalReport(ev.report);
          this.emit(requestId, ev);
        }
      }
      await this.saveCheckpoint(s.id, turn, recorder);
      if (signal.aborted) this.endAborted(requestId);
      else {
        this.emit(requestId, { type: 'complete' });
        this.retitleAfterFirstExchange(text);
      }
    } catch (err) {
      await this.saveCheckpoint(s.id, turn, recorder);
      if (signal.aborted) return this.endAborted(requestId);
      const error = toErrorInfo(err);
      this.deps.log.warn(`request ${requestId} failed: ${error.code}: ${error.message}`);
      this.emit(requestId, { type: 'error', error });
    }
  }

  /** The events of one request: a research run, a research plan, or a turn with the mode's tools. */
  private requestEvents(
    text: string,
    mode: Mode,
    requestId: string,
    signal: AbortSignal,
    opts: SendOptions,
    target: Target,
    recorder?: CheckpointRecorder,
    planner?: Target,
  ) {
    const research = this.deps.research;
    if (research && (mode === 'research' || (mode === 'plan' && opts.planResearch))) {
      const budget = runBudget(this.deps, this.session.chat.messages, opts.budget);
      const o = {
        question: text,
        research,
        llm: llmOf(this.deps, target),
        price: target.config.price,
        ...(planner
          ? { planner: { llm: llmOf(this.deps, planner), price: planner.config.price, ref: planner.ref } }
          : {}),
        ...(budget ? { budget } : {}),
        signal,
        now: this.deps.now,
        newId: this.deps.newId,
      };
      return mode === 'research' ? researchRequest({ ...o, plan: opts.researchPlan }) : researchPlanRequest(o);
    }
    return this.agentTurn(
      text,
      mode,
      requestId,
      signal,
      target,
      recorder,
      runBudget(this.deps, this.session.chat.messages, opts.budget),
    );
  }

  /** An agent or chat turn: the model with the mode's tools, the history compacted first when it nears the window. */
  private async *agentTurn(
    text: string,
    mode: Mode,
    requestId: string,
    signal: AbortSignal,
    target: Target,
    recorder?: CheckpointRecorder,
    budget?: RunBudget,
  ) {
    const s = this.session;
    const { model, config } = target;
    const userMessage: ModelMessage = { role: 'user', content: text };
    await this.deps.prepareTools?.(mode, signal);
    if (signal.aborted) return;
    const tools = this.deps.toolsFor(mode);
    const system = this.deps.systemPrompt(mode, s.createdAt);
    const fixedTokens = estimatePromptTokens(system, tools?.specs() ?? [], []);
    const first = await this.compactNearWindow(target, fixedTokens, estimateTextTokens(text), signal, budget);
    if (signal.aborted) return;
    for (const ev of first?.events ?? []) yield ev;
    // The marker reaches the chat when the outbox flushes: the compaction in force is taken from here.
    const compaction = first?.compaction ?? latestCompaction(s.chat);
    s.tools.compacted = Boolean(compaction);
    // A long agent run grows the prompt step by step: between its model calls the same check runs (once
    // more after a failure would only fail again, so a failed compaction is not retried in this turn).
    let failed = first !== undefined && !first.compaction;
    const compactBetweenSteps = async () => {
      if (failed) return undefined;
      const done = await this.compactNearWindow(target, fixedTokens, 0, signal, budget, true);
      if (!done) return undefined;
      failed = !done.compaction;
      if (done.compaction) s.tools.compacted = true;
      const messages = done.compaction ? modelFacingHistory(s.modelMessages, done.compaction) : undefined;
      return { events: done.events, ...(messages ? { messages } : {}) };
    };
    const reasoning = reasoningFor(this.deps, target.ref);
    yield* runTurn([...modelFacingHistory(s.modelMessages, compaction), userMessage], {
      sessionId: s.id,
      // The turn may fail over (and says so); the compaction above never does: its summary uses the chat's model.
      provider: withFallback(this.deps, this.session.model, target).provider,
      model,
      system,
      price: config.price,
      tools,
      toolSession: s.tools,
      ports: { ...this.deps.toolPorts, approval: this.approvalPort(requestId), ask: this.askPort(requestId) },
      maxSteps: this.deps.maxSteps(),
      supportsImages: acceptsImages(config),
      signal,
      now: this.deps.now,
      permissions: this.deps.permissions,
      audit: this.deps.audit,
      newId: this.deps.newId,
      ...(recorder ? { beforeWrite: this.beforeWriteOf(recorder) } : {}),
      ...(budget ? { budget } : {}),
      ...(reasoning ? { reasoning } : {}),
      compactBetweenSteps,
    });
  }

  /**
   * When the next prompt nears the context window, summarises the older turns (the summary uses the
   * chat's model, never the fallback). Undefined when there is no need; else the events to show — the
   * marker, or a notice when it failed (the request then goes in full) — and the compaction made. Its
   * cost counts in the session's caps at once.
   */
  private async compactNearWindow(
    target: Target,
    fixedTokens: number,
    extraTokens: number,
    signal: AbortSignal,
    budget: RunBudget | undefined,
    midTurn = false,
  ): Promise<{ events: TurnEvent[]; compaction?: Compaction } | undefined> {
    const s = this.session;
    const window = target.config.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
    this.outbox.flush(); // the chat (and its latest compaction) up to date
    const tokensBefore = nextPromptTokens(s, fixedTokens, extraTokens);
    if (tokensBefore < COMPACT_AT * window) return undefined;
    const o = { trigger: 'auto' as const, tokensBefore, fixedTokens, signal, midTurn };
    const done = await compactSession(s, target, o, this.deps);
    if (!done.ok) {
      return {
        events: [{ type: 'notice', text: `Could not compact the conversation (${done.reason}); sent in full.` }],
      };
    }
    const compaction = done.compaction;
    if (budget && compaction.usage) {
      budget.sessionSpent.tokens += tokensOf(compaction.usage);
      budget.sessionSpent.costUsd += compaction.usage.costUsd ?? 0;
    }
    return { compaction, events: [{ type: 'compacted', compaction, messageId: this.deps.newId() }] };
  }

  // ---- compaction ---------------------------------------------------------------------------

  /**
   * "Compact now": summarises the older turns at once, between requests. The marker is a message of its
   * own. Refused (a `protocolError`) while a request runs or when there is nothing to compact.
   */
  async compactNow(): Promise<Compaction | undefined> {
    const s = this.session;
    const refuse = (message: string) => {
      this.deps.post({ type: 'protocolError', error: { code: 'protocol', message, recoverable: true } });
      return undefined;
    };
    if (this.inFlight || this.compacting) return refuse('Wait for the running request before compacting.');
    if (!s.persisted || !s.modelMessages.length) return refuse('There is nothing to compact yet.');
    let finish!: () => void;
    this.compacting = new Promise<void>((r) => (finish = r));
    let done: SessionCompaction;
    try {
      const target = await this.deps.resolveModel(s.model);
      const tools = this.deps.toolsFor(s.mode);
      const fixedTokens = estimatePromptTokens(this.deps.systemPrompt(s.mode, s.createdAt), tools?.specs() ?? [], []);
      this.outbox.flush();
      const before = nextPromptTokens(s, fixedTokens, 0);
      const signal = new AbortController().signal;
      done = await compactSession(
        s,
        target,
        { trigger: 'manual', tokensBefore: before, fixedTokens, signal },
        this.deps,
      );
    } catch (err) {
      done = { ok: false, reason: toErrorInfo(err).message };
    } finally {
      this.compacting = undefined;
      finish();
    }
    if (!done.ok) return refuse(`Could not compact the conversation: ${done.reason}`);
    if (this.session !== s) return undefined; // the user switched chats meanwhile
    // Its own request id: no model request is running, and the reducer adds the marker as a message.
    this.emit(`compact-${this.deps.newId()}`, {
      type: 'compacted',
      compaction: done.compaction,
      messageId: this.deps.newId(),
    });
    this.outbox.flush();
    return done.compaction;
  }

  /** A checkpoint recorder for a turn whose tools may write, when checkpoints are stored. */
  private recorderFor(requestId: string, mode: Mode): CheckpointRecorder | undefined {
    const storage = this.deps.checkpoints;
    if (!storage || !this.deps.toolsFor(mode)) return undefined;
    return new CheckpointRecorder(storage.files, storage.blobs, {
      turnId: requestId,
      now: this.deps.now,
      newId: this.deps.newId,
    });
  }

  private beforeWriteOf(recorder: CheckpointRecorder): (absPath: string) => Promise<void> {
    return async (absPath) => {
      const r = await recorder.beforeWrite(absPath);
      // The write goes ahead: the rewind preview names the file as one it cannot put back.
      if (!r.recorded) this.deps.log.warn(`checkpoint: ${absPath} not saved before the write: ${r.reason}`);
    };
  }

  /** Journals the files a turn changed (hashes; the bytes are already in the blob store). Once per turn. */
  private async saveCheckpoint(sessionId: string, turn: TurnCheckpoint, recorder?: CheckpointRecorder): Promise<void> {
    if (!recorder || turn.files) return;
    try {
      const files = await recorder.finish();
      if (!files.files.length && !files.skipped.length) return;
      turn.files = files;
      this.journal({ kind: 'turn_checkpoint', sessionId, checkpoint: turn, at: this.deps.now() });
    } catch (err) {
      this.deps.log.error(`checkpoint: could not finish: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** A report is also an artifact of the session, with its citations (the store's artifacts table). */
  private journalReport(report: Report): void {
    this.journal({
      kind: 'artifact',
      sessionId: this.session.id,
      artifact: {
        id: report.id,
        kind: 'report',
        title: report.title,
        content: report.markdown,
        citations: report.sources.map((src) => ({ n: src.n, url: src.url, title: src.title })),
      },
      at: this.deps.now(),
    });
  }

  /** "hi"-style first messages get their title from the answer once the first exchange is done. */
  private retitleAfterFirstExchange(userText: string): void {
    const s = this.session;
    if (s.chat.messages.length !== 2) return;
    const answer = s.chat.messages[1].parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
    const title = generateTitle(userText, answer);
    if (title && title !== s.title) {
      s.title = title;
      this.journal({ kind: 'session_meta', sessionId: s.id, title, titleSource: 'auto', at: this.deps.now() });
    }
  }

  private endAborted(requestId: string): void {
    // Deltas received before Stop are still delivered; then only the terminal event.
    this.outbox.flush();
    this.outbox.stop(requestId);
    this.emit(requestId, { type: 'aborted', partialSaved: true });
  }

  /** Stops the in-flight request (if any, and if it matches) and waits until it has ended. */
  async abort(requestId?: string): Promise<void> {
    const f = this.inFlight;
    if (!f || (requestId && f.requestId !== requestId)) return;
    f.abort.abort();
    await f.done;
  }

  /** Runs the last user message of the session again. */
  async retry(requestId: string): Promise<void> {
    const lastUser = [...this.session.chat.messages].reverse().find((m) => m.role === 'user');
    const text = lastUser?.parts.map((p) => (p.type === 'text' ? p.text : '')).join('') ?? '';
    if (!text) return;
    await this.send(requestId, text, lastUser?.mode ?? this.session.mode);
  }

  private approvalPort(requestId: string): ToolPorts['approval'] {
    return {
      request: async (req, signal) => {
        const { sessionId: _sessionId, proposal, ...approval } = req;
        let pending = true;
        this.emit(requestId, { type: 'approval_needed', approval });
        // The card follows the diff view: the proposal edited, the file changed under it.
        const review =
          proposal &&
          this.deps.diffReview?.open({ callId: req.callId, change: proposal }, (update) => {
            const { edited: _edited, stale: _stale, ...rest } = approval;
            const shown = {
              ...rest,
              ...(update.edited ? { edited: true } : {}),
              ...(update.stale ? { stale: update.stale } : {}),
            };
            if (pending && !signal.aborted) this.emit(requestId, { type: 'approval_needed', approval: shown });
          });
        try {
          const decision = await this.approvals.wait(req.callId, signal);
          // Approve from the card or the editor's title bar alike: the proposal as the user left it.
          const editedText = decision.decision === 'deny' ? undefined : review?.editedText();
          return editedText === undefined ? decision : { ...decision, editedText };
        } finally {
          pending = false;
          review?.close();
          this.emit(requestId, { type: 'approval_resolved', callId: req.callId });
        }
      },
    };
  }

  private askPort(requestId: string): ToolPorts['ask'] {
    return {
      ask: async (req, signal) => {
        this.emit(requestId, { type: 'question', question: { callId: req.callId, questions: req.questions } });
        try {
          return await this.answers.wait(req.callId, signal);
        } finally {
          this.emit(requestId, { type: 'question_resolved', callId: req.callId });
        }
      },
    };
  }

  // ---- rewind -------------------------------------------------------------------------------

  /** Refuses while a request runs: a rewind under a running turn would race its writes. */
  private assertIdle(): void {
    if (this.inFlight) throw new RewindError('Stop the running request before rewinding or editing a message.');
  }

  /**
   * What "Rewind to here" on a user message would do (reads only); posted as `rewindPreview`. A
   * refusal (a request running, an unknown message) is posted as `protocolError` and returns undefined.
   */
  async rewindPreview(messageId: string): Promise<RewindPreview | undefined> {
    return this.refusable(async () => {
      this.assertIdle();
      const preview = await this.rewinder.preview(this.session, messageId);
      this.deps.post({ type: 'rewindPreview', preview });
      return preview;
    });
  }

  /** Rewinds files, conversation or both to before a user message; posts the snapshot, then `rewound`. */
  async rewind(
    messageId: string,
    scope: RewindScope,
    overwrite: string[] = [],
  ): Promise<{ summary: string; draft?: string } | undefined> {
    return this.refusable(async () => {
      this.assertIdle();
      this.outbox.flush();
      const done = await this.rewinder.rewind(this.session, messageId, scope, overwrite);
      this.session.lastPrompt = undefined; // counted for a history that is gone
      await this.postSnapshot();
      this.deps.post({ type: 'rewound', ...done });
      return done;
    });
  }

  /** Undoes the last rewind; posts the snapshot, then `rewound` with the summary. */
  async redoRewind(): Promise<string | undefined> {
    return this.refusable(async () => {
      this.assertIdle();
      const summary = await this.rewinder.redo(this.session);
      this.session.lastPrompt = undefined;
      await this.postSnapshot();
      this.deps.post({ type: 'rewound', summary });
      return summary;
    });
  }

  /** Edit and resend: forks the chat before `messageId` (optionally rewinding files too) and sends `text`. */
  async editResend(
    messageId: string,
    requestId: string,
    text: string,
    mode: Mode,
    opts: { rewindFiles: boolean; overwrite?: string[] },
  ): Promise<void> {
    const forked = await this.refusable(async () => {
      this.assertIdle();
      this.outbox.flush();
      const scope = opts.rewindFiles ? 'both' : 'conversation';
      await this.rewinder.rewind(this.session, messageId, scope, opts.overwrite ?? []);
      this.session.lastPrompt = undefined;
      // The chat goes on from here at once: no Redo offer, and the composer keeps what it has.
      this.rewinder.clearRedo(this.session);
      await this.postSnapshot();
      return true;
    });
    if (forked) await this.send(requestId, text, mode);
  }

  private async refusable<T>(work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await work();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (!(err instanceof RewindError)) this.deps.log.error(`rewind failed: ${message}`);
      this.deps.post({
        type: 'protocolError',
        error: { code: err instanceof RewindError ? 'protocol' : 'internal', message, recoverable: true },
      });
      return undefined;
    }
  }

  // ---- plans ----------------------------------------------------------------------------------

  /** The research reports of the current session, newest first. */
  reports(): Report[] {
    const out: Report[] = [];
    for (const m of this.session.chat.messages) for (const p of m.parts) if (p.type === 'report') out.unshift(p.report);
    return out;
  }

  /** A plan card of the current session. */
  plan(planId: string): PlanArtifact | undefined {
    return findPlan(this.session.chat, planId);
  }

  /**
   * Approves a proposed plan and starts a fresh Agent request on it: the brief is the plan as
   * Markdown (or `editedText`, the user's edited copy), and the todo list starts from its steps.
   */
  async approvePlan(planId: string, requestId: string, editedText?: string): Promise<boolean> {
    const plan = this.plan(planId);
    if (plan?.status !== 'proposed') {
      this.deps.log.warn(`no proposed plan ${planId} to approve`);
      return false;
    }
    if (plan.kind === 'research') return this.approveResearchPlan(plan, requestId, editedText);
    if (effectiveMode('agent', this.modeContext()) !== 'agent') {
      this.deps.log.warn('cannot carry out a plan: Agent mode is not available here');
      return false;
    }
    this.setPlanStatus(planId, 'approved'); // first, so a second click finds it approved
    await this.abort();
    this.setMode('agent');
    const text = editedText?.trim() ? editedText : planToMarkdown(plan);
    // An edited plan's own steps, when it still has a Steps list; else the proposed ones.
    const edited = editedText ? stepTitlesFromMarkdown(editedText) : [];
    const titles = edited.length ? edited : plan.steps.map((step) => step.title);
    const todos: Todo[] = titles.map((content, i) => ({ id: `p${i + 1}`, content, status: 'pending' }));
    await this.send(requestId, planBrief(text), 'agent', { todos });
    return true;
  }

  /** Runs the researcher on an approved research plan (the edited document's plan when it still parses). */
  private async approveResearchPlan(
    plan: ResearchPlanArtifact,
    requestId: string,
    editedText?: string,
  ): Promise<boolean> {
    if (effectiveMode('research', this.modeContext()) !== 'research') {
      this.deps.log.warn('cannot carry out a research plan: Research mode is not available here');
      return false;
    }
    this.setPlanStatus(plan.id, 'approved');
    await this.abort();
    this.setMode('research');
    const edited = editedText ? researchPlanFromMarkdown(editedText) : undefined;
    const { id: _id, kind: _kind, status: _status, ...input } = plan;
    const chosen = edited ?? input;
    await this.send(requestId, chosen.question, 'research', { researchPlan: chosen });
    return true;
  }

  /** Marks a proposed plan rejected; the model is not called. */
  rejectPlan(planId: string): boolean {
    const plan = this.plan(planId);
    if (plan?.status !== 'proposed') {
      this.deps.log.warn(`no proposed plan ${planId} to reject`);
      return false;
    }
    this.setPlanStatus(planId, 'rejected');
    return true;
  }

  private setPlanStatus(planId: string, status: PlanStatus): void {
    // Its own request id: the plan's request has ended, and this is not a model request.
    this.emit(`plan-${this.deps.newId()}`, { type: 'plan_status', planId, status });
    this.outbox.flush();
  }

  approve(callId: string, decision: ApprovalDecision): void {
    if (!this.approvals.reply(callId, decision)) this.deps.log.warn(`no approval is waiting for ${callId}`);
  }

  answer(callId: string, answers: AskAnswer[]): void {
    if (!this.answers.reply(callId, answers)) this.deps.log.warn(`no question is waiting for ${callId}`);
  }

  // ---- events ---------------------------------------------------------------------------------

  private emit(requestId: string, event: RequestEvent): void {
    this.outbox.emit(requestId, event);
  }

  /** Journal first, then fold into the host's state, then tell the webview. */
  private deliver(envelopes: Envelope[]): void {
    const s = this.session;
    this.journal({ kind: 'events', sessionId: s.id, envelopes, at: this.deps.now() });
    for (const env of envelopes) applyEnvelope(s.chat, env);
    this.deps.post({ type: 'events', envelopes });
  }

  private journal(record: JournalRecord): void {
    try {
      this.deps.persistence.append(record);
    } catch (err) {
      // Never crash a turn over storage; say so loudly instead.
      this.deps.log.error(`could not write session history: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  // ---- session state --------------------------------------------------------------------------

  private modeContext() {
    return {
      trusted: this.deps.trusted(),
      hasWorkspaceFolder: this.deps.hasWorkspaceFolder(),
      research: Boolean(this.deps.research),
    };
  }

  private freshSession(): LiveSession {
    const id = this.deps.newId();
    return newLiveSession(id, this.deps.defaultModel(), this.deps.now(), this.deps.createToolSession(id));
  }

  async snapshot(): Promise<Snapshot> {
    this.outbox.flush();
    const s = this.session;
    const requestId = this.inFlight?.requestId;
    const inFlight = requestId === undefined ? undefined : s.chat.requests[requestId];
    return {
      sessionId: s.id,
      title: s.title,
      mode: s.mode,
      model: s.model,
      models: await this.deps.modelChoices(),
      modes: modeAvailability(this.modeContext()),
      messages: s.chat.messages,
      todos: s.chat.todos,
      inFlightRequestId: inFlight ? requestId : undefined,
      inFlightAssistantMessageId: inFlight?.assistantMessageId,
      inFlightLastSeq: inFlight?.lastSeq,
      approvals: s.chat.approvals,
      questions: s.chat.questions,
      workspaceTrusted: this.deps.trusted(),
      ...(s.redo ? { redo: { messageId: s.redo.userMessageId, summary: s.redo.summary } } : {}),
      ...(this.deps.reasoning ? { reasoning: this.deps.reasoning.all() } : {}),
    };
  }

  async postSnapshot(): Promise<void> {
    this.deps.post({ type: 'snapshot', snapshot: await this.snapshot() });
  }

  setMode(mode: Mode): void {
    const next = effectiveMode(mode, this.modeContext());
    this.session.mode = next;
    if (this.session.persisted)
      this.journal({ kind: 'session_meta', sessionId: this.session.id, mode: next, at: this.deps.now() });
    this.deps.post({ type: 'mode', mode: next });
  }

  setModel(model: string): void {
    this.session.model = model;
    if (this.session.persisted)
      this.journal({ kind: 'session_meta', sessionId: this.session.id, model, at: this.deps.now() });
    this.deps.post({ type: 'model', model });
  }

  /** The model picker's reasoning option for one model; used from the next request on. */
  setReasoning(modelRef: string, choice: ReasoningChoice): void {
    this.deps.reasoning?.set(modelRef, choice);
  }

  async newChat(): Promise<void> {
    await this.abort();
    const old = this.session;
    this.session = this.freshSession();
    this.session.mode = old.mode;
    this.session.model = old.model;
    this.deps.disposeToolSession(old.tools);
    this.deps.onCurrentSessionChanged?.(undefined);
    await this.postSnapshot();
  }

  async resume(sessionId: string): Promise<boolean> {
    const stored = this.deps.persistence.getSession(sessionId);
    if (!stored) return false;
    await this.abort();
    this.deps.disposeToolSession(this.session.tools);
    this.session = this.fromStored(stored);
    this.deps.onCurrentSessionChanged?.(stored.id);
    await this.postSnapshot();
    return true;
  }

  private fromStored(stored: StoredSession): LiveSession {
    return liveSessionFromStored(
      stored,
      effectiveMode(stored.mode, this.modeContext()),
      this.deps.createToolSession(stored.id),
    );
  }

  /**
   * One page of the history list: newest first, or for a query the memory-search ranking, then plain
   * title/content matches. With `reload` (after a rename, delete or undo) every row the view has
   * loaded is sent again, so its list keeps its length and scroll position.
   */
  async postHistory(query?: string, page: { offset?: number; limit?: number; reload?: boolean } = {}): Promise<void> {
    const q = query?.trim() || undefined;
    const offset = page.reload ? 0 : (page.offset ?? 0);
    const limit = page.reload ? Math.max(HISTORY_PAGE, this.historyLoaded) : (page.limit ?? HISTORY_PAGE);
    let sessions: SessionSummary[];
    if (!q) sessions = this.deps.persistence.listSessions({ limit: limit + 1, offset });
    else {
      sessions = this.deps.persistence.listSessions({ query: q, limit: 200 });
      if (this.deps.searchSessions) {
        const ranked = await this.deps.searchSessions(q).catch((err: unknown) => {
          this.deps.log.warn(`memory search failed: ${err instanceof Error ? err.message : String(err)}`);
          return [];
        });
        const seen = new Set(ranked.map((r) => r.id));
        sessions = [...ranked, ...sessions.filter((r) => !seen.has(r.id))];
      }
      sessions = sessions.slice(offset, offset + limit + 1);
    }
    const hasMore = sessions.length > limit;
    if (hasMore) sessions = sessions.slice(0, limit);
    this.historyLoaded = offset + sessions.length;
    this.deps.post({ type: 'history', sessions, query, offset, hasMore });
  }

  renameSession(sessionId: string, title: string): void {
    this.journal({ kind: 'session_meta', sessionId, title, titleSource: 'user', at: this.deps.now() });
    if (sessionId === this.session.id) this.session.title = title;
  }

  async deleteSession(sessionId: string): Promise<void> {
    this.journal({ kind: 'session_deleted', sessionId, at: this.deps.now() });
    if (sessionId === this.session.id) await this.newChat();
  }

  restoreSession(sessionId: string): void {
    this.journal({ kind: 'session_restored', sessionId, at: this.deps.now() });
  }

  /** The current session as history knows it; undefined while it is an empty new chat. */
  /** The current session's model reference (`provider/model`), e.g. for web_fetch's default model. */
  currentModel(): string {
    return this.session.model;
  }

  currentSessionRef(): { id: string; title: string } | undefined {
    return this.session.persisted ? { id: this.session.id, title: this.session.title } : undefined;
  }

  async dispose(): Promise<void> {
    await this.abort();
    this.outbox.flush();
    this.outbox.dispose();
    this.deps.disposeToolSession(this.session.tools);
  }
}
