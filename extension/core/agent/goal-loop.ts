// `/goal` (Claude Code's and Codex's): keeps the session working, turn after turn, until a check the user can
// read passes. Each attempt is an ordinary request of the session (its budget, step cap, approvals and Stop as
// any other); the check runs inside it after the turn (goal-check.ts) and is said in the answer as a notice
// ("Goal check 2: failed (exit 1) — …"). A failed check's output becomes the next attempt's message, labelled
// as the goal loop's, not the user's. The loop ends when the check passes, at sextant.goal.maxAttempts, on
// Stop (the banner's, the composer's, `/goal clear`, or a new message of the user's), on an error, or — paused,
// with Continue going on with the goal — at a spending cap or the step limit.
import type { GoalSpec, GoalView, Mode } from '../../protocol';
import type { ModelMessage } from '../providers/types';
import type { ChatServices } from './chat-services';
import type { CurrentChat } from './current-chat';
import { admitCheckCommand, type CheckResult, judgeCondition, lastLines, runCheckCommand } from './goal-check';
import type { RequestRunner } from './request-runner';
import type { AroundTurn, SendOptions } from './send-options';
import { commandModelRef } from './subagent-model';
import { modelRefFor } from './run-target';
import type { TurnEvent } from './turn';

export const DEFAULT_GOAL_MAX_ATTEMPTS = 10;
export const GOAL_MAX_ATTEMPTS_SETTING = 'sextant.goal.maxAttempts';

interface Goal {
  spec: GoalSpec;
  mode: Mode;
  attempt: number;
  maxAttempts: number;
  status: GoalView['status'];
  last?: string;
  /** The check command may run (allowed, or approved at the start); a judged goal needs nothing. */
  admitted: boolean;
  /** Why the goal could not start (its check command refused or denied). */
  refused?: string;
  requestId?: string;
  stopped: boolean;
}

export class GoalLoop {
  private goal: Goal | undefined;

  constructor(
    private readonly chat: CurrentChat,
    private readonly services: ChatServices,
    private readonly runner: RequestRunner,
  ) {}

  /** The banner's state; undefined when the session has had no goal. */
  view(): GoalView | undefined {
    const g = this.goal;
    if (!g) return undefined;
    const { spec, attempt, maxAttempts, status, last } = g;
    return {
      condition: spec.condition,
      ...(spec.check.kind === 'command' ? { command: spec.check.command } : {}),
      attempt,
      maxAttempts,
      status,
      ...(last ? { last } : {}),
    };
  }

  /** A goal paused at a spending cap or the step limit: Continue goes on with it. */
  paused(): boolean {
    return this.goal?.status === 'paused';
  }

  /** Sets the goal (a running one is stopped first) and works toward it until it ends. */
  async start(requestId: string, spec: GoalSpec, mode: Mode, opts: SendOptions = {}): Promise<void> {
    await this.stop();
    const limit = this.services.limits.goalMaxAttempts?.();
    const maxAttempts = limit && Number.isInteger(limit) && limit > 0 ? limit : DEFAULT_GOAL_MAX_ATTEMPTS;
    const admitted = spec.check.kind === 'judge';
    this.goal = { spec, mode, attempt: 0, maxAttempts, status: 'running', admitted, stopped: false };
    await this.drive(this.goal, requestId, briefOf(spec), opts);
  }

  /** Continue after a pause: the goal goes on from the next attempt (past the cap for that run, as Continue does). */
  async resume(requestId: string, text: string, opts: SendOptions): Promise<void> {
    const g = this.goal;
    if (g?.status !== 'paused') return;
    g.maxAttempts = Math.max(g.maxAttempts, g.attempt + 1);
    await this.drive(g, requestId, text, opts);
  }

  /** Ends the goal; its running turn (or check) stops. */
  async stop(): Promise<void> {
    const g = this.goal;
    if (!g || (g.status !== 'running' && g.status !== 'checking' && g.status !== 'paused')) return;
    g.stopped = true;
    this.set(g, 'stopped', 'stopped by you');
    if (g.requestId && this.runner.running === g.requestId) await this.runner.abort(g.requestId);
  }

  private async drive(g: Goal, firstRequestId: string, firstText: string, firstOpts: SendOptions): Promise<void> {
    let requestId = firstRequestId;
    let text = firstText;
    let opts: SendOptions = firstOpts;
    for (;;) {
      g.attempt++;
      g.requestId = requestId;
      this.set(g, 'running');
      let result: CheckResult | undefined;
      const around = (turn: AsyncGenerator<TurnEvent>, ctx: AroundTurn) =>
        this.around(g, turn, ctx, (r) => {
          result = r;
        });
      await this.runner.send(requestId, text, g.mode, { ...opts, around });
      if (g.stopped) return;
      const end = this.runner.lastEnd;
      const pause = this.runner.lastPause;
      if (end !== 'complete') return this.set(g, end === 'error' ? 'failed' : 'stopped', `the turn ended: ${end}`);
      if (g.refused) return this.set(g, 'failed', g.refused);
      if (pause) return this.set(g, 'paused', pause === 'budget' ? 'paused at the budget' : 'paused at the step limit');
      if (!result) return this.set(g, 'stopped', 'no check ran');
      const r: CheckResult = result;
      if (r.passed) return this.set(g, 'passed', r.summary);
      if (g.attempt >= g.maxAttempts)
        return this.set(g, 'failed', `${g.maxAttempts} attempts, and the check still fails`);
      requestId = `${firstRequestId}-goal-${g.attempt + 1}`;
      text = nextAttemptText(g, r);
      opts = { origin: 'goal' };
    }
  }

  /** Inside one attempt's request: the check admitted before its turn (once), run after it. */
  private async *around(
    g: Goal,
    turn: AsyncGenerator<TurnEvent>,
    ctx: AroundTurn,
    done: (r: CheckResult) => void,
  ): AsyncGenerator<TurnEvent> {
    const { tools } = this.services;
    const check = g.spec.check;
    const deps = {
      ...(tools.permissions ? { permissions: tools.permissions } : {}),
      ports: { ...tools.ports, ...ctx.asking },
      session: this.chat.session.tools,
      newId: this.services.host.newId,
    };
    if (check.kind === 'command' && !g.admitted) {
      const why = await admitCheckCommand(check.command, g.mode, deps, ctx.signal);
      if (ctx.signal.aborted) return;
      if (why) {
        g.refused = `its check \`${check.command}\` cannot run: ${why}`;
        yield { type: 'notice', kind: 'goal', text: `The goal does not start: ${g.refused}.` };
        return;
      }
      g.admitted = true;
    }
    yield* turn;
    if (ctx.signal.aborted || ctx.paused() || g.stopped) return;
    this.set(g, 'checking');
    const r =
      check.kind === 'command'
        ? await runCheckCommand(check.command, deps, ctx.signal)
        : await this.judge(g.spec.condition, ctx.signal);
    if (ctx.signal.aborted) return;
    done(r);
    const said = check.kind === 'command' ? lastLines(r.detail) : r.detail;
    const capped =
      !r.passed && g.attempt >= g.maxAttempts
        ? ` The goal stops here: ${g.maxAttempts} attempts (${GOAL_MAX_ATTEMPTS_SETTING}).`
        : '';
    const why = said && (!r.passed || check.kind === 'judge') ? ` — ${said}` : '';
    yield {
      type: 'goal_check',
      attempt: g.attempt,
      maxAttempts: g.maxAttempts,
      passed: r.passed,
      text: `Goal check ${g.attempt}: ${r.summary}${why}.${capped}`,
    };
  }

  /** The small model's verdict (a configured Haiku, else the chat's model) on the last turn. */
  private async judge(condition: string, signal: AbortSignal): Promise<CheckResult> {
    const { models } = this.services;
    const chatRef = modelRefFor(models, this.chat.session.model, 'chat');
    const ref = await commandModelRef('haiku', chatRef, () => models.modelChoices(), []);
    const { provider, model } = await models.resolveModel(ref);
    return judgeCondition({ provider, model }, condition, lastTurnTranscript(this.chat.session.modelMessages), signal);
  }

  private set(g: Goal, status: GoalView['status'], last?: string): void {
    g.status = status;
    if (last !== undefined) g.last = last;
    if (this.goal === g) this.services.host.post({ type: 'goal', goal: this.view() ?? null });
  }
}

/** The first attempt's message: the condition is the work order. */
function briefOf(spec: GoalSpec): string {
  const how =
    spec.check.kind === 'command'
      ? `After each of your turns the command \`${spec.check.command}\` runs; the goal is met when it exits with 0.`
      : 'After each of your turns a separate reviewer judges from what you did and said whether it is met.';
  return `Goal: ${spec.condition}\n\nWork toward this goal. ${how}`;
}

/** A failed check, as the next attempt's message (the goal loop's, not the user's). */
function nextAttemptText(g: Goal, r: CheckResult): string {
  const head = `[Goal loop — attempt ${g.attempt + 1} of ${g.maxAttempts}] The goal's check did not pass.`;
  const check =
    g.spec.check.kind === 'command'
      ? `Check: \`${g.spec.check.command}\` → ${r.summary}\n\nIts output:\n\`\`\`\n${r.detail}\n\`\`\``
      : `The reviewer says: ${r.detail}`;
  const next = 'Keep working toward the goal; the check runs again after this turn.';
  return `${head}\n\nGoal: ${g.spec.condition}\n\n${check}\n\n${next}`;
}

/** What the judge reads: the model history of the last turn (from the last user message on). */
function lastTurnTranscript(messages: readonly ModelMessage[]): string {
  let from = messages.length - 1;
  while (from > 0 && messages[from]?.role !== 'user') from--;
  const lines: string[] = [];
  for (const m of messages.slice(from + 1)) {
    if (m.role === 'assistant') {
      if (m.text) lines.push(`Agent: ${m.text}`);
      for (const c of m.toolCalls ?? []) lines.push(`Agent calls ${c.name} ${c.argumentsJson}`);
    } else if (m.role === 'tool') {
      const text = m.content.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('');
      lines.push(`${m.toolName} result${m.isError ? ' (error)' : ''}: ${text}`);
    }
  }
  return lines.join('\n');
}
