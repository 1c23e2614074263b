// Spending caps of a run (sextant.budget.maxCostUsd / .maxTokens) and of a session
// (sextant.budget.sessionMaxCostUsd / .sessionMaxTokens). The loop asks between model calls; a call
// that has started is never cut, so the check also looks one call ahead: the history only grows, so
// the next call costs about what the last one did, and a run that would pass a cap with it stops now.
import type { BudgetCap, BudgetStop, Usage } from '../../protocol';

export interface BudgetLimits {
  maxCostUsd?: number;
  maxTokens?: number;
  sessionMaxCostUsd?: number;
  sessionMaxTokens?: number;
}

/** A run's caps and what the session had spent before the run started. */
export interface RunBudget {
  limits: BudgetLimits;
  sessionSpent: { tokens: number; costUsd: number };
  /**
   * A cap shared with other sessions (all sessions of the window: fleet-budget.ts), asked at the same step
   * boundaries; absent for a run the user continued past a cap.
   */
  shared?: () => BudgetStop | undefined;
}

export const BUDGET_SETTING: Record<BudgetCap, string> = {
  run_cost: 'sextant.budget.maxCostUsd',
  run_tokens: 'sextant.budget.maxTokens',
  session_cost: 'sextant.budget.sessionMaxCostUsd',
  session_tokens: 'sextant.budget.sessionMaxTokens',
  total_cost: 'sextant.budget.totalMaxCostUsd',
  total_tokens: 'sextant.budget.totalMaxTokens',
};

/** Tokens a usage report counts against a token cap: everything sent and received. */
export function tokensOf(usage: Pick<Usage, 'inputTokens' | 'outputTokens'>): number {
  return usage.inputTokens + usage.outputTokens;
}

/** A cap as the user set it: a positive finite number, else no cap. */
export function capValue(raw: unknown): number | undefined {
  return typeof raw === 'number' && Number.isFinite(raw) && raw > 0 ? raw : undefined;
}

/**
 * The cap the run has reached, or would pass with one more call like the last one; undefined to go on.
 * `run` is the run's total so far and `last` the last model call's usage (both with `costUsd` when
 * the price is known; without a price a dollar cap cannot be judged and is left to the caller to report).
 */
export function budgetReached(budget: RunBudget | undefined, run: Usage, last: Usage): BudgetStop | undefined {
  if (!budget) return undefined;
  const { limits, sessionSpent } = budget;
  const checks: Array<{ cap: BudgetCap; limit: number | undefined; spent: number | undefined; next: number }> = [
    { cap: 'run_cost', limit: limits.maxCostUsd, spent: run.costUsd, next: last.costUsd ?? 0 },
    { cap: 'run_tokens', limit: limits.maxTokens, spent: tokensOf(run), next: tokensOf(last) },
    {
      cap: 'session_cost',
      limit: limits.sessionMaxCostUsd,
      spent: run.costUsd === undefined ? undefined : sessionSpent.costUsd + run.costUsd,
      next: last.costUsd ?? 0,
    },
    {
      cap: 'session_tokens',
      limit: limits.sessionMaxTokens,
      spent: sessionSpent.tokens + tokensOf(run),
      next: tokensOf(last),
    },
  ];
  for (const { cap, limit, spent, next } of checks) {
    if (limit === undefined || spent === undefined) continue;
    if (spent >= limit || spent + next > limit) return { cap, setting: BUDGET_SETTING[cap], limit, spent };
  }
  return budget.shared?.();
}

/** What the chat says when a cap stops a run. */
export function budgetStopText(stop: BudgetStop): string {
  const money = stop.cap.endsWith('_cost');
  const fmt = (n: number) => (money ? `$${n.toFixed(4)}` : `${Math.round(n).toLocaleString('en-US')} tokens`);
  const scope = stop.cap.startsWith('session')
    ? 'this session'
    : stop.cap.startsWith('total')
      ? 'all sessions of this window'
      : 'this run';
  return (
    `Stopped at the budget: ${fmt(stop.spent)} spent in ${scope}, and the cap is ${fmt(stop.limit)} ` +
    `(${stop.setting}). What was done so far is kept. Continue to go on past it for one more run, or raise the cap.`
  );
}

/** A dollar cap that cannot be judged: the model's price is unknown. Undefined when nothing to say. */
export function unpricedCapNotice(limits: BudgetLimits, priced: boolean, model: string): string | undefined {
  if (priced || (limits.maxCostUsd === undefined && limits.sessionMaxCostUsd === undefined)) return undefined;
  return (
    `The price of ${model} is unknown, so the dollar cap cannot be applied to this run (only token caps ` +
    'can). Set "price" on the provider entry in sextant.providers to have it counted.'
  );
}

/** Adds one usage report to a running total (cost is recomputed by the caller from the total). */
export function addUsage(total: Usage, u: Omit<Usage, 'costUsd'>): void {
  total.inputTokens += u.inputTokens;
  total.outputTokens += u.outputTokens;
  total.cachedTokens += u.cachedTokens;
  if (u.reasoningTokens) total.reasoningTokens = (total.reasoningTokens ?? 0) + u.reasoningTokens;
  if (u.cacheWriteTokens) total.cacheWriteTokens = (total.cacheWriteTokens ?? 0) + u.cacheWriteTokens;
}
