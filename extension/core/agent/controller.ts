// The chat controller: the current session, its mode and model, the snapshot the webview starts from,
// new chat and resume. Everything else is a part of its own, reached from here: requests
// (request-runner.ts), approvals and questions (approval-broker.ts), plans (plan-flow.ts), rewinds
// (rewind-flow.ts), the History list (history-list.ts) and "Compact now" (compact-now.ts).
// It knows nothing of VS Code: everything it needs comes in as ChatServices.
import type {
  Compaction,
  ContextBreakdown,
  GoalSpec,
  MemoryReply,
  Mode,
  PlanArtifact,
  ReasoningChoice,
  Report,
  ResearchScope,
  Snapshot,
} from '../../protocol';
import type { ApprovalDecision, AskAnswer, InterruptedSession, StoredSession } from '../ports';
import { sandboxView } from '../sandbox/view';
import { sniffImage } from '../tools/util/images';
import { ApprovalBroker } from './approval-broker';
import type { ChatServices } from './chat-services';
import { compactNow } from './compact-now';
import { contextBreakdown } from './context-breakdown';
import { CurrentChat } from './current-chat';
import { HistoryList } from './history-list';
import { CLOSING_SEQ, CONTINUE_TEXT, repairInterruptedTurn } from './interrupted-run';
import { liveSessionFromStored, newLiveSession, type LiveSession } from './live-session';
import { effectiveMode, modeAvailability } from './modes';
import { PlanFlow } from './plan-flow';
import type { SendOptions } from './request-runner';
import { OneWindowRunner } from './one-window-runner';
import { RewindFlow } from './rewind-flow';
import { GoalLoop } from './goal-loop';
import { modelRefFor } from './run-target';
import { acceptsImages } from '../providers/registry';
import { SessionHooks } from '../extensions/hooks/session-hooks';
import { SessionRewinder } from './rewind-session';

export type { ChatServices, ReasoningChoices } from './chat-services';
export type { SendOptions } from './request-runner';
export { HISTORY_PAGE } from './history-list';

export class ChatController {
  private readonly chat: CurrentChat;
  readonly approvals: ApprovalBroker;
  private readonly runner: OneWindowRunner;
  readonly plans: PlanFlow;
  readonly rewinds: RewindFlow;
  readonly history: HistoryList;
  readonly goals: GoalLoop;

  constructor(private readonly services: ChatServices) {
    this.chat = new CurrentChat(services, this.freshSession());
    this.approvals = services.approvals ?? new ApprovalBroker(services.host.log);
    const rewinder = new SessionRewinder({
      checkpoints: services.tools.checkpoints,
      persistence: services.history.persistence,
      journal: (r) => this.chat.journal(r),
      now: services.host.now,
      newId: services.host.newId,
    });
    this.runner = new OneWindowRunner(this.chat, services, this.approvals, rewinder);
    this.plans = new PlanFlow(this.chat, services, this.runner);
    this.rewinds = new RewindFlow(this.chat, services, this.runner, rewinder, () => this.postSnapshot());
    this.history = new HistoryList(this.chat, services);
    this.goals = new GoalLoop(this.chat, services, this.runner);
  }

  get sessionId(): string {
    return this.chat.session.id;
  }

  // ---- requests, approvals, compaction ---------------------------------------------------------

  send(requestId: string, text: string, mode: Mode, opts: SendOptions = {}): Promise<void> {
    // Continue after a goal paused at a cap goes on with the goal; any other message ends it (a new request).
    if (opts.budget?.continuing && this.goals.paused()) return this.goals.resume(requestId, text, opts);
    return this.runner.send(requestId, text, mode, opts);
  }

  /** `/goal`: works toward the goal, turn after turn, until its check passes or it is stopped (goal-loop.ts). */
  startGoal(requestId: string, goal: GoalSpec, mode: Mode, opts: SendOptions = {}): Promise<void> {
    return this.goals.start(requestId, goal, mode, opts);
  }

  /** The goal banner's Stop and `/goal clear`. */
  stopGoal(): Promise<void> {
    return this.goals.stop();
  }

  /** Whether the model a request in `mode` would run on takes images (checked before a send with images). */
  async imagesAccepted(mode: Mode): Promise<{ accepts: boolean; model: string }> {
    const ref = modelRefFor(this.services.models, this.chat.session.model, mode);
    const resolved = await this.services.models.resolveModel(ref);
    return { accepts: acceptsImages(resolved.config), model: ref };
  }

  /** A stored image for the view (a sent message's image, a screenshot); undefined when missing or damaged. */
  storedImage(sha256: string): { mediaType: string; dataBase64: string } | undefined {
    const bytes = this.services.history.persistence.images?.read(sha256);
    const type = bytes && sniffImage(bytes)?.mediaType;
    return bytes && type ? { mediaType: type, dataBase64: Buffer.from(bytes).toString('base64') } : undefined;
  }

  /** Steers the running request (its next step boundary); false when nothing runs. */
  steer(text: string): boolean {
    return this.runner.steer(text);
  }

  /**
   * Why a message cannot be sent in this chat now — another window runs its session (the host is told, to
   * offer it read-only or a new chat) — or undefined when it can.
   */
  runningElsewhere(): string | undefined {
    return this.runner.refusal();
  }

  /** Whether a request runs now (a message typed now is queued or steers it). */
  isRunning(): boolean {
    return this.runner.running !== undefined;
  }

  /** How the last request ended; queued messages go on only after `complete`. */
  lastEnd(): 'complete' | 'aborted' | 'error' | undefined {
    return this.runner.lastEnd;
  }

  /** Stops the in-flight request (if any, and if it matches) and waits until it has ended. */
  /** A notice from outside the agent (the history store cannot write), in the running or the next request. */
  notice(text: string): void {
    this.runner.notice(text);
  }

  abort(requestId?: string): Promise<void> {
    return this.runner.abort(requestId);
  }

  /** The user's Stop: a research run's first one ends it with a partial report; otherwise an abort. */
  stop(requestId?: string): Promise<void> {
    return this.runner.stop(requestId);
  }

  /** Stop on a sub-agent's card; false when no sub-agent runs under that call. */
  stopSubagent(callId: string): boolean {
    return this.services.subagents?.stops.stop(callId) ?? false;
  }

  retry(requestId: string): Promise<void> {
    return this.runner.retry(requestId);
  }

  approve(callId: string, decision: ApprovalDecision): void {
    this.approvals.approve(callId, decision);
  }

  answer(callId: string, answers: AskAnswer[]): void {
    this.approvals.answer(callId, answers);
  }

  /** The user's Keep or Drop on a memory card (the `remember` tool waits for it). */
  rememberReply(callId: string, reply: MemoryReply): void {
    this.approvals.rememberReply(callId, reply);
  }

  /** What fills the context window of the next request (the header's meter and /context). */
  contextBreakdown(): Promise<ContextBreakdown> {
    return contextBreakdown(this.chat.session, this.services, this.chat.session.mode);
  }

  compactNow(): Promise<Compaction | undefined> {
    return compactNow(this.chat, this.services, this.runner);
  }

  // ---- plans, rewinds, history (their own parts) ------------------------------------------------

  plan(planId: string): PlanArtifact | undefined {
    return this.plans.plan(planId);
  }

  reports(): Report[] {
    return this.plans.reports();
  }

  approvePlan(planId: string, requestId: string, editedText?: string, withGrant = false): Promise<boolean> {
    return this.plans.approve(planId, requestId, editedText, withGrant);
  }

  rejectPlan(planId: string): boolean {
    return this.plans.reject(planId);
  }

  rewindPreview(messageId: string) {
    return this.rewinds.preview(messageId);
  }

  rewind(messageId: string, scope: Parameters<RewindFlow['rewind']>[1], overwrite?: string[]) {
    return this.rewinds.rewind(messageId, scope, overwrite);
  }

  redoRewind(): Promise<string | undefined> {
    return this.rewinds.redo();
  }

  editResend(...args: Parameters<RewindFlow['editResend']>): Promise<void> {
    return this.rewinds.editResend(...args);
  }

  postHistory(query?: string, page?: Parameters<HistoryList['post']>[1]): Promise<void> {
    return this.history.post(query, page);
  }

  renameSession(sessionId: string, title: string): void {
    this.history.rename(sessionId, title);
  }

  async deleteSession(sessionId: string): Promise<void> {
    this.history.delete(sessionId);
    if (sessionId === this.chat.session.id) await this.newChat();
  }

  restoreSession(sessionId: string): void {
    this.history.restore(sessionId);
  }

  // ---- the session ------------------------------------------------------------------------------

  async snapshot(): Promise<Snapshot> {
    this.chat.flush();
    const s = this.chat.session;
    const requestId = this.runner.running;
    const inFlight = requestId === undefined ? undefined : s.chat.requests[requestId];
    const reasoning = this.services.models.reasoning;
    return {
      sessionId: s.id,
      title: s.title,
      mode: s.mode,
      model: s.model,
      models: await this.services.models.modelChoices(),
      modes: modeAvailability(this.chat.modeContext()),
      messages: s.chat.messages,
      todos: s.chat.todos,
      inFlightRequestId: inFlight ? requestId : undefined,
      inFlightAssistantMessageId: inFlight?.assistantMessageId,
      inFlightLastSeq: inFlight?.lastSeq,
      approvals: s.chat.approvals,
      questions: s.chat.questions,
      workspaceTrusted: this.services.host.trusted(),
      ...(this.services.research?.scope ? { researchScope: this.services.research.scope() } : {}),
      ...(this.goals.view() ? { goal: this.goals.view() } : {}),
      ...(s.redo ? { redo: { messageId: s.redo.userMessageId, summary: s.redo.summary } } : {}),
      ...(reasoning ? { reasoning: reasoning.all() } : {}),
      ...(this.services.tools.ports.sandbox
        ? { sandbox: sandboxView(this.services.tools.ports.sandbox.status()) }
        : {}),
      ...(this.services.tools.permissions
        ? { permissionMode: this.services.tools.permissions.policy().defaultMode }
        : {}),
    };
  }

  /** The "Research scope" picker: where the next research run (and an approved research plan) looks. */
  async setResearchScope(scope: ResearchScope): Promise<void> {
    this.services.research?.setScope?.(scope);
    await this.postSnapshot();
  }

  async postSnapshot(): Promise<void> {
    this.chat.post({ type: 'snapshot', snapshot: await this.snapshot() });
  }

  setMode(mode: Mode): void {
    this.chat.setMode(mode);
  }

  setModel(model: string): void {
    this.chat.setModel(model);
  }

  /** The model picker's reasoning option for one model; used from the next request on. */
  setReasoning(modelRef: string, choice: ReasoningChoice): void {
    this.services.models.reasoning?.set(modelRef, choice);
  }

  async newChat(): Promise<void> {
    await this.goals.stop();
    await this.runner.abort();
    const old = this.chat.session;
    this.sessionEnded(old, 'clear');
    this.chat.session = this.freshSession();
    this.chat.session.mode = old.mode;
    this.chat.session.model = old.model;
    this.services.tools.disposeSession(old.tools);
    this.services.host.onCurrentSessionChanged?.(undefined);
    await this.postSnapshot();
  }

  async resume(sessionId: string): Promise<boolean> {
    const stored = this.services.history.persistence.getSession(sessionId);
    if (!stored) return false;
    await this.goals.stop();
    await this.runner.abort();
    if (this.chat.session.id !== stored.id) this.sessionEnded(this.chat.session, 'other');
    this.services.tools.disposeSession(this.chat.session.tools);
    this.chat.session = this.fromStored(stored);
    // A session its window left mid-run opens with a valid history, whether the user continues or writes anew.
    const interrupted = this.interruptedRun();
    if (interrupted) this.closeInterrupted(interrupted);
    this.services.host.onCurrentSessionChanged?.(stored.id);
    await this.postSnapshot();
    return true;
  }

  /** The current session's model reference (`provider/model`), e.g. for web_fetch's default model. */
  currentModel(): string {
    return this.chat.session.model;
  }

  /** The text of the chat's last answer (a /review's findings, a pull request's summary); '' when none. */
  lastAnswerText(): string {
    const last = [...this.chat.session.chat.messages].reverse().find((m) => m.role === 'assistant');
    return last?.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('') ?? '';
  }

  /** The current session as history knows it; undefined while it is an empty new chat. */
  currentSessionRef(): { id: string; title: string } | undefined {
    const s = this.chat.session;
    return s.persisted ? { id: s.id, title: s.title } : undefined;
  }

  /**
   * Continue on an interrupted session (its window closed mid-run): opens it when it is not the current one,
   * makes its history valid (interrupted-run.ts) and runs CONTINUE_TEXT as request `requestId`. False when
   * the session is not interrupted (it ended, or runs in another open window).
   */
  async continueInterrupted(requestId: string, sessionId = this.chat.session.id): Promise<boolean> {
    if (sessionId !== this.chat.session.id && !(await this.resume(sessionId))) return false;
    const run = this.interruptedRun();
    if (!run) return false;
    this.closeInterrupted(run);
    await this.postSnapshot();
    await this.runner.send(requestId, CONTINUE_TEXT, this.chat.session.mode);
    return true;
  }

  /** The current session's interrupted run, if its window closed mid-run. */
  interruptedRun(): InterruptedSession | undefined {
    const id = this.chat.session.id;
    return this.services.history.persistence.interruptedSessions?.().find((s) => s.id === id);
  }

  /** Closes the interrupted answer (stopped) and completes the model history, in memory and in the journal. */
  private closeInterrupted(run: InterruptedSession): void {
    const s = this.chat.session;
    const at = this.services.host.now();
    const repair = repairInterruptedTurn(s, run.requestId);
    const open = repair.openAnswerId && s.chat.messages.find((m) => m.id === repair.openAnswerId);
    if (open) {
      open.status = 'stopped';
      const event = { type: 'aborted' as const, partialSaved: true };
      this.chat.journal({
        kind: 'events',
        sessionId: s.id,
        envelopes: [{ requestId: run.requestId, seq: CLOSING_SEQ, ts: at, event }],
        at,
      });
    }
    if (repair.history.length) {
      s.modelMessages.push(...repair.history);
      this.chat.journal({ kind: 'model_messages', sessionId: s.id, messages: repair.history, at });
    }
  }

  async dispose(): Promise<void> {
    // A request stopped because the window goes away stays marked running: the next start offers Continue.
    this.runner.windowClosing();
    await this.runner.abort();
    this.sessionEnded(this.chat.session, 'other');
    this.chat.dispose();
    this.services.tools.disposeSession(this.chat.session.tools);
  }

  /** SessionEnd hooks for a chat that had a turn: fire and forget (bounded by SESSION_END_TIMEOUT_MS). */
  private sessionEnded(session: LiveSession, reason: 'clear' | 'other'): void {
    if (!this.services.hooks || !session.persisted) return;
    void new SessionHooks(this.services.hooks, session.id).sessionEnd(reason);
  }

  private freshSession(): LiveSession {
    const { host, models, tools } = this.services;
    const id = host.newId();
    return newLiveSession(id, models.defaultModel(), host.now(), tools.createSession(id));
  }

  private fromStored(stored: StoredSession): LiveSession {
    const mode = effectiveMode(stored.mode, this.chat.modeContext());
    return liveSessionFromStored(stored, mode, this.services.tools.createSession(stored.id));
  }
}
