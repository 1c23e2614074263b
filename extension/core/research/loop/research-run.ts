// Research mode's loop: analyse → plan → search (one query per step) → read → evaluate gaps →
// iterate → write → verify. It runs isolated: its own context (the question, the plan, the pages
// read) and only research services — no workspace tools, no chat history. Searches run one after
// another; each search's pages are fetched in the background through a bounded pool while the next
// search goes out, so reading overlaps searching. Gathering stops at the search limit or the time
// budget; whatever was read is then written up, verified against the pages and delivered as a report.
import type { PartialReason, Report, RequestEvent, ResearchPhase, ResearchPlanInput, Usage } from '../../../protocol';
import gapsPrompt from '../../../../prompts/research-gaps.md';
import writerPrompt from '../../../../prompts/researcher.md';
import { AsyncQueue } from '../../util/async-queue';
import { costOf } from '../../usage/cost';
import { addUsage, budgetReached, type RunBudget } from '../../usage/budget';
import type { ModelMessage, ProviderConfig } from '../../providers/types';
import type { FetchedPage, SearchProviderId, SearchQuery, SearchResult } from '../../web/types';
import { verifyReport, type ClaimJudge, type FetchedSource, type VerifiedReport } from '../verify';
import { normaliseUrl } from '../verify/citations';
import { collectText, jsonObjectIn, type LlmTarget } from './llm-text';
import { planResearch } from './research-planner';
import { TaskPool } from './task-pool';
import type { ResearchStop } from './research-stop';

/** What the loop reaches the web through (the search client with failover, the guarded fetcher). */
export interface ResearchServices {
  search(query: SearchQuery & { provider?: SearchProviderId }, signal: AbortSignal): Promise<SearchResult[]>;
  fetchPage(url: string, signal: AbortSignal): Promise<FetchedPage>;
}

export interface ResearchLimits {
  minSearches: number;
  maxSearches: number;
  /** Time for gathering (planning, searching, reading); writing and verifying come after it. */
  timeBudgetMs: number;
  /** Pages fetched at once. */
  fetchConcurrency: number;
  /** New pages read per search (its top results not read yet). */
  pagesPerSearch: number;
}

export const DEFAULT_LIMITS: ResearchLimits = {
  minSearches: 2,
  maxSearches: 7,
  timeBudgetMs: 180_000,
  fetchConcurrency: 4,
  pagesPerSearch: 3,
};

/** A second model for the planning call and the gap checks (sextant.plannerModel), with its own price. */
export interface PlannerTarget {
  llm: LlmTarget;
  price?: ProviderConfig['price'];
  /** Its model reference, named in the report's notes. */
  ref: string;
}

export interface ResearchRunOptions {
  question: string;
  /** An approved research plan: its queries run first and the planning call is skipped. */
  plan?: ResearchPlanInput;
  services: ResearchServices;
  llm: LlmTarget;
  price?: ProviderConfig['price'];
  /** Plans and checks for gaps on this model instead of `llm` (which still writes the report). */
  planner?: PlannerTarget;
  /** The fast-model claim check; without it claims are checked lexically only. */
  judge?: ClaimJudge;
  limits: ResearchLimits;
  /** Spending caps (sextant.budget.*): reaching one ends the gathering, like the time budget. */
  budget?: RunBudget;
  /** The user's first Stop, which ends the gathering and keeps what was found (a partial report). */
  stop?: ResearchStop;
  /** Aborts the run outright (a second Stop, a new request). */
  signal: AbortSignal;
  now(): number;
  newId(): string;
}

export type ResearchEvent =
  | Exclude<RequestEvent, { type: 'started' | 'complete' | 'aborted' | 'error' }>
  | { type: 'history'; messages: ModelMessage[] };

export type ResearchOutcome = { kind: 'reported'; reportId: string } | { kind: 'nothing_found' } | { kind: 'aborted' };

/** Page text handed to the writer per source, and in all. */
const WRITER_CHARS_PER_SOURCE = 6_000;
const WRITER_CHARS_TOTAL = 60_000;
/** Pages one run reads at most, whatever the searches return. */
const MAX_PAGES = 40;
/**
 * The partial report's own small budget: one short call, this much page text, this many output tokens,
 * this long. It runs after a Stop or a cap, so it must be quick and cheap whatever the run spent.
 */
const PARTIAL_CHARS_PER_SOURCE = 2_500;
const PARTIAL_CHARS_TOTAL = 20_000;
const PARTIAL_MAX_TOKENS = 1_200;
const PARTIAL_TIMEOUT_MS = 60_000;

export async function* runResearch(opts: ResearchRunOptions): AsyncGenerator<ResearchEvent, ResearchOutcome> {
  const queue = new AsyncQueue<ResearchEvent>();
  let settled = false;
  const work = new ResearchRun(opts, queue)
    .run()
    // A model call stopped by the user throws; the run simply ends aborted.
    .catch((e: unknown): ResearchOutcome => {
      if (opts.signal.aborted) return { kind: 'aborted' };
      throw e;
    })
    .finally(() => {
      settled = true;
    });
  while (!settled) {
    await queue.waitFor(work);
    yield* queue.drain();
  }
  const outcome = await work;
  yield* queue.drain();
  return outcome;
}

class ResearchRun {
  private readonly sources: FetchedSource[] = [];
  /** URLs being read right now. */
  private readonly fetchesStarted = new Set<string>();
  private readonly seenUrls = new Set<string>();
  private readonly searchesRun: string[] = [];
  private readonly usage: Usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
  private lastCall: Usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
  private budgetNote: string | undefined;
  private readonly notes: string[] = [];
  private searchesPlanned = 0;
  private phase: ResearchPhase = 'planning';
  private cards = 0;
  /** Planning, searching and reading: a Stop now ends the gathering and the report is written from what was read. */
  private gathering = true;

  constructor(
    private readonly o: ResearchRunOptions,
    private readonly out: AsyncQueue<ResearchEvent>,
  ) {
    this.usage.costUsd = costOf(this.usage, o.price);
  }

  async run(): Promise<ResearchOutcome> {
    const { o } = this;
    const startedAt = o.now();
    // Gathering has its own deadline on top of the user's Stop.
    const gather = new AbortController();
    // Pages being read: a Stop ends them too (what was read stays); the time budget lets them finish.
    const reading = new AbortController();
    const onAbort = () => {
      gather.abort();
      reading.abort();
    };
    o.signal.addEventListener('abort', onAbort, { once: true });
    o.stop?.signal.addEventListener('abort', onAbort, { once: true });
    // A Stop is taken while gathering, once there is something to write from.
    o.stop?.accept(() => this.gathering && this.sources.length > 0);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      gather.abort();
    }, o.limits.timeBudgetMs);
    const pool = new TaskPool(Math.max(1, o.limits.fetchConcurrency));
    try {
      this.progress('planning', 'Working out what to search');
      const plan = o.plan ?? (await this.planQueries());
      if (o.signal.aborted) return { kind: 'aborted' };
      const queue = plan.queries.slice(0, o.limits.maxSearches);
      this.searchesPlanned = Math.max(queue.length, Math.min(o.limits.minSearches, o.limits.maxSearches));
      let gapsChecked = 0;
      while (this.searchesRun.length < o.limits.maxSearches && !gather.signal.aborted && !this.overBudget()) {
        if (queue.length === 0) {
          // Out of queries: read what the pages say so far and ask what is missing.
          await this.settle(pool, gather.signal);
          if (gather.signal.aborted || gapsChecked >= o.limits.maxSearches || this.overBudget()) break;
          gapsChecked++;
          const searched = (q: string) => this.searchesRun.some((r) => r.toLowerCase() === q.trim().toLowerCase());
          let fresh = (await this.findGaps(plan, gather.signal)).filter((q) => !searched(q));
          // Below the minimum with nothing new from the model: the sub-questions not searched yet go out.
          const short = o.limits.minSearches - this.searchesRun.length;
          if (fresh.length === 0 && short > 0)
            fresh = plan.subQuestions
              .filter((q) => !searched(q))
              .slice(0, short)
              .map((q) => q.slice(0, 400));
          if (fresh.length === 0) break;
          queue.push(...fresh.map((query) => ({ query })));
          this.searchesPlanned = Math.min(o.limits.maxSearches, this.searchesRun.length + queue.length);
          continue;
        }
        const next = queue.shift() as { query: string; provider?: SearchProviderId };
        const results = await this.search(next, gather.signal);
        for (const r of results.slice(0, 10)) {
          if (this.sources.length + this.fetchesStarted.size >= MAX_PAGES) break;
          const key = normaliseUrl(r.url);
          if (this.seenUrls.has(key)) continue;
          if (this.pendingFor(results, r) >= o.limits.pagesPerSearch) break;
          this.seenUrls.add(key);
          this.fetchesStarted.add(r.url);
          // Pages already being read finish even when the budget ends the search (their own timeouts bound them).
          void pool.run(() => this.read(r, reading.signal));
        }
      }
      await this.settle(pool, gather.signal);
      this.gathering = false;
      if (o.signal.aborted) return { kind: 'aborted' };
      const elapsed = Math.round((o.now() - startedAt) / 1000);
      const found = `${this.searchesRun.length} searches and ${this.sources.length} pages`;
      const why: { reason: PartialReason; detail: string } | undefined = o.stop?.signal.aborted
        ? { reason: 'stopped', detail: `Stopped by you after ${found} read in ${elapsed} s.` }
        : timedOut
          ? {
              reason: 'time',
              detail: `The time budget (${seconds(o.limits.timeBudgetMs)}) ended the run after ${found}.`,
            }
          : this.budgetNote
            ? { reason: 'budget', detail: this.budgetNote }
            : undefined;
      if (!why) this.notes.push(`${found} read in ${elapsed} s.`);
      if (this.sources.length === 0) {
        if (why) this.notes.push(why.detail);
        return this.nothingFound();
      }
      return why ? await this.writePartial(plan, why) : await this.writeAndVerify(plan);
    } finally {
      clearTimeout(timer);
      o.signal.removeEventListener('abort', onAbort);
      o.stop?.signal.removeEventListener('abort', onAbort);
      o.stop?.accept(() => false);
      reading.abort();
      gather.abort();
      await pool.idle();
    }
  }

  // ---- phases ---------------------------------------------------------------------------------

  private async planQueries(): Promise<ResearchPlanInput> {
    const planner = this.o.planner;
    const r = await planResearch(this.o.question, planner?.llm ?? this.o.llm, this.o.limits, this.o.signal);
    if (r.usage) this.addUsage(r.usage, planner ? planner.price : this.o.price);
    if (r.note) this.notes.push(r.note);
    if (planner) this.notes.push(`Planned (and checked for gaps) with ${planner.ref}.`);
    return r.plan;
  }

  private async search(
    q: { query: string; provider?: SearchProviderId },
    signal: AbortSignal,
  ): Promise<SearchResult[]> {
    const callId = this.card('web_search', q.query);
    this.searchesRun.push(q.query);
    this.progress('searching', `Searching: ${q.query}`);
    const started = this.o.now();
    try {
      const results = await this.o.services.search({ query: q.query, maxResults: 10, provider: q.provider }, signal);
      const lines = results.map((r, i) => `${i + 1}. ${r.title} — ${r.url}`);
      this.cardDone(callId, 'web_search', q.query, started, {
        status: 'ok',
        preview: results.length
          ? `${results.length} results: ${results
              .slice(0, 3)
              .map((r) => r.title)
              .join(' · ')}`
          : 'No results',
        detail: lines.join('\n') || 'No results',
      });
      if (results.length === 0) this.notes.push(`The search "${q.query}" found nothing.`);
      return results;
    } catch (e) {
      if (isNoKey(e)) throw e;
      const message = (e as Error).message;
      this.cardDone(callId, 'web_search', q.query, started, {
        status: signal.aborted ? 'aborted' : 'error',
        preview: message,
        summary: `search failed: ${message}`,
      });
      if (!signal.aborted) this.notes.push(`The search "${q.query}" failed: ${message}`);
      return [];
    } finally {
      this.progress('searching');
    }
  }

  private async read(result: SearchResult, signal: AbortSignal): Promise<void> {
    const callId = this.card('web_fetch', result.url);
    const started = this.o.now();
    try {
      const page = await this.o.services.fetchPage(result.url, signal);
      const n = this.sources.length + 1;
      this.sources.push({
        n,
        url: page.url,
        finalUrl: page.finalUrl,
        title: page.title || result.title,
        text: page.text,
        accessedAt: page.fetchedAt,
      });
      this.seenUrls.add(normaliseUrl(page.finalUrl));
      this.cardDone(callId, 'web_fetch', result.url, started, {
        status: 'ok',
        preview: `[${n}] ${page.title || result.title} · ${page.text.length.toLocaleString('en')} characters`,
      });
    } catch (e) {
      const message = (e as Error).message;
      this.cardDone(callId, 'web_fetch', result.url, started, {
        status: signal.aborted ? 'aborted' : 'error',
        preview: message,
        summary: signal.aborted ? undefined : `not read: ${message}`,
      });
    } finally {
      this.fetchesStarted.delete(result.url);
      this.progress(this.phase === 'evaluating' ? 'evaluating' : 'reading');
    }
  }

  /** How many of this search's results are already being read (so each search adds at most N pages). */
  private pendingFor(results: SearchResult[], current: SearchResult): number {
    const before = results.slice(0, results.indexOf(current));
    return before.filter((r) => this.fetchesStarted.has(r.url) || this.sources.some((s) => s.url === r.url)).length;
  }

  private async settle(pool: TaskPool, signal: AbortSignal): Promise<void> {
    if (!signal.aborted) this.progress('reading', 'Reading the pages found');
    await pool.idle();
  }

  private async findGaps(plan: ResearchPlanInput, signal: AbortSignal): Promise<string[]> {
    this.progress('evaluating', 'Checking what is still missing');
    const read = this.sources
      .map((s) => `[${s.n}] ${s.title} (${s.url})\n${s.text.slice(0, 600).replace(/\s+/g, ' ')}`)
      .join('\n\n');
    const user = [
      `Question: ${plan.question}`,
      `Sub-questions:\n${plan.subQuestions.map((q) => `- ${q}`).join('\n')}`,
      `Searches run:\n${this.searchesRun.map((q) => `- ${q}`).join('\n')}`,
      `Pages read:\n\n${read || '(none yet)'}`,
      `Searches left: ${this.o.limits.maxSearches - this.searchesRun.length}; at least ` +
        `${Math.max(0, this.o.limits.minSearches - this.searchesRun.length)} more are expected.`,
    ].join('\n\n');
    try {
      const planner = this.o.planner;
      const { text, usage } = await collectText(
        planner?.llm ?? this.o.llm,
        { system: gapsPrompt.trim(), user },
        signal,
      );
      this.addUsage(usage, planner ? planner.price : this.o.price);
      const v = jsonObjectIn(text) as { enough?: unknown; queries?: unknown } | undefined;
      const queries = Array.isArray(v?.queries)
        ? v.queries
            .filter((q): q is string => typeof q === 'string' && q.trim() !== '')
            .map((q) => q.trim().slice(0, 400))
        : [];
      const enough = v?.enough === true && this.searchesRun.length >= this.o.limits.minSearches;
      return enough ? [] : queries.slice(0, 3);
    } catch (e) {
      if (!signal.aborted)
        this.notes.push(`The gap check failed (${(e as Error).message}); no further searches were made.`);
      return [];
    }
  }

  private async writeAndVerify(plan: ResearchPlanInput): Promise<ResearchOutcome> {
    const { o } = this;
    this.progress('writing', 'Writing the report');
    const user = [
      `Question: ${plan.question}`,
      `Expected output: ${plan.expectedOutput}`,
      `Sources (${this.sources.length}):\n\n${this.material(WRITER_CHARS_PER_SOURCE, WRITER_CHARS_TOTAL)}`,
    ].join('\n\n');
    const { text: draft, usage } = await collectText(o.llm, { system: writerPrompt.trim(), user }, o.signal, (t) =>
      this.out.push({ type: 'text_delta', text: t }),
    );
    this.addUsage(usage, o.price);
    if (o.signal.aborted) return { kind: 'aborted' };
    this.progress('verifying', 'Checking every citation against its page');
    // The claim checks' calls (the fast model's) are counted with the run's own.
    const inner = o.judge;
    const judge: ClaimJudge | undefined = inner
      ? async (input, signal) => {
          const verdict = await inner(input, signal);
          if (verdict.spent) this.addSpent(verdict.spent.usage, verdict.spent.costUsd);
          return verdict;
        }
      : undefined;
    const verified = await verifyReport(draft, this.sources, { judge, signal: o.signal });
    if (o.signal.aborted) return { kind: 'aborted' };
    return this.deliver(plan, verified, []);
  }

  /**
   * The report after a Stop, the time budget or a spending cap: one short call on the pages read so far,
   * within its own small budget (page text, output tokens, time), checked by words and figures only (no
   * model judge: the run was asked to end). When that call fails, the report lists what was read.
   */
  private async writePartial(
    plan: ResearchPlanInput,
    why: { reason: PartialReason; detail: string },
  ): Promise<ResearchOutcome> {
    const { o } = this;
    this.progress('writing', 'Writing a short report from the pages read so far');
    const user = [
      `Question: ${plan.question}`,
      `The research was ended early (${why.detail}) Write a short report from these sources only: the ` +
        'Summary and the Key findings they support, and in the Conclusion say plainly what was not covered.',
      `Sources (${this.sources.length}):\n\n${this.material(PARTIAL_CHARS_PER_SOURCE, PARTIAL_CHARS_TOTAL)}`,
    ].join('\n\n');
    const limit = new AbortController();
    const timer = setTimeout(() => limit.abort(), PARTIAL_TIMEOUT_MS);
    const signal = AbortSignal.any([o.signal, limit.signal]);
    let draft = '';
    const notes: string[] = [`Partial report: ${why.detail} It was written in one short call from the pages read.`];
    try {
      const { text, usage } = await collectText(
        o.llm,
        { system: writerPrompt.trim(), user, maxTokens: PARTIAL_MAX_TOKENS },
        signal,
        (t) => this.out.push({ type: 'text_delta', text: t }),
      );
      this.addUsage(usage, o.price);
      draft = text;
    } catch (e) {
      if (o.signal.aborted) return { kind: 'aborted' };
      const message = limit.signal.aborted
        ? `it took longer than ${seconds(PARTIAL_TIMEOUT_MS)}`
        : (e as Error).message;
      notes.push(`The short report could not be written (${message}); the pages read are listed instead.`);
    } finally {
      clearTimeout(timer);
    }
    if (o.signal.aborted) return { kind: 'aborted' };
    if (!draft.trim())
      draft = `# ${plan.question.slice(0, 120)}\n\nNo report was written; the pages read are listed below.`;
    this.progress('verifying', 'Checking every citation against its page');
    const verified = await verifyReport(draft, this.sources, { signal: o.signal });
    if (o.signal.aborted) return { kind: 'aborted' };
    // Nothing read is lost: the pages the short report does not cite are named too.
    const cited = new Set(verified.sources.map((s) => normaliseUrl(s.url)));
    for (const s of this.sources)
      if (!cited.has(normaliseUrl(s.finalUrl ?? s.url)))
        notes.push(`Also read (not cited): ${s.title} — ${s.finalUrl ?? s.url}`);
    return this.deliver(plan, verified, notes, why);
  }

  /** Page text for the writer: the pages read, in order, each cut to `perSource`, all to `total`. */
  private material(perSource: number, total: number): string {
    let left = total;
    return this.sources
      .map((s) => {
        const take = Math.max(0, Math.min(perSource, left));
        left -= take;
        return `Source [${s.n}]: ${s.title}\nURL: ${s.finalUrl ?? s.url}\n\n${s.text.slice(0, take)}`;
      })
      .join('\n\n---\n\n');
  }

  private deliver(
    plan: ResearchPlanInput,
    verified: VerifiedReport,
    notes: string[],
    partial?: Report['partial'],
  ): ResearchOutcome {
    const { o } = this;
    const id = `report-${o.newId()}`;
    const v = verified.stats;
    this.out.push({
      type: 'report',
      report: {
        id,
        title: reportTitle(verified.markdown) ?? plan.question.slice(0, 120),
        question: plan.question,
        markdown: verified.markdown,
        sources: verified.sources,
        verdicts: verified.verdicts,
        notes: [...notes, ...verified.notes, ...this.notes],
        stats: {
          searches: this.searchesRun.length,
          sourcesRead: this.sources.length,
          claims: v.claims,
          supported: v.supported,
          unsupported: v.unsupported,
          unchecked: v.unchecked,
          inventedRemoved: v.inventedRemoved,
          unfetchedUrlsRemoved: v.unfetchedUrlsRemoved,
        },
        createdAt: o.now(),
        ...(partial ? { partial } : {}),
      },
    });
    this.progress('done');
    this.out.push({
      type: 'history',
      // The controller adds the user's message before the first history it records.
      messages: [{ role: 'assistant', text: verified.markdown }],
    });
    return { kind: 'reported', reportId: id };
  }

  private nothingFound(): ResearchOutcome {
    const text = [
      `I could not find sources to answer this: ${this.searchesRun.length} searches found no page that could be read.`,
      ...this.notes.map((n) => `- ${n}`),
      '',
      'Try a more specific question, other words, or another search provider (sextant.research.searchProviders).',
    ].join('\n');
    this.out.push({ type: 'text_delta', text });
    this.progress('done');
    this.out.push({
      type: 'history',
      messages: [{ role: 'assistant', text }],
    });
    return { kind: 'nothing_found' };
  }

  // ---- events ---------------------------------------------------------------------------------

  private progress(phase: ResearchPhase, detail?: string): void {
    this.phase = phase;
    this.out.push({
      type: 'research_progress',
      progress: {
        phase,
        searchesDone: this.searchesRun.length,
        searchesPlanned: Math.max(this.searchesPlanned, this.searchesRun.length),
        sourcesRead: this.sources.length,
        ...(detail ? { detail: detail.slice(0, 500) } : {}),
      },
    });
  }

  private card(name: 'web_search' | 'web_fetch', subject: string): string {
    const callId = `research-${++this.cards}`;
    this.out.push({
      type: 'tool_started',
      call: { callId, name, kind: 'network', subject, status: 'running', startedAt: this.o.now() },
    });
    return callId;
  }

  private cardDone(
    callId: string,
    name: 'web_search' | 'web_fetch',
    subject: string,
    startedAt: number,
    r: { status: 'ok' | 'error' | 'aborted'; preview?: string; detail?: string; summary?: string },
  ): void {
    this.out.push({
      type: 'tool_updated',
      call: {
        callId,
        name,
        kind: 'network',
        subject,
        status: r.status,
        startedAt,
        durationMs: this.o.now() - startedAt,
        ...(r.preview ? { preview: r.preview.slice(0, 240) } : {}),
        ...(r.detail ? { detail: r.detail.slice(0, 20_000) } : {}),
        ...(r.summary ? { summary: r.summary.slice(0, 300) } : {}),
      },
    });
  }

  /** Adds one call's usage; its cost at the price of the model that made it (the planner's may differ). */
  private addUsage(u: Usage, price: ProviderConfig['price'] | undefined): void {
    this.addSpent(u, costOf(u, price));
  }

  /** Adds one call's usage and what it cost (undefined: its price is unknown). */
  private addSpent(u: Usage, cost: number | undefined): void {
    const before = this.usage.costUsd;
    addUsage(this.usage, u);
    // One call at an unknown price makes the run's cost unknown: a partial sum would be a made-up figure.
    this.usage.costUsd = before === undefined || cost === undefined ? undefined : before + cost;
    this.lastCall = { ...u, costUsd: cost };
    this.out.push({ type: 'usage', usage: { ...this.usage } });
  }

  /**
   * Whether a spending cap ends the gathering (checked before each search and gap check). The report
   * is then written from the pages read so far, and its notes name the cap with the searches and pages.
   */
  private overBudget(): boolean {
    if (this.budgetNote) return true;
    const stop = budgetReached(this.o.budget, this.usage, this.lastCall);
    if (!stop) return false;
    const money = stop.cap.endsWith('cost');
    const fmt = (n: number) => (money ? `$${n.toFixed(4)}` : `${Math.round(n)} tokens`);
    this.budgetNote =
      `The budget (${stop.setting}: ${fmt(stop.limit)}, ${fmt(stop.spent)} spent) ended the search after ` +
      `${this.searchesRun.length} searches and ${this.sources.length + this.fetchesStarted.size} pages; the ` +
      'report uses what was read by then.';
    return true;
  }
}

/** The report's title: its first level-1 heading (emphasis removed), if it has one. */
export function reportTitle(markdown: string): string | undefined {
  const h = /^\s{0,3}#\s+(.+?)\s*#*\s*$/m.exec(markdown)?.[1];
  const title = h?.replace(/[*_`]+/g, '').trim();
  return title || undefined;
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** A missing search key ends the run with the message saying what to configure. */
function isNoKey(e: unknown): boolean {
  return e instanceof Error && (e as { code?: unknown }).code === 'no_key';
}
