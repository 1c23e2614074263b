// The turn loop: model call → tool calls → model call … until the model answers
// without tools, the step budget runs out, or the user aborts. It owns no UI and no storage:
// it yields events; the session controller persists and forwards them.
import type { SessionWriteGuard } from '../sessions/session-writes';
import type { RequestEvent, Usage } from '../../protocol';
import type { ImageStorage, ToolPorts } from '../ports';
import type {
  ModelMessage,
  Provider,
  ProviderConfig,
  ReasoningEffort,
  ThinkingBlock,
  ToolCall,
  ToolSpec,
} from '../providers/types';
import { failoverText } from '../providers/failover';
import type { PreparedCall, ToolContext, ToolResult, ToolSessionState } from '../tools/types';
import type { AuditEntry } from '../security/audit-log';
import { AsyncQueue } from '../util/async-queue';
import { RunningCost } from '../usage/running-cost';
import { addUsage, budgetReached, budgetStopText, type RunBudget, unpricedCapNotice } from '../usage/budget';
import type { SessionHooks } from '../extensions/hooks/session-hooks';
import { spokenNotes } from '../extensions/hooks/hook-output';
import type { PermissionGate } from './permission-gate';
import { type SteerSource, steerNotice } from './steering';
import { runToolCalls } from './tool-step';
import type { AutoReviewer } from './auto-review/auto-reviewer';
import { addReviewSpent } from './auto-review/review-usage';
import { markFirstRequest } from '../util/first-request-trace';

/** What the loop needs from the tool registry. */
export interface ToolRuntime {
  specs(): ToolSpec[];
  /** Resolves the tool and parses the arguments; done once per call, before cards and approval. */
  prepare(call: ToolCall): PreparedCall;
  /** Runs a prepared call; an invalid one becomes its error result. */
  execute(call: PreparedCall, ctx: ToolContext): Promise<ToolResult>;
}

export type TurnEvent =
  | Exclude<RequestEvent, { type: 'started' | 'complete' | 'aborted' | 'error' }>
  /** Messages to append to the model-facing history, in order. */
  | { type: 'history'; messages: ModelMessage[] }
  /** The user's message as this turn sends it (hooks' context added): what the history records for it. */
  | { type: 'prompt'; message: ModelMessage };

export type TurnOutcome =
  | { kind: 'done' }
  | { kind: 'max_steps'; steps: number }
  | { kind: 'budget'; steps: number }
  | { kind: 'aborted' };

export interface TurnOptions {
  sessionId: string;
  provider: Provider;
  model: string;
  system: string;
  price?: ProviderConfig['price'];
  tools?: ToolRuntime;
  toolSession: ToolSessionState;
  ports: ToolPorts;
  maxSteps: number;
  supportsImages: boolean;
  /** Where the images tool cards show are stored (absent: cards show no images). */
  images?: ImageStorage;
  signal: AbortSignal;
  now(): number;
  /** Decides, per call, whether it runs, asks or is refused; without it reads run and the rest asks. */
  permissions?: PermissionGate;
  /** Receives one entry per tool call that got as far as a decision (the audit log). */
  audit?: (entry: AuditEntry) => void;
  /** Ids for plan cards (submit_plan); without it they are derived from the call's id. */
  newId?: () => string;
  /** Called by every writer before it changes a file (the turn's checkpoint recorder). */
  beforeWrite?: (absPath: string) => Promise<void>;
  /** What other running sessions of the window changed: their files ask before this session writes them. */
  writeGuard?: SessionWriteGuard;
  /** Called by every tool that runs a command, before it starts; the result once it ended (the recorder). */
  beforeCommand?: () => Promise<() => Promise<unknown>>;
  /** Spending caps, checked between model calls (sextant.budget.*). */
  budget?: RunBudget;
  /** The model picker's reasoning level for this model, the same for every step of the turn. */
  reasoning?: ReasoningEffort;
  /**
   * Between model calls: may compact the history when the next prompt nears the context window (a long
   * agent run grows it step by step). Returns the history the next call gets and the events to show.
   */
  compactBetweenSteps?: () => Promise<{ messages?: ModelMessage[]; events: TurnEvent[] } | undefined>;
  /** The session's hooks (PreToolUse, PostToolUse, Stop, Notification); without them none run. */
  hooks?: SessionHooks;
  /** Messages the user steers the running turn with, delivered before the next model call. */
  steers?: SteerSource;
  /** Auto mode's reviewer for this turn (absent: nothing is reviewed; the default question asks). */
  autoReview?: AutoReviewer;
}

/** How often a Stop hook may send a turn on ("decision": "block") before the turn ends anyway. */
export const MAX_STOP_HOOK_CONTINUES = 3;

export { MAX_CALLS_PER_STEP } from './tool-step';

export async function* runTurn(
  history: readonly ModelMessage[],
  opts: TurnOptions,
): AsyncGenerator<TurnEvent, TurnOutcome> {
  const messages: ModelMessage[] = [...history];
  const total: Usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
  const cost = new RunningCost(opts.price); // repriced when a fallback model takes over
  total.costUsd = cost.of(total); // 0 when the price is known: a session cap can stop the first call
  const specs = opts.tools?.specs() ?? [];
  const unpriced = opts.budget && unpricedCapNotice(opts.budget.limits, Boolean(opts.price), opts.model);
  if (unpriced) yield { type: 'notice', kind: 'budget', text: unpriced };
  let lastStep: Usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
  let stopContinues = 0;
  let halted: string | undefined;
  for (let step = 1; ; step++) {
    // Before each model call: a cap reached (or passed by one more call like the last) ends the run here,
    // with everything done so far kept. Before the first call only the session's spending can stop it.
    if (step > 1 && opts.compactBetweenSteps) {
      const compacted = await opts.compactBetweenSteps();
      if (opts.signal.aborted) return { kind: 'aborted' };
      if (compacted?.messages) messages.splice(0, messages.length, ...compacted.messages);
      for (const ev of compacted?.events ?? []) yield ev;
    }
    // Steering: what the user sent meanwhile goes in now, at the step boundary, as their own message.
    const steered = opts.steers?.take() ?? [];
    if (steered.length) {
      const said: ModelMessage[] = steered.map((text) => ({ role: 'user', content: text }));
      messages.push(...said);
      yield { type: 'history', messages: said };
      for (const text of steered) yield { type: 'notice', kind: 'steer', text: steerNotice(text) };
    }
    const stop = budgetReached(opts.budget, total, lastStep);
    if (stop) {
      yield { type: 'budget_stop', stop, text: budgetStopText(stop) };
      return { kind: 'budget', steps: step - 1 };
    }
    const stepUsage: Usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
    let text = '';
    let thinking = '';
    let thinkingSignature: string | undefined;
    // Each reasoning block as it came (a signature closes one), so it can be replayed unmodified.
    const thinkingBlocks: ThinkingBlock[] = [];
    let openBlock: Extract<ThinkingBlock, { type: 'thinking' }> | undefined;
    const toolCalls: ToolCall[] = [];
    markFirstRequest('turn set up');
    try {
      const stream = opts.provider.stream(
        {
          model: opts.model,
          system: opts.system,
          messages,
          tools: specs.length ? specs : undefined,
          ...(opts.reasoning ? { reasoning: opts.reasoning } : {}),
        },
        opts.signal,
      );
      for await (const ev of stream) {
        if (ev.type === 'text') {
          text += ev.text;
          yield { type: 'text_delta', text: ev.text };
        } else if (ev.type === 'thinking') {
          if (ev.redacted !== undefined) {
            openBlock = undefined;
            thinkingBlocks.push({ type: 'redacted', data: ev.redacted });
            continue;
          }
          thinking += ev.text;
          if (!openBlock) {
            openBlock = { type: 'thinking', text: '' };
            thinkingBlocks.push(openBlock);
          }
          openBlock.text += ev.text;
          if (ev.signature) {
            thinkingSignature = ev.signature;
            openBlock.signature = ev.signature;
            openBlock = undefined;
          }
          if (ev.text) yield { type: 'thinking_delta', text: ev.text };
        } else if (ev.type === 'tool_call') {
          toolCalls.push(ev.call);
        } else if (ev.type === 'usage') {
          addUsage(total, ev.usage);
          addUsage(stepUsage, ev.usage);
          total.costUsd = cost.of(total);
          yield { type: 'usage', usage: { ...total } };
        } else if (ev.type === 'failover') {
          cost.reprice(total, ev.price);
          const { from, to, reason } = ev;
          yield { type: 'failover', from, to, reason, text: failoverText(from, to, reason) };
        }
      }
    } catch (err) {
      if (!opts.signal.aborted) throw err;
    }
    const assistant: ModelMessage = {
      role: 'assistant',
      text,
      ...(thinking ? { thinking, thinkingSignature } : {}),
      // Kept when they say more than `thinking` does: several blocks, or a redacted one.
      ...(thinkingBlocks.length > 1 || thinkingBlocks.some((b) => b.type === 'redacted') ? { thinkingBlocks } : {}),
      ...(toolCalls.length && !opts.signal.aborted ? { toolCalls } : {}),
    };
    // A partial answer stays in the history so the next turn knows what the user saw.
    if (text || thinking || thinkingBlocks.length || assistant.toolCalls) {
      messages.push(assistant);
      yield { type: 'history', messages: [assistant] };
    }
    if (opts.signal.aborted) return { kind: 'aborted' };
    if (!toolCalls.length || !opts.tools) {
      // A steer that came while the model answered: the turn goes on to deliver it.
      if (opts.steers?.pending()) continue;
      // Stop hooks may send the turn on with their reason as the next message (Claude Code's Stop block).
      const stopHook = await opts.hooks?.stop(stopContinues > 0, opts.signal);
      if (opts.signal.aborted) return { kind: 'aborted' };
      for (const note of stopHook ? spokenNotes(stopHook) : []) yield { type: 'notice', text: note };
      if (!stopHook?.block || stopHook.halt || stopContinues >= MAX_STOP_HOOK_CONTINUES) return { kind: 'done' };
      stopContinues++;
      const feedback: ModelMessage = {
        role: 'user',
        content: `Stop hook feedback: ${stopHook.reason ?? 'a Stop hook asks you to go on'}`,
      };
      messages.push(feedback);
      yield { type: 'history', messages: [feedback] };
      continue;
    }

    const queue = new AsyncQueue<TurnEvent>();
    let settled = false;
    // Model calls the tools made (web_fetch's page answers), each already priced at its own model.
    const spentByTools: Array<NonNullable<ToolResult['spent']>> = [];
    const work = runToolCalls(
      toolCalls,
      step,
      opts.tools,
      opts,
      queue,
      (s) => spentByTools.push(s),
      (reason) => {
        halted ??= reason;
      },
    ).finally(() => {
      settled = true;
    });
    let planned = false;
    const drain = function* () {
      for (const ev of queue.drain()) {
        if (ev.type === 'plan_proposed') planned = true;
        yield ev;
      }
    };
    while (!settled) {
      await queue.waitFor(work);
      yield* drain();
    }
    const results = await work;
    yield* drain();
    // The reviewer's calls count in the run's cost and caps like the tools' own, and are kept apart too.
    const reviews = opts.autoReview?.takeSpent() ?? [];
    if (spentByTools.length || reviews.length) {
      for (const s of [...spentByTools, ...reviews]) cost.addPriced(total, s.usage, s.costUsd);
      for (const s of reviews) addReviewSpent(total, s);
      total.costUsd = cost.of(total);
      yield { type: 'usage', usage: { ...total, ...(total.review ? { review: { ...total.review } } : {}) } };
    }
    messages.push(...results);
    yield { type: 'history', messages: results };
    if (opts.signal.aborted) return { kind: 'aborted' };
    // A submitted plan ends the turn: the next move is the user's (Approve, Edit or Reject).
    if (planned) return { kind: 'done' };
    if (halted) {
      yield { type: 'notice', text: `A hook stopped the agent: ${halted}` };
      return { kind: 'done' };
    }
    lastStep = { ...stepUsage, costUsd: cost.ofStep(stepUsage) };
    if (step >= opts.maxSteps) {
      // A long run must never just end: the answer offers Continue, which grants another batch of steps.
      yield {
        type: 'notice',
        kind: 'step_limit',
        text:
          `Paused after ${step} model calls (sextant.agent.maxSteps). Continue to go on with another ` +
          `${opts.maxSteps}, or raise the limit.`,
      };
      return { kind: 'max_steps', steps: step };
    }
  }
}
