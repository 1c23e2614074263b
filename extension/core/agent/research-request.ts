// A request in Research mode, or a "Plan Research" request in Plan mode, as a stream of the same
// events a turn yields, so the controller journals and forwards them the same way. Research runs
// isolated from the chat: the question (or an approved research plan) is all it takes from it.
import { researchPlanToMarkdown, type ResearchPlanInput } from '../../protocol';
import { costOf } from '../usage/cost';
import type { RunBudget } from '../usage/budget';
import { ProviderError, type ProviderConfig } from '../providers/types';
import type { ResearchHost } from '../research/host';
import { runResearch, type ResearchEvent } from '../research/loop/research-run';
import { planResearch } from '../research/loop/research-planner';
import type { LlmTarget } from '../research/loop/llm-text';
import type { PlannerTarget } from '../research/loop/research-run';
import type { ResearchStop } from '../research/loop/research-stop';

export interface ResearchRequestOptions {
  question: string;
  research: ResearchHost;
  llm: LlmTarget;
  price?: ProviderConfig['price'];
  /** sextant.plannerModel, when it differs from `llm`: the planning call and the gap checks run on it. */
  planner?: PlannerTarget;
  /** Spending caps of the run (sextant.budget.*). */
  budget?: RunBudget;
  /** An approved (possibly edited) research plan to carry out. */
  plan?: ResearchPlanInput;
  /** The user's first Stop: ends the gathering, the report is written from what was read (partial). */
  stop?: ResearchStop;
  /** Messages the user steers the run with: each is added to the brief. */
  steers?: { take(): string[] };
  signal: AbortSignal;
  now(): number;
  newId(): string;
}

/** Runs the researcher and delivers a verified report. */
export async function* researchRequest(opts: ResearchRequestOptions): AsyncGenerator<ResearchEvent, void> {
  let services: Awaited<ReturnType<ResearchHost['services']>>;
  try {
    services = await opts.research.services();
  } catch (e) {
    // No search key: the chat shows what to configure, with the same Retry as a missing model key.
    const code = (e as { code?: unknown }).code;
    throw code === 'no_key' ? new ProviderError('no_key', (e as Error).message) : e;
  }
  const judge = await opts.research.judge?.().catch(() => undefined);
  yield* runResearch({
    question: opts.question,
    plan: opts.plan,
    services,
    llm: opts.llm,
    price: opts.price,
    ...(opts.planner ? { planner: opts.planner } : {}),
    judge,
    limits: opts.research.limits(),
    ...(opts.budget ? { budget: opts.budget } : {}),
    ...(opts.stop ? { stop: opts.stop } : {}),
    ...(opts.steers ? { steers: opts.steers } : {}),
    signal: opts.signal,
    now: opts.now,
    newId: opts.newId,
  });
}

/** Plan Research: the research planner's plan as a card to approve, edit or reject. Nothing is searched. */
export async function* researchPlanRequest(
  opts: Omit<ResearchRequestOptions, 'plan'>,
): AsyncGenerator<ResearchEvent, void> {
  const { plan, usage, note } = await planResearch(opts.question, opts.llm, opts.research.limits(), opts.signal);
  if (opts.signal.aborted) return;
  if (usage) yield { type: 'usage', usage: { ...usage, costUsd: costOf(usage, opts.price) } };
  if (note) yield { type: 'notice', text: note };
  yield { type: 'plan_proposed', plan: { ...plan, kind: 'research', id: `plan-${opts.newId()}`, status: 'proposed' } };
  yield {
    type: 'history',
    messages: [{ role: 'assistant', text: researchPlanToMarkdown(plan) }],
  };
}
