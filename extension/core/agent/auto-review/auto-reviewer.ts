// Auto mode's reviewer: a call the policy would ask about only because no rule covers it (the mode's
// default question, and nothing the floor holds — permissions/floor.ts) goes to a model the user
// picks, which answers allow or ask with a one-line reason. Every way the reviewer can fail — an
// error, no answer within the time limit, a malformed answer, a spending cap reached — asks the user.
// One reviewer per turn: its verdicts are cached per identical action within that turn, no longer.
// It is also where the one floor item the policy's default would let through in `allow` mode is held:
// a fetch by URL (web_fetch, the browser) asks unless the user's own rule allows it.
import type { ReviewNote, ToolKind, Usage } from '../../../protocol';
import { floorHolding, floorItem } from '../../permissions/floor';
import type { Policy } from '../../permissions';
import type { Logger } from '../../ports';
import type { Provider, ProviderConfig } from '../../providers/types';
import { runsCommands } from '../../sandbox/command-gate';
import type { SandboxStatus } from '../../sandbox/types';
import { addUsage, budgetReached, budgetStopText, type RunBudget } from '../../usage/budget';
import { costOf } from '../../usage/cost';
import { errorText } from '../../util/error-text';
import type { Judgement } from '../permission-gate';
import { MAX_ACTION_CHARS, REVIEWER_SYSTEM, actionText, reviewerPrompt } from './review-prompt';
import { parseVerdict, type Verdict } from './review-verdict';

/** How long a review may take when sextant.autoMode.timeoutMs is not set. */
export const DEFAULT_REVIEW_TIMEOUT_MS = 15_000;

export interface ReviewSpent {
  usage: Usage;
  costUsd: number | undefined;
}

export interface AutoReviewDeps {
  /** The policy in force now: the reviewer is asked only while its defaultMode is `auto`. */
  policy(): Policy | undefined;
  /** sextant.autoMode.reviewerModel, else the chat's model (`provider/model`). */
  reviewerModel(): string;
  resolveModel(ref: string): Promise<{ provider: Provider; model: string; config?: ProviderConfig }>;
  /** The user's own messages of this session, oldest first (an approved plan's brief among them). */
  userMessages(): string[];
  timeoutMs: number;
  /** The run's caps; a cap reached means no review (the call asks). */
  budget?: RunBudget;
  /** What the run has spent so far, as last reported (the reviewer adds its own since). */
  runUsage?(): Usage;
  log?: Logger;
}

export interface ReviewedCall {
  tool: string;
  kind: ToolKind;
  input: unknown;
}

export class AutoReviewer {
  private readonly cache = new Map<string, Promise<Verdict | { failed: string }>>();
  private spent: ReviewSpent[] = [];
  private unreported: Usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 0 };

  constructor(private readonly deps: AutoReviewDeps) {}

  /**
   * The judgement after review: unchanged unless auto mode is on and the call asks only the mode's
   * default question; then allowed (source `reviewer`) or still asking, with the reviewer's note.
   */
  async judge(
    call: ReviewedCall,
    judged: Judgement,
    status: SandboxStatus | undefined,
    signal: AbortSignal,
  ): Promise<Judgement> {
    const policy = this.deps.policy();
    if (!policy) return judged;
    const facts = {
      kind: call.kind,
      runsCommands: runsCommands(call.tool),
      boxed: status?.active === true,
      byUrl: policy.tools[call.tool]?.permission.subject === 'url',
    };
    // The floor holds in every mode: defaultMode allow's fetch by URL asks too (the network item).
    if (judged.decision === 'allow' && judged.source === 'default' && facts.byUrl)
      return { ...judged, decision: 'ask', reason: `${floorItem('network').reason}; a rule of yours may allow it` };
    if (policy.defaultMode !== 'auto' || judged.decision !== 'ask') return judged;
    if (floorHolding(judged, facts)) return judged;
    const model = this.deps.reviewerModel();
    const answer = await this.verdict(call, judged.reason, model, signal);
    if ('failed' in answer) {
      const review: ReviewNote = { decision: 'ask', reason: answer.failed };
      return { ...judged, review };
    }
    const review: ReviewNote = { ...answer, model };
    if (answer.decision === 'ask') return { ...judged, review };
    const { alwaysRule: _notOffered, ...rest } = judged;
    return {
      ...rest,
      decision: 'allow',
      source: 'reviewer',
      reason: `the reviewer allowed it: ${answer.reason}`,
      review,
    };
  }

  /** What the reviews cost since last taken: the turn adds it to the run's usage (and its caps). */
  takeSpent(): ReviewSpent[] {
    const out = this.spent;
    this.spent = [];
    this.unreported = { inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 0 };
    return out;
  }

  private verdict(
    call: ReviewedCall,
    policyReason: string,
    model: string,
    signal: AbortSignal,
  ): Promise<Verdict | { failed: string }> {
    const key = JSON.stringify([call.tool, call.input ?? {}]);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const pending = this.ask(call, policyReason, model, signal);
    this.cache.set(key, pending);
    // Only answers are kept: after a failure the same action is reviewed again (it still asks meanwhile).
    void pending.then((v) => {
      if ('failed' in v && this.cache.get(key) === pending) this.cache.delete(key);
    });
    return pending;
  }

  private async ask(
    call: ReviewedCall,
    policyReason: string,
    model: string,
    signal: AbortSignal,
  ): Promise<Verdict | { failed: string }> {
    if (actionText({ ...call, policyReason }).length > MAX_ACTION_CHARS)
      return { failed: 'the action is too large to review, so you are asked' };
    const stop = this.budgetStop();
    if (stop) return { failed: `not reviewed: ${stop}` };
    const timeout = new AbortController();
    const onAbort = () => timeout.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      timeout.abort();
    }, this.deps.timeoutMs);
    let text = '';
    let usage: Usage | undefined;
    let config: ProviderConfig | undefined;
    try {
      const resolved = await this.deps.resolveModel(model);
      config = resolved.config;
      const prompt = reviewerPrompt(this.deps.userMessages(), { ...call, policyReason });
      const stream = resolved.provider.stream(
        {
          model: resolved.model,
          system: REVIEWER_SYSTEM,
          messages: [{ role: 'user', content: prompt }],
          maxTokens: 200,
          temperature: 0,
        },
        timeout.signal,
      );
      for await (const ev of stream) {
        if (ev.type === 'text') text += ev.text;
        else if (ev.type === 'usage') {
          usage ??= { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
          addUsage(usage, ev.usage);
        }
        if (timeout.signal.aborted) break;
      }
    } catch (err) {
      if (!timedOut && !signal.aborted) {
        this.deps.log?.warn(`auto mode reviewer ${model} failed: ${errorText(err)}`);
        return { failed: `the reviewer failed (${errorText(err)}), so you are asked` };
      }
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (usage) this.count({ usage, costUsd: costOf(usage, config?.price) });
    }
    if (signal.aborted) return { failed: 'the turn was stopped before the reviewer answered' };
    if (timedOut) return { failed: `the reviewer did not answer within ${this.deps.timeoutMs} ms, so you are asked` };
    return parseVerdict(text) ?? { failed: 'the reviewer gave no clear answer, so you are asked' };
  }

  private count(s: ReviewSpent): void {
    this.spent.push(s);
    addUsage(this.unreported, s.usage);
    this.unreported.costUsd =
      this.unreported.costUsd === undefined || s.costUsd === undefined
        ? undefined
        : this.unreported.costUsd + s.costUsd;
  }

  /** A spending cap the run has reached counting the reviews not yet reported: no more reviews then. */
  private budgetStop(): string | undefined {
    if (!this.deps.budget) return undefined;
    const run: Usage = { ...(this.deps.runUsage?.() ?? { inputTokens: 0, outputTokens: 0, cachedTokens: 0 }) };
    addUsage(run, this.unreported);
    run.costUsd =
      run.costUsd === undefined || this.unreported.costUsd === undefined
        ? undefined
        : run.costUsd + this.unreported.costUsd;
    const last = this.spent.at(-1);
    const stop = budgetReached(this.deps.budget, run, last ? { ...last.usage, costUsd: last.costUsd } : ZERO);
    return stop ? budgetStopText(stop).split('. ')[0] : undefined;
  }
}

const ZERO: Usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 0 };
