// Which model a request runs on, and how: the planner model for Plan mode and the research planner
// (sextant.plannerModel), the picker's reasoning level, failover to sextant.fallbackModel, and the
// run's spending caps (sextant.budget.* with the composer's choice and what the session has spent).
import { type BudgetStop, type ChatMessage, type RunBudgetChoice, spending, type Mode } from '../../protocol';
import { type ModelTarget, withFailover } from '../providers/failover';
import type { Provider, ReasoningEffort } from '../providers/types';
import { type BudgetLimits, type RunBudget, tokensOf } from '../usage/budget';
import type { ModelServices, RunLimits } from './chat-services';

export type Target = ModelTarget & { ref: string };

type Deps = Pick<ModelServices, 'resolveModel' | 'plannerModel' | 'reasoning' | 'fallbackModel'>;

/** The model a request in this mode runs on: Plan mode's is the planner model when one is set. */
export function modelRefFor(deps: Deps, chatModel: string, mode: Mode): string {
  const planner = deps.plannerModel?.();
  return mode === 'plan' && planner ? planner : chatModel;
}

/** The planner model for a research run, when one is set and differs from the chat's model. */
export async function plannerTarget(deps: Deps, main: Target): Promise<Target | undefined> {
  const ref = deps.plannerModel?.();
  if (!ref || ref === main.ref) return undefined;
  return { ...(await deps.resolveModel(ref)), ref };
}

/** The picker's reasoning level for a model reference (`off` and unset: none). */
export function reasoningFor(deps: Deps, ref: string): ReasoningEffort | undefined {
  const choice = deps.reasoning?.get(ref);
  return choice && choice !== 'off' ? choice : undefined;
}

export function llmOf(deps: Deps, target: Target): { provider: Provider; model: string; reasoning?: ReasoningEffort } {
  const reasoning = reasoningFor(deps, target.ref);
  return { provider: target.provider, model: target.model, ...(reasoning ? { reasoning } : {}) };
}

/** The turn's model, failing over to sextant.fallbackModel when it fails before answering (failover.ts). */
export function withFallback(deps: Deps, chatModel: string, target: ModelTarget): ModelTarget {
  const fallbackRef = deps.fallbackModel?.()?.trim();
  if (!fallbackRef || fallbackRef === chatModel) return target;
  return withFailover(target, { fallbackRef, resolve: (ref) => deps.resolveModel(ref) });
}

/**
 * The caps of a run: the settings, with the composer's dollar cap in place of maxCostUsd, and no session
 * caps for a run the user continued past one. The session's spending is everything its messages record
 * (answers and compaction summaries). `shared`: the caps of all the window's sessions (fleet-budget.ts),
 * also lifted for a continued run.
 */
export function runBudget(
  deps: Pick<RunLimits, 'budget'>,
  messages: readonly ChatMessage[],
  choice: RunBudgetChoice | undefined,
  shared?: () => BudgetStop | undefined,
): RunBudget | undefined {
  const settings = deps.budget?.();
  const sharedCheck = choice?.continuing ? undefined : shared;
  if (!settings && choice?.maxCostUsd == null && !sharedCheck) return undefined;
  const limits: BudgetLimits = { ...settings };
  if (choice?.maxCostUsd !== undefined) limits.maxCostUsd = choice.maxCostUsd ?? undefined;
  if (choice?.continuing) {
    limits.sessionMaxCostUsd = undefined;
    limits.sessionMaxTokens = undefined;
  }
  if (Object.values(limits).every((v) => v === undefined) && !sharedCheck) return undefined;
  let tokens = 0;
  let costUsd = 0;
  for (const { usage } of spending(messages)) {
    tokens += tokensOf(usage);
    costUsd += usage.costUsd ?? 0;
  }
  return { limits, sessionSpent: { tokens, costUsd }, ...(sharedCheck ? { shared: sharedCheck } : {}) };
}
