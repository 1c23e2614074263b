// One request's life: it starts (the session written on its first message, a turn checkpoint), streams
// its events through the current chat, and ends with exactly one terminal event — complete, aborted
// (Stop, or a newer request) or error (with Retry). One request runs at a time.
import { compactRequests, type Mode, type RequestEvent } from '../../protocol';
import type { TurnCheckpoint } from '../ports';
import type { ModelMessage } from '../providers/types';
import { generateTitle } from '../session-title';
import type { RunBudget } from '../usage/budget';
import { agentTurn } from './agent-turn';
import { commandModelRef } from './subagent-model';
import type { ApprovalBroker } from './approval-broker';
import type { ChatServices } from './chat-services';
import type { CurrentChat } from './current-chat';
import { toErrorInfo } from './errors';
import { effectiveMode } from './modes';
import { ResearchStop } from '../research/loop/research-stop';
import { researchAsking, researchPlanRequest, researchRequest } from './research-request';
import type { SessionRewinder } from './rewind-session';
import { llmOf, modelRefFor, plannerTarget, runBudget, type Target } from './run-target';
import { TurnCheckpoints } from './turn-checkpoints';
import { announcingProvider, startRecorder } from './request-start';
import { attachedChars, messageWithAttachments } from '../extensions/references/attach';
import { SteerInbox, type SteerSource } from './steering';
import { FleetSeat } from './fleet-seat';
import { ResendExtras } from './resend-extras';
import { journalReport, lastPromptRecorder, retitleAfterFirstExchange } from './request-records';
import { ResearchFollowUps } from './research-follow-ups';
import type { SendOptions } from './send-options';
import { RequestTelemetry } from './request-telemetry';

export type { AroundTurn, SendOptions } from './send-options';

interface InFlight {
  requestId: string;
  abort: AbortController;
  done: Promise<void>;
  /** A research run's first Stop: true when the run takes it and ends itself with a partial report. */
  softStop?: () => boolean;
  /** Messages steering this request, delivered at its next step boundary. */
  steers: SteerInbox;
  /** Records the request's start if it is not yet (request-start.ts): before anything is shown in it. */
  begin: () => void;
}

export class RequestRunner {
  private inFlight: InFlight | undefined;
  /** Notices waiting for the next request (notice()). */
  private readonly heldNotices: string[] = [];
  /** What Retry sends again beside the text (attachments, images). */
  private readonly resend = new ResendExtras();
  /** Work a new request must wait for (a "Compact now" under way), so it gets the brief. */
  private holding: Promise<void> | undefined;
  private readonly followUps = new ResearchFollowUps(() => this.services.history.persistence);
  private ended: 'complete' | 'aborted' | 'error' | undefined;
  private pausedBy: 'budget' | 'max_steps' | undefined;
  /** The running request's telemetry (request-telemetry.ts); requests run one at a time. */
  private telemetry = RequestTelemetry.off();
  /** The window is going away: a request it stops stays marked running, so the next start offers Continue. */
  private closing = false;

  constructor(
    protected readonly chat: CurrentChat,
    protected readonly services: ChatServices,
    private readonly approvals: ApprovalBroker,
    private readonly rewinder: SessionRewinder,
  ) {}

  /**
   * A notice for the chat from outside the agent (the history store cannot write: a full disk). Shown in
   * the running request, or at the start of the next one.
   */
  notice(text: string): void {
    if (!this.inFlight) return void this.heldNotices.push(text);
    this.inFlight.begin(); // the request's start first
    this.chat.emit(this.inFlight.requestId, { type: 'notice', text });
  }

  /** The request running now, if any. */
  get running(): string | undefined {
    return this.inFlight?.requestId;
  }

  /** Nothing runs and nothing holds requests back. */
  idle(): boolean {
    return !this.inFlight && !this.holding;
  }

  /** New requests wait until `work` is over. */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    let release!: () => void;
    this.holding = new Promise<void>((r) => (release = r));
    try {
      return await work();
    } finally {
      this.holding = undefined;
      release();
    }
  }

  async send(requestId: string, text: string, requestedMode: Mode, given: SendOptions = {}): Promise<void> {
    await this.abort();
    await this.holding;
    const { host } = this.services;
    const s = this.chat.session;
    const mode = effectiveMode(requestedMode, this.chat.modeContext());
    const chatRef = () => modelRefFor(this.services.models, s.model, mode);
    const choices = () => this.services.models.modelChoices();
    const model = given.model && (await commandModelRef(given.model, chatRef(), choices, this.heldNotices));
    const opts = model ? { ...given, model } : given;
    if (mode !== s.mode) this.chat.setMode(mode);
    // Before the prompt is built: the system prompt's date is the session's start.
    if (!s.persisted) {
      s.title = generateTitle(text);
      s.createdAt = host.now();
    }
    // A new request moves the chat on: the last rewind can no longer be undone.
    this.rewinder.clearRedo(s);
    const abort = new AbortController();
    let finish!: () => void;
    const done = new Promise<void>((r) => (finish = r));
    const steers = new SteerInbox();
    const userMessageId = host.newId();
    this.resend.remember(userMessageId, opts);
    const turn: TurnCheckpoint = { userMessageId, requestId, modelIndex: s.modelMessages.length };
    // Recorded once the first model call is on its way (request-start.ts), before any of its events.
    const begin = startRecorder(this.chat, this.services, {
      requestId,
      userMessageId,
      text,
      mode,
      model: opts.model ?? modelRefFor(this.services.models, s.model, mode),
      ...(opts.attachments ? { attachments: opts.attachments } : {}),
      ...(opts.images ? { images: opts.images } : {}),
      notices: this.heldNotices.splice(0),
      checkpoint: turn,
      ...(opts.todos ? { todos: opts.todos } : {}),
      ...(opts.origin ? { origin: opts.origin } : {}),
    });
    this.inFlight = { requestId, abort, done, steers, begin };
    this.pausedBy = undefined;
    // A slot among the window's running sessions (sextant.agents.maxParallelSessions) before any model call;
    // a request that waits for one is shown (its start recorded) with the reason and Stop.
    const seat = new FleetSeat(this.services.fleet, s.id);
    const say = (text: string) => {
      begin();
      this.chat.emit(requestId, { type: 'notice', kind: 'info', text });
    };
    try {
      const seated = await seat.take(abort.signal, say);
      if (seated) await this.run(requestId, text, mode, abort.signal, opts, turn, begin, seat);
      else {
        begin(); // Stop while waiting for a slot: the request is shown, then aborted
        this.endAborted(requestId);
      }
    } finally {
      seat.release();
      if (this.inFlight?.requestId === requestId) this.inFlight = undefined;
      compactRequests(s.chat);
      if (!this.closing && s.persisted) {
        this.chat.flush(); // the terminal event is journaled before the run is marked ended
        this.chat.journal({ kind: 'run_state', sessionId: s.id, requestId: null, at: host.now() });
      }
      finish();
    }
  }

  /**
   * The user's Stop (the view's Stop button, Esc Esc, the notification's Cancel). A research run that has
   * read pages takes the first one and ends with a partial report; otherwise, and the second time, the
   * request is aborted.
   */
  async stop(requestId?: string): Promise<void> {
    const f = this.inFlight;
    if (!f || (requestId && f.requestId !== requestId)) return;
    if (f.softStop?.()) return;
    await this.abort(requestId);
  }

  /**
   * Steers the running request with `text`: delivered at its next step boundary (an agent turn's next
   * model call, a research run's next search). False when nothing runs (the caller sends it instead).
   */
  steer(text: string): boolean {
    const f = this.inFlight;
    if (!f || f.abort.signal.aborted) return false;
    f.steers.add(text);
    return true;
  }

  /** The window is closing (reload, quit): what it stops now is interrupted, not ended (Continue next time). */
  windowClosing(): void {
    this.closing = true;
  }

  /** A `complete` last request that paused with Continue: at a spending cap or at the step limit. */
  get lastPause(): 'budget' | 'max_steps' | undefined {
    return this.pausedBy;
  }

  /** How the last request ended: `complete` lets queued messages go next; after Stop or an error they wait. */
  get lastEnd(): 'complete' | 'aborted' | 'error' | undefined {
    return this.ended;
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
    const again = this.resend.retryOf(this.chat.session.chat.messages);
    if (!again) return;
    const { text, mode, ...extras } = again;
    await this.send(requestId, text, mode ?? this.chat.session.mode, extras);
  }

  private async run(
    requestId: string,
    text: string,
    mode: Mode,
    signal: AbortSignal,
    opts: SendOptions,
    turn: TurnCheckpoint,
    begin: () => void,
    seat: FleetSeat,
  ): Promise<void> {
    const { host } = this.services;
    const s = this.chat.session;
    let checkpoints: TurnCheckpoints | undefined;
    const facts = { sessionId: s.id, requestId, mode, model: opts.model ?? s.model, text, startedAt: host.now() };
    this.telemetry = new RequestTelemetry(this.services.telemetry, facts, host.now);
    // The references' content goes with the user's message (the cached prefix before it is untouched).
    const modelText = messageWithAttachments(text, opts.attachments ?? []);
    // A UserPromptSubmit hook may add context to it (the `prompt` event below).
    const images = opts.images?.blocks ?? [];
    let userMessage: ModelMessage = {
      role: 'user',
      content: images.length ? [{ type: 'text', text: modelText }, ...images] : modelText,
    };
    let userRecorded = false;
    const recordHistory = (messages: ModelMessage[]) => {
      const add = userRecorded ? messages : [userMessage, ...messages];
      userRecorded = true;
      s.modelMessages.push(...add);
      this.chat.journal({ kind: 'model_messages', sessionId: s.id, messages: add, at: host.now() });
    };
    const promptSeen = lastPromptRecorder(s, mode === 'research' || (mode === 'plan' && Boolean(opts.planResearch)));
    try {
      const ref = opts.model ?? modelRefFor(this.services.models, s.model, mode);
      const resolved = await this.services.models.resolveModel(ref);
      // The request's start is recorded once its first model call is on its way (request-start.ts).
      const provider = this.telemetry.provider(
        announcingProvider(resolved.provider, begin, host.afterModelCallSent?.bind(host)),
      );
      const target: Target = { ...resolved, ref, provider };
      checkpoints = TurnCheckpoints.forTurn(this.services, requestId, mode);
      const budget = runBudget(this.services.limits, s.chat.messages, opts.budget, seat.shared);
      const inner = this.events(modelText, mode, requestId, signal, opts, target, begin, budget, seat, checkpoints);
      // The goal loop's check runs inside the request, around its turn (send-options.ts).
      const emit = (event: RequestEvent) => {
        begin();
        this.chat.emit(requestId, event);
      };
      const around = { asking: this.approvals.portsFor(emit), signal, paused: () => this.pausedBy };
      const events = opts.around ? opts.around(inner, around) : inner;
      for (;;) {
        const next = await events.next();
        if (next.done) break;
        begin(); // the start before anything of the request's own
        const ev = next.value;
        if (ev.type !== 'history' && ev.type !== 'prompt') this.telemetry.seen(ev);
        if (ev.type === 'history') recordHistory(ev.messages);
        else if (ev.type === 'prompt') userMessage = ev.message;
        else {
          if (ev.type === 'usage') promptSeen(ev.usage.inputTokens);
          if (ev.type === 'todos')
            this.chat.journal({ kind: 'todos', sessionId: s.id, todos: ev.todos, at: host.now() });
          if (ev.type === 'report')
            journalReport(this.chat, this.services, ev.report, this.followUps.sourcesOf(ev.report.id));
          if (ev.type === 'budget_stop') this.pausedBy = 'budget';
          if (ev.type === 'notice' && ev.kind === 'step_limit') this.pausedBy = 'max_steps';
          this.chat.emit(requestId, ev);
          // What the run spent so far goes to the window's total (and its spend rate) as it comes.
          const warning = ev.type === 'usage' ? seat.usage(ev.usage) : undefined;
          if (warning) this.chat.emit(requestId, { type: 'notice', kind: 'budget', text: warning });
        }
      }
      begin();
      await checkpoints?.save(this.chat, s.id, turn);
      if (signal.aborted) this.endAborted(requestId);
      else {
        this.ended = 'complete';
        this.chat.emit(requestId, { type: 'complete' });
        retitleAfterFirstExchange(this.chat, this.services, text);
      }
    } catch (err) {
      begin();
      await checkpoints?.save(this.chat, s.id, turn);
      if (signal.aborted) return this.endAborted(requestId);
      const error = toErrorInfo(err);
      host.log.warn(`request ${requestId} failed: ${error.code}: ${error.message}`);
      this.telemetry.failed(error.code);
      this.ended = 'error';
      this.chat.emit(requestId, { type: 'error', error });
    } finally {
      this.telemetry.end(this.ended, this.pausedBy);
    }
  }

  /** The events of one request: a research run, a research plan, or a turn with the mode's tools. */
  private async *events(
    text: string,
    mode: Mode,
    requestId: string,
    signal: AbortSignal,
    opts: SendOptions,
    target: Target,
    begin: () => void,
    budget: RunBudget | undefined,
    seat: FleetSeat,
    checkpoints?: TurnCheckpoints,
  ) {
    const { research, models, host } = this.services;
    // Cards and questions the request shows itself (approvals, a research question) come after its start.
    const emit = (event: Parameters<CurrentChat['emit']>[1]) => {
      begin();
      this.chat.emit(requestId, event);
    };
    if (research && (mode === 'research' || (mode === 'plan' && opts.planResearch))) {
      // Research mode plans (and checks for gaps) on the planner model; the report is the chat model's.
      const planner = mode === 'research' ? await plannerTarget(models, target) : undefined;
      const o = {
        question: text,
        research,
        llm: llmOf(models, target),
        price: target.config.price,
        ...(planner ? { planner: { llm: llmOf(models, planner), price: planner.config.price, ref: planner.ref } } : {}),
        ...(budget ? { budget } : {}),
        signal,
        now: host.now,
        newId: host.newId,
      };
      if (mode !== 'research') {
        yield* researchPlanRequest(o);
        return;
      }
      // The user's first Stop keeps what the run found (a partial report); a second one aborts.
      const stop = new ResearchStop();
      if (this.inFlight?.requestId === requestId) this.inFlight.softStop = () => stop.request();
      const sessionId = this.chat.session.id;
      // A question after a report continues from it (its sources are reused); not a fresh plan's run.
      const prior = opts.researchPlan ? undefined : this.followUps.prior(sessionId);
      yield* researchRequest({
        ...o,
        plan: opts.researchPlan,
        stop,
        steers: this.steersOf(requestId),
        ...researchAsking(this.approvals.portsFor(emit), requestId, sessionId),
        ...(prior ? { prior } : {}),
        remember: (p) => this.followUps.remember(sessionId, p),
      });
      return;
    }
    yield* agentTurn(this.chat, this.services, {
      text,
      mode,
      signal,
      target,
      asking: this.approvals.portsFor(emit, this.services.tools.diffReview),
      maxSteps: this.services.limits.maxSteps(),
      ...(opts.preApproved ? { preApproved: opts.preApproved } : {}),
      ...(opts.planGrant ? { planGrant: opts.planGrant } : {}),
      steers: this.steersOf(requestId),
      telemetry: this.telemetry.scope,
      ...(opts.images?.blocks.length ? { images: opts.images.blocks } : {}),
      // `text` is the command's body with the attached files below it: only the body's commands run.
      ...(opts.commandShell ? { commandShellChars: text.length - attachedChars(opts.attachments) } : {}),
      ...(checkpoints ? { beforeWrite: checkpoints.beforeWrite, beforeCommand: checkpoints.beforeCommand } : {}),
      ...(budget ? { budget } : {}),
      ...(seat.active ? { spend: (run: { tokens: number; costUsd: number | undefined }) => seat.spend(run) } : {}),
    });
  }

  private steersOf(requestId: string): SteerSource {
    const f = this.inFlight;
    return f?.requestId === requestId ? f.steers : { take: () => [], pending: () => false };
  }

  private endAborted(requestId: string): void {
    this.ended = 'aborted';
    // Deltas received before Stop are still delivered; then only the terminal event.
    this.chat.flush();
    this.chat.stop(requestId);
    this.chat.emit(requestId, { type: 'aborted', partialSaved: true });
  }
}
