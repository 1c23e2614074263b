// One model step's tool calls. Each call goes through its phases (tool-phases.ts): validate → judge →
// propose → approve → execute → report. The step keeps their order (step-order.ts): cards and
// approvals are asked together — each edit its own card and diff, so several pending edits can be
// reviewed side by side — while executions keep call order: consecutive read-only calls in parallel,
// anything else alone. A writer whose file an earlier call of the step also writes proposes after that
// call is over, so its diff is made against the text that call leaves.
// The turn loop (turn.ts) calls `runToolCalls` once per step.
import type { ToolCallView } from '../../protocol';
import type { ModelMessage, ToolCall } from '../providers/types';
import type { AuditDecidedBy } from '../security/audit-log';
import { errorResult, type PreparedCall, type Proposal, type ToolContext, type ToolResult } from '../tools/types';
import { displaySubject } from '../tools/registry';
import type { AsyncQueue } from '../util/async-queue';
import { hookAllowRefusal, withHookDecision } from '../extensions/hooks/hook-permission';
import { hookBlockedResult, resultText, withPostToolFeedback } from '../extensions/hooks/tool-feedback';
import type { Judgement } from './permission-gate';
import { StepOrder } from './step-order';
import { judgeCall } from './permission-gate';
import {
  approve,
  auditCall,
  blockedResult,
  decidedByOf,
  execute,
  initialCard,
  judge,
  propose,
  proposeSet,
  report,
  SavedRules,
  STOPPED,
  validate,
  writeTarget,
} from './tool-phases';
import type { ToolRuntime, TurnEvent, TurnOptions } from './turn';

export { MAX_CALLS_PER_STEP } from './tool-phases';

interface StepCall {
  index: number;
  call: ToolCall;
  prepared: PreparedCall;
  view: ToolCallView;
}

interface Step {
  tools: ToolRuntime;
  opts: TurnOptions;
  queue: AsyncQueue<TurnEvent>;
  order: StepOrder;
  rules: SavedRules;
  /** Where a model call the tool made is counted. */
  onSpent: (spent: NonNullable<ToolResult['spent']>) => void;
  /** A hook said `continue: false`: the turn ends after this step. */
  halt: (reason: string) => void;
}

export async function runToolCalls(
  calls: ToolCall[],
  stepNumber: number,
  tools: ToolRuntime,
  opts: TurnOptions,
  queue: AsyncQueue<TurnEvent>,
  onSpent: (spent: NonNullable<ToolResult['spent']>) => void,
  halt: (reason: string) => void = () => undefined,
): Promise<ModelMessage[]> {
  const stepCalls: StepCall[] = calls.map((call, index) => {
    const prepared = validate(call, index, tools);
    // Cards, approvals and answers are keyed by an id of our own: providers' ids need only be unique
    // within one response, and some OpenAI-compatible servers number them from 0 on every step.
    const view = initialCard(call, `${call.id}#${stepNumber}.${index}`, prepared, opts.ports);
    return { index, call, prepared, view };
  });
  for (const { view } of stepCalls) queue.push({ type: 'tool_started', call: view });
  const targets = await Promise.all(stepCalls.map(({ prepared }) => writeTarget(prepared, opts.ports)));
  const isRead = stepCalls.map(({ prepared }) => !prepared.tool || prepared.tool.kind === 'read');
  const step: Step = {
    tools,
    opts,
    queue,
    order: new StepOrder(isRead, targets),
    rules: new SavedRules(),
    onSpent,
    halt,
  };
  return Promise.all(
    stepCalls.map((c) =>
      runCall(c, step).finally(() => {
        step.order.finished(c.index);
      }),
    ),
  );
}

/** One call through its phases; every way out reports the card and the message for the model. */
async function runCall(c: StepCall, step: Step): Promise<ModelMessage> {
  const { opts, queue, order } = step;
  const { call, view, index } = c;
  let prepared = c.prepared;
  const startedAt = opts.now();
  // The card as shown: hooks' notes are added to it once they ran.
  let shown = view;
  const done = (status: ToolCallView['status'], result: ToolResult, from = startedAt) => {
    const timing = { startedAt: from, now: opts.now() };
    const { card, message } = report(call, shown, status, result, timing, opts.images);
    queue.push(card);
    return message;
  };
  if (opts.signal.aborted) return done('aborted', errorResult(STOPPED));
  // An unknown tool or invalid arguments: nothing runs, so there is nothing to approve.
  if (!prepared.ok) return done('error', errorResult(prepared.error));
  const { tool } = prepared;
  let input = prepared.input;
  if (order.sharesFile(index)) {
    order.cardShown(index); // its card comes once the earlier change to its file is over; the next need not wait
    await order.sameFileDone(index);
  }
  if (opts.signal.aborted) return done('aborted', errorResult(STOPPED));
  const ctx = toolContext(opts, view, queue);
  let policyJudged = await judge(opts, tool, input);
  // PreToolUse hooks: a deny is final, an ask asks, an allow skips only a default ask (hook-permission.ts).
  const pre =
    opts.hooks && policyJudged.decision !== 'deny'
      ? await opts.hooks.preToolUse(tool.name, input, view.callId, opts.signal)
      : undefined;
  const noBox = hookAllowRefusal(tool.name, opts.ports.sandbox?.status());
  const adjust = (j: Judgement) => (pre ? withHookDecision(j, pre, noBox) : j);
  if (pre?.notes.length) shown = { ...view, hooks: [...pre.notes] };
  if (pre?.updatedInput && pre.permission !== 'deny' && !pre.block) {
    // A hook's rewrite is the model's call made anew: validated by the tool's schema, judged again.
    const again = rewrittenCall(call, pre.updatedInput, step.tools, tool.name);
    if (!again.ok) {
      queue.push({ type: 'tool_updated', call: shown });
      return done('error', errorResult(again.error));
    }
    prepared = again;
    input = again.input;
    shown = { ...shown, subject: displaySubject(again, opts.ports) };
    policyJudged = await judge(opts, tool, input);
  }
  let judged = adjust(policyJudged);
  if (judged.review) shown = { ...shown, review: judged.review };
  if (pre?.notes.length || pre?.updatedInput || judged.review) queue.push({ type: 'tool_updated', call: shown });
  if (pre?.halt) step.halt(pre.stopReason ?? 'a PreToolUse hook stopped the agent');
  let audit = auditCall(opts, shown, tool, input, judged);
  let decidedBy: AuditDecidedBy = decidedByOf(judged);
  if (opts.signal.aborted) return done('aborted', errorResult(STOPPED));
  const refused = () => {
    audit('denied', decidedBy, 0);
    return done('denied', judged.source === 'hook' ? hookBlockedResult(judged) : blockedResult(judged));
  };
  if (judged.decision === 'deny') return refused();
  let change: { ok: true; change?: Proposal } | { ok: false; result: ToolResult } | undefined;
  let editedText: string | undefined;
  let editedTexts: Record<string, string> | undefined;
  // A writer of several files (rename) is judged again once its change names them: every file as a write.
  let judgedInput = input;
  if (tool.proposeChanges) {
    const set = await proposeSet(tool, input, ctx);
    if (!set.ok) {
      audit('error', decidedBy, 0);
      return done('error', set.result);
    }
    change = set;
    judgedInput = set.change.judgedInput;
    judged = adjust(await judge(opts, tool, judgedInput));
    decidedBy = decidedByOf(judged);
    audit = auditCall(opts, shown, tool, judgedInput, judged);
    if (judged.decision === 'deny') return refused();
  }
  if (judged.decision === 'ask') {
    change ??= await propose(tool, input, ctx);
    if (!change.ok) {
      audit('error', decidedBy, 0);
      return done('error', change.result);
    }
    const answer = await approve({
      opts,
      tool,
      input: judgedInput,
      prepared,
      ctx,
      view: shown,
      judged,
      adjust,
      change: change.change,
      rules: step.rules,
      push: (e) => queue.push(e),
      turn: order.cardTurn(index),
      shown: () => order.cardShown(index),
    });
    if (answer.kind !== 'aborted' && answer.hookNotes)
      shown = { ...shown, hooks: [...(shown.hooks ?? []), ...answer.hookNotes] };
    if (answer.kind === 'aborted') {
      audit('aborted', 'user', 0);
      return done('aborted', errorResult(STOPPED));
    }
    if (answer.kind === 'denied') {
      audit('denied', 'user', 0);
      return done('denied', answer.result);
    }
    decidedBy = answer.decidedBy;
    editedText = answer.editedText;
    editedTexts = answer.editedTexts;
  }
  order.cardShown(index);
  await order.runTurn(index);
  if (opts.signal.aborted) {
    audit('aborted', decidedBy, 0);
    return done('aborted', errorResult(STOPPED));
  }
  const runStartedAt = opts.now();
  queue.push({ type: 'tool_updated', call: { ...shown, status: 'running', startedAt: runStartedAt } });
  const reviewed = change?.ok ? change.change : undefined;
  ctx.decidedBy = decidedBy;
  let result = await execute(prepared, reviewed, editedText, step.tools, ctx, editedTexts);
  if (result.spent) step.onSpent(result.spent);
  const status = opts.signal.aborted ? 'aborted' : result.isError ? 'error' : 'ok';
  if (status === 'ok' && opts.hooks) {
    const post = await opts.hooks.postToolUse(tool.name, input, resultText(result), view.callId, opts.signal);
    if (post.notes.length) shown = { ...shown, hooks: [...(shown.hooks ?? []), ...post.notes] };
    result = withPostToolFeedback(result, post);
    if (post.halt) step.halt(post.stopReason ?? 'a PostToolUse hook stopped the agent');
  }
  audit(status, decidedBy, opts.now() - runStartedAt);
  return done(status, result, runStartedAt);
}

/** A PreToolUse hook's rewritten input through the tool's own validation (same tool, never another). */
function rewrittenCall(
  call: ToolCall,
  updated: Record<string, unknown>,
  tools: ToolRuntime,
  name: string,
): Extract<PreparedCall, { ok: true }> | { ok: false; error: string } {
  const again = tools.prepare({ ...call, name, argumentsJson: JSON.stringify(updated) });
  if (again.ok && again.tool.name === name) return again;
  const why = again.ok ? 'another tool' : again.error;
  return { ok: false, error: `Not run: a PreToolUse hook rewrote the input, and the rewrite is not valid: ${why}` };
}

function toolContext(opts: TurnOptions, view: ToolCallView, queue: AsyncQueue<TurnEvent>): ToolContext {
  return {
    signal: opts.signal,
    ports: opts.ports,
    session: opts.toolSession,
    callId: view.callId,
    supportsImages: opts.supportsImages,
    // A file another file's result points at (a definition in a library) is shown only where read_file could read it.
    mayRead: async (abs) =>
      (
        await judgeCall(
          opts.permissions,
          { tool: 'read_file', kind: 'read', input: { file_path: abs } },
          opts.ports.workspace,
        )
      ).decision === 'allow',
    readDenied: async (abs) => {
      const d = await judgeCall(
        opts.permissions,
        { tool: 'read_file', kind: 'read', input: { file_path: abs } },
        opts.ports.workspace,
      );
      return d.decision === 'deny' ? d.reason : undefined;
    },
    ...(opts.beforeWrite ? { beforeWrite: opts.beforeWrite } : {}),
    ...(opts.beforeCommand ? { beforeCommand: opts.beforeCommand } : {}),
    progress: (output) => queue.push({ type: 'tool_progress', callId: view.callId, output }),
    todosChanged: (todos) => queue.push({ type: 'todos', todos }),
    subagentUpdated: (subagent) => queue.push({ type: 'subagent_updated', callId: view.callId, subagent }),
    planSubmitted: (plan) =>
      queue.push({
        type: 'plan_proposed',
        plan: { ...plan, kind: 'change', id: opts.newId?.() ?? `plan-${view.callId}`, status: 'proposed' },
      }),
  };
}
