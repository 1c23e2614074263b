// One sub-agent's run: the turn loop (turn.ts) with a context of its own — its definition's prompt,
// the parent's rules files and the task's prompt, never the parent's history —, the tools
// subagent-tools.ts leaves it, the parent's permission gate, box, approvals (marked with its name) and
// audit log, and caps of its own (steps, dollars) inside the run's and session's budgets. Its events
// become its card (SubagentView); its last answer, with the files it read and changed, is the result.
import * as path from 'node:path';
import type { SubagentStep, SubagentView, Usage } from '../../protocol';
import type { AgentDefinition } from '../extensions/agent-definitions';
import type { ToolPorts } from '../ports';
import type { AuditEntry } from '../security/audit-log';
import type { TelemetryScope } from '../telemetry/telemetry-sink';
import type { ToolResult, ToolSessionState } from '../tools/types';
import { type BudgetLimits, type RunBudget, tokensOf } from '../usage/budget';
import type { ResearchHost } from '../research/host';
import type { SessionHooks } from '../extensions/hooks/session-hooks';
import type { PermissionGate } from './permission-gate';
import { runResearchSubagent } from './subagent-research';
import { type FileLocks, restrictTools, type ConcurrencyGate } from './subagent-tools';
import type { Target } from './run-target';
import { runTurn, type ToolRuntime, type TurnOptions } from './turn';

/** Steps and text kept on a card (and in the store): the transcript, capped. */
const MAX_STEPS_SHOWN = 200;
const MAX_TEXT_STEP = 4_000;
/** A text step is sent to the view at most this often while it streams (tool steps at once). */
const TEXT_EMIT_MS = 150;

export interface SubagentLimits {
  /** sextant.agents.maxSteps: model calls one sub-agent may make. */
  maxSteps(): number;
  /** sextant.agents.maxCostUsd: dollars one sub-agent may spend (undefined: no cap of its own). */
  maxCostUsd(): number | undefined;
  /** sextant.agents.maxConcurrent. */
  maxConcurrent(): number;
}

/** What one request's sub-agents share: the parent's turn, its caps, the concurrency gate and file turns. */
export interface SubagentScope {
  definitions: readonly AgentDefinition[];
  /** The parent mode's tools (the ceiling of every sub-agent's). */
  parentTools: ToolRuntime;
  parentTarget: Target;
  /** A definition's `model` (a Sextant reference or a Claude Code alias); `note` says what it was read as. */
  resolveModel(ref: string): Promise<Target & { note?: string }>;
  /** The parent's rules files, as its system prompt has them ('' when none). */
  rulesSection: string;
  sessionId: string;
  ports: ToolPorts;
  permissions?: PermissionGate;
  audit?: (entry: AuditEntry) => void;
  /** Where the request's telemetry goes (subagent-telemetry.ts); absent or inactive: nowhere. */
  telemetry?: TelemetryScope;
  now(): number;
  newId?: () => string;
  beforeWrite?: (absPath: string) => Promise<void>;
  beforeCommand?: () => Promise<() => Promise<unknown>>;
  createSession(id: string): ToolSessionState;
  disposeSession(state: ToolSessionState): void;
  limits: SubagentLimits;
  /** The run's caps; the parent's spending so far is read live from `parentSpent`. */
  budget?: RunBudget;
  parentSpent(): Usage;
  gate: ConcurrencyGate;
  locks: FileLocks;
  /**
   * Spending of this request's sub-agents, live (their caps count each other's). A finished one stays
   * until the parent's next usage report, which has its cost folded in (`settled` lists those).
   */
  spent: Map<string, Usage>;
  settled: Set<string>;
  /** Registers a sub-agent's own stop (the card's Stop); returns the unregister. */
  register(callId: string, stop: () => void): () => void;
  /** Research mode's host: the built-in `researcher` runs the research loop through it (without it, web tools). */
  research?: ResearchHost;
  /**
   * The session's hooks: a sub-agent's tool calls fire PreToolUse, PermissionRequest and PostToolUse
   * (with its `agent_type`), and its end fires SubagentStop.
   */
  hooks?: SessionHooks;
}

export interface SubagentTask {
  callId: string;
  definition: AgentDefinition;
  description: string;
  prompt: string;
  signal: AbortSignal;
  update(view: SubagentView): void;
}

/** Runs one sub-agent to its end; never throws (a failure is an error result naming the sub-agent). */
export async function runSubagent(scope: SubagentScope, task: SubagentTask): Promise<ToolResult> {
  const def = task.definition;
  const own = new AbortController();
  const stopOwn = () => own.abort();
  task.signal.addEventListener('abort', stopOwn, { once: true });
  // The card's Stop: a research sub-agent that has read pages ends its gathering and writes from them.
  let softStop: (() => boolean) | undefined;
  const unregister = scope.register(task.callId, () => {
    if (!softStop?.()) own.abort();
  });
  const view: SubagentView = {
    name: def.name,
    description: task.description,
    prompt: task.prompt,
    status: 'waiting',
    steps: [],
    modelCalls: 0,
  };
  let lastEmit = 0;
  const emit = (force: boolean) => {
    const t = scope.now();
    if (!force && t - lastEmit < TEXT_EMIT_MS) return;
    lastEmit = t;
    task.update(structuredClone(view));
  };
  emit(true);
  try {
    return await scope.gate.run(own.signal, () =>
      run(scope, task, view, own.signal, emit, (take) => {
        softStop = take;
      }),
    );
  } catch (err) {
    view.status = own.signal.aborted ? 'stopped' : 'error';
    emit(true);
    return own.signal.aborted
      ? { forModel: `The sub-agent ${def.name} was stopped before it started.`, forUi: 'Stopped', isError: true }
      : { forModel: `The sub-agent ${def.name} failed: ${String(err)}`, forUi: String(err), isError: true };
  } finally {
    unregister();
    task.signal.removeEventListener('abort', stopOwn);
    scope.settled.add(task.callId);
  }
}

async function run(
  scope: SubagentScope,
  task: SubagentTask,
  view: SubagentView,
  signal: AbortSignal,
  emit: (force: boolean) => void,
  onSoftStop: (take: () => boolean) => void,
): Promise<ToolResult> {
  const def = task.definition;
  const resolved = def.model ? await scope.resolveModel(def.model) : undefined;
  const target = resolved ?? scope.parentTarget;
  view.model = target.ref;
  if (resolved?.note) view.modelNote = resolved.note;
  if (def.runs === 'research' && scope.research) {
    const research = scope.research;
    auditStart(scope, task, target, ['research loop']);
    view.status = 'running';
    emit(true);
    return runResearchSubagent({
      research,
      target,
      prompt: task.prompt,
      name: def.name,
      view,
      budget: subagentBudget(scope, task.callId),
      signal,
      onSoftStop,
      spent: (usage) => scope.spent.set(task.callId, usage),
      emit,
      now: scope.now,
      newId: scope.newId ?? (() => `${task.callId}-${scope.now()}`),
    });
  }
  const tools = restrictTools(
    scope.parentTools,
    {
      ...(def.tools ? { allowed: def.tools } : {}),
      ...(def.disallowedTools ? { denied: def.disallowedTools } : {}),
      readOnly: def.mode === 'plan',
    },
    scope.locks,
    scope.ports,
  );
  const toolSession = scope.createSession(scope.sessionId);
  const changed = new Set<string>();
  const roots = scope.ports.workspace.roots();
  const rel = (abs: string) => {
    const r = roots[0] ? path.relative(roots[0], abs) : abs;
    return r && !r.startsWith('..') ? r : abs;
  };
  auditStart(
    scope,
    task,
    target,
    tools?.specs().map((s) => s.name),
  );
  view.status = 'running';
  emit(true);
  const opts: TurnOptions = {
    sessionId: scope.sessionId,
    provider: target.provider,
    model: target.model,
    system: subagentSystem(def, scope.rulesSection, roots, scope.now()),
    price: target.config.price,
    ...(tools ? { tools } : {}),
    toolSession,
    ports: withSubagentApprovals(scope.ports, def.name),
    maxSteps: Math.max(1, scope.limits.maxSteps()),
    supportsImages: false,
    signal,
    now: scope.now,
    ...(scope.permissions ? { permissions: scope.permissions } : {}),
    audit: (e) => scope.audit?.({ ...e, callId: `${task.callId}/${e.callId}`, subagent: def.name }),
    ...(scope.newId ? { newId: scope.newId } : {}),
    beforeWrite: async (abs) => {
      changed.add(abs);
      await scope.beforeWrite?.(abs);
    },
    ...(scope.beforeCommand ? { beforeCommand: scope.beforeCommand } : {}),
    budget: subagentBudget(scope, task.callId),
    // Its Stop hooks are SubagentStop's: a block sends it on (at most 3 times, like Stop).
    ...(scope.hooks ? { hooks: scope.hooks.forSubagent(def.name) } : {}),
  };
  let answer = '';
  let outcome: Awaited<ReturnType<typeof runTurnToEnd>>;
  try {
    outcome = await runTurnToEnd(task.prompt, opts, view, scope, task.callId, emit, (t) => (answer = t));
  } finally {
    scope.disposeSession(toolSession);
  }
  view.filesRead = [...toolSession.readFiles.keys()]
    .filter((f) => !changed.has(f))
    .map(rel)
    .slice(0, 100);
  view.filesChanged = [...changed].map(rel).slice(0, 100);
  view.status = outcome;
  emit(true);
  const cost = view.usage?.costUsd;
  const ending: Record<typeof outcome, string> = {
    done: 'finished',
    stopped: 'was stopped by the user; its answer so far',
    budget: 'stopped at its spending cap; its answer so far',
    max_steps: `stopped after ${scope.limits.maxSteps()} model calls (sextant.agents.maxSteps); its answer so far`,
    error: 'failed',
  };
  const files = [
    view.filesRead.length ? `Files read: ${view.filesRead.join(', ')}` : '',
    view.filesChanged.length ? `Files changed: ${view.filesChanged.join(', ')}` : 'Files changed: none',
  ].filter(Boolean);
  const forModel = [`Sub-agent ${def.name} ${ending[outcome]}:`, '', answer.trim() || '(no answer)', '', ...files];
  return {
    forModel: forModel.join('\n'),
    forUi: answer.trim() || '(no answer)',
    isError: outcome === 'error' || (outcome === 'stopped' && !answer.trim()),
    ...(view.usage ? { spent: { usage: { ...view.usage }, costUsd: cost } } : {}),
  };
}

async function runTurnToEnd(
  prompt: string,
  opts: TurnOptions,
  view: SubagentView,
  scope: SubagentScope,
  callId: string,
  emit: (force: boolean) => void,
  setAnswer: (text: string) => void,
): Promise<'done' | 'stopped' | 'budget' | 'max_steps' | 'error'> {
  const steps = view.steps;
  const push = (s: SubagentStep) => {
    if (steps.length < MAX_STEPS_SHOWN) steps.push(s);
  };
  try {
    const turn = runTurn([{ role: 'user', content: prompt }], opts);
    for (;;) {
      const next = await turn.next();
      if (next.done) {
        const kind = next.value.kind;
        return kind === 'aborted' ? 'stopped' : kind;
      }
      const ev = next.value;
      if (ev.type === 'text_delta') {
        const last = steps.at(-1);
        if (last?.kind === 'text' && last.text.length < MAX_TEXT_STEP) last.text += ev.text;
        else push({ kind: 'text', text: ev.text });
        emit(false);
      } else if (ev.type === 'tool_started' || ev.type === 'tool_updated') {
        const { callId: id, name, subject, status } = ev.call;
        const at = steps.findIndex((s) => s.kind === 'tool' && s.callId === id);
        if (at >= 0) steps[at] = { kind: 'tool', callId: id, name, subject, status };
        else push({ kind: 'tool', callId: id, name, subject, status });
        emit(true);
      } else if (ev.type === 'usage') {
        view.usage = ev.usage;
        scope.spent.set(callId, ev.usage);
        emit(true);
      } else if (ev.type === 'history') {
        for (const m of ev.messages)
          if (m.role === 'assistant') {
            view.modelCalls++;
            setAnswer(m.text);
          }
      } else if (ev.type === 'notice' || ev.type === 'budget_stop' || ev.type === 'failover') {
        push({ kind: 'text', text: `\n[${ev.text}]\n` });
        emit(true);
      }
    }
  } catch (err) {
    if (opts.signal.aborted) return 'stopped';
    push({ kind: 'text', text: `\n[failed: ${String(err)}]\n` });
    return 'error';
  }
}

/** The audit log's entry for a sub-agent's start: who, on which model, with which tools. */
function auditStart(scope: SubagentScope, task: SubagentTask, target: Target, tools: string[] | undefined): void {
  const def = task.definition;
  scope.audit?.({
    sessionId: scope.sessionId,
    callId: task.callId,
    tool: 'task',
    decision: 'allow',
    decidedBy: 'mode',
    rule: `sub-agent start: ${def.name} (${def.source})`,
    status: 'ok',
    durationMs: 0,
    args: { subagent: def.name, description: task.description, model: target.ref, tools },
    subagent: def.name,
  });
}

/** The definition's prompt, the workspace it works in, and the parent's rules files. */
export function subagentSystem(def: AgentDefinition, rules: string, roots: readonly string[], now: number): string {
  return [
    def.prompt,
    '',
    '# Environment',
    `- You are a sub-agent (${def.name}) started by another agent; the user does not see your messages, only ` +
      'the agent that started you sees your last one.',
    `- Workspace folders: ${roots.length ? roots.join(', ') : '(no folder open)'}`,
    `- Date: ${new Date(now).toISOString().slice(0, 10)}`,
    ...(rules ? ['', rules] : []),
  ].join('\n');
}

/** The parent's approval port, each card naming the sub-agent that asks. */
function withSubagentApprovals(ports: ToolPorts, name: string): ToolPorts {
  return {
    ...ports,
    approval: { request: (req, signal) => ports.approval.request({ ...req, subagent: name }, signal) },
  };
}

/**
 * The sub-agent's caps, read before each of its model calls: its own dollar cap
 * (sextant.agents.maxCostUsd), and the run's caps less what the parent and the other sub-agents of
 * the run have spent so far; the session's caps count all of that as spent in the session.
 */
function subagentBudget(scope: SubagentScope, callId: string): RunBudget | undefined {
  const own = scope.limits.maxCostUsd();
  const run = scope.budget?.limits;
  if (own === undefined && !scope.budget) return undefined;
  const others = () => {
    const sum = { tokens: 0, costUsd: 0 };
    const parent = scope.parentSpent();
    sum.tokens += tokensOf(parent);
    sum.costUsd += parent.costUsd ?? 0;
    for (const [id, u] of scope.spent) {
      if (id === callId) continue;
      sum.tokens += tokensOf(u);
      sum.costUsd += u.costUsd ?? 0;
    }
    return sum;
  };
  const least = (...xs: Array<number | undefined>) => {
    const set = xs.filter((x): x is number => x !== undefined);
    return set.length ? Math.min(...set) : undefined;
  };
  const limits: BudgetLimits = {
    get maxCostUsd() {
      return least(own, run?.maxCostUsd === undefined ? undefined : run.maxCostUsd - others().costUsd);
    },
    get maxTokens() {
      return run?.maxTokens === undefined ? undefined : run.maxTokens - others().tokens;
    },
    sessionMaxCostUsd: run?.sessionMaxCostUsd,
    sessionMaxTokens: run?.sessionMaxTokens,
  };
  const before = scope.budget?.sessionSpent ?? { tokens: 0, costUsd: 0 };
  const shared = scope.budget?.shared;
  return {
    // The window's total caps pause a sub-agent at its next step too (fleet-budget.ts).
    ...(shared ? { shared } : {}),
    limits,
    sessionSpent: {
      get tokens() {
        return before.tokens + others().tokens;
      },
      get costUsd() {
        return before.costUsd + others().costUsd;
      },
    },
  };
}
