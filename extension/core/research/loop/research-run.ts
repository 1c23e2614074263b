// Research mode's loop: analyse → plan → search (one query per step) → read → evaluate gaps →
// iterate → write → verify. It runs isolated: its own context (the question, the plan, the pages
// read) and only research services — no workspace tools, no chat history. Searches run one after
// another; each search's pages are fetched in the background through a bounded pool while the next
// search goes out, so reading overlaps searching. Gathering stops at the search limit or the time
// budget; whatever was read is then written up, verified against the pages and delivered as a report.
import { setMaxListeners } from 'node:events';
import type { PartialReason, ResearchPlanInput } from '../../../protocol';
import { AsyncQueue } from '../../util/async-queue';
import type { SearchProviderId } from '../../web/types';
import { normaliseUrl } from '../verify/citations';
import { findGaps, pendingFor, planQueries, readOnce, searchWeb, settleReads } from './research-gathering';
import { clarifyQuestion } from './clarify';
import { runSubResearchers, type Findings } from './sub-researchers';
import { gatherWorkspace } from './workspace-gathering';
import { gatherMcp } from './mcp-gathering';
import { seconds, writePartial } from './partial-report';
import { closeBrowsing } from './browser-gathering';
import { ResearchRecord } from './research-record';
import { reportNothingFound, writeAndVerify } from './research-report';
import type { ResearchEvent, ResearchOutcome, ResearchRunOptions } from './research-run-types';
import { TaskPool } from './task-pool';

// The loop's parts live beside it; what other files import from here is re-exported unchanged.
export {
  DEFAULT_LIMITS,
  type PlannerTarget,
  type ResearchEvent,
  type ResearchLimits,
  type ResearchOutcome,
  type ResearchRunOptions,
  type ResearchServices,
} from './research-run-types';
export { reportTitle } from './research-report';

/** Pages one run reads at most, whatever the searches return. */
const MAX_PAGES = 40;

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
  private readonly rec: ResearchRecord;
  /** Planning, searching and reading: a Stop now ends the gathering and the report is written from what was read. */
  private gathering = true;
  /** The sub-researchers' findings, when the sub-questions were researched in parallel. */
  private findings: Findings[] | undefined;

  constructor(
    private readonly o: ResearchRunOptions,
    out: AsyncQueue<ResearchEvent>,
  ) {
    this.rec = new ResearchRecord(o, out);
  }

  async run(): Promise<ResearchOutcome> {
    const { o, rec } = this;
    const startedAt = o.now();
    // Gathering has its own deadline on top of the user's Stop.
    const gather = new AbortController();
    // Pages being read: a Stop ends them too (what was read stays); the time budget lets them finish.
    const reading = new AbortController();
    // Every search, read and sub-researcher's model call listens on these: more than Node's default 10.
    setMaxListeners(200, gather.signal, reading.signal);
    const onAbort = () => {
      gather.abort();
      reading.abort();
    };
    o.signal.addEventListener('abort', onAbort, { once: true });
    o.stop?.signal.addEventListener('abort', onAbort, { once: true });
    // A Stop is taken while gathering, once there is something to write from.
    o.stop?.accept(() => this.gathering && rec.sources.length > 0);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      gather.abort();
    }, o.limits.timeBudgetMs);
    const pool = new TaskPool(Math.max(1, o.limits.fetchConcurrency));
    try {
      // A follow-up starts from the earlier report's sources: fresh ones are not fetched again.
      const staleBefore = o.now() - (o.staleAfterMs ?? 15 * 60_000);
      for (const src of o.prior?.sources ?? []) {
        rec.sources.push({ ...src });
        if (src.path || src.accessedAt < staleBefore) continue;
        for (const u of [src.url, src.finalUrl ?? src.url]) {
          rec.seenUrls.add(normaliseUrl(u));
          rec.reads.set(normaliseUrl(u), Promise.resolve(src));
        }
      }
      const question = o.plan || o.prior ? o.question : await clarifyQuestion(rec, o.question);
      if (o.signal.aborted) return { kind: 'aborted' };
      const scope = o.plan?.scope ?? o.scope ?? 'web';
      rec.filters = o.plan?.filters ?? o.filters ?? {};
      const workspace = scope === 'web' ? undefined : o.services.workspace;
      if (scope !== 'web' && !workspace) rec.notes.push('The workspace could not be read here; the web was searched.');
      rec.progress('planning', 'Working out what to search');
      const files = workspace ? await workspace.list(gather.signal).catch(() => []) : undefined;
      const plan =
        o.plan ??
        (await planQueries(rec, question, {
          scope,
          ...(files ? { files } : {}),
          ...(o.prior
            ? { prior: { question: o.prior.question, sources: o.prior.sources.map((x) => `[${x.n}] ${x.title}`) } }
            : {}),
        }));
      if (o.signal.aborted) return { kind: 'aborted' };
      if (workspace) await gatherWorkspace(rec, workspace, plan, gather.signal);
      // The user's approved MCP servers are read in every scope: they hold the team's own knowledge.
      if (o.services.mcp) await gatherMcp(rec, o.services.mcp, plan, gather.signal);
      const web = scope !== 'workspace' || !workspace;
      const parallel = web && o.limits.subResearchers > 1 && plan.subQuestions.length > 1;
      if (parallel)
        this.findings = await runSubResearchers(rec, plan, pool, { gather: gather.signal, reading: reading.signal });
      else if (web) await this.searchOneByOne(plan, pool, gather.signal, reading.signal);
      await settleReads(rec, pool, gather.signal);
      this.gathering = false;
      if (o.signal.aborted) return { kind: 'aborted' };
      const elapsed = Math.round((o.now() - startedAt) / 1000);
      const found = `${rec.searchesRun.length} searches and ${rec.sources.length} pages`;
      const why: { reason: PartialReason; detail: string } | undefined = o.stop?.signal.aborted
        ? { reason: 'stopped', detail: `Stopped by you after ${found} read in ${elapsed} s.` }
        : timedOut
          ? {
              reason: 'time',
              detail: `The time budget (${seconds(o.limits.timeBudgetMs)}) ended the run after ${found}.`,
            }
          : rec.budgetNote
            ? { reason: 'budget', detail: rec.budgetNote }
            : undefined;
      if (!why) rec.notes.push(`${found} read in ${elapsed} s.`);
      if (rec.sources.length === 0) {
        if (why) rec.notes.push(why.detail);
        return reportNothingFound(rec);
      }
      return why ? await writePartial(rec, plan, why) : await writeAndVerify(rec, plan, this.findings);
    } finally {
      clearTimeout(timer);
      o.signal.removeEventListener('abort', onAbort);
      o.stop?.signal.removeEventListener('abort', onAbort);
      o.stop?.accept(() => false);
      reading.abort();
      gather.abort();
      await pool.idle();
      await closeBrowsing(rec);
    }
  }

  /** Today's loop: one search at a time, each search's pages read in the background, then the gap check. */
  private async searchOneByOne(
    plan: ResearchPlanInput,
    pool: TaskPool,
    gather: AbortSignal,
    reading: AbortSignal,
  ): Promise<void> {
    const { o, rec } = this;
    const queue = plan.queries.slice(0, o.limits.maxSearches);
    rec.searchesPlanned = Math.max(queue.length, Math.min(o.limits.minSearches, o.limits.maxSearches));
    let gapsChecked = 0;
    while (rec.searchesRun.length < o.limits.maxSearches && !gather.aborted && !rec.overBudget()) {
      // A steer is an addition to the brief: the gap checks and the report read it, and it is searched.
      for (const added of o.steers?.take() ?? []) {
        plan.question = `${plan.question}\n\nAdded by the user during the run: ${added}`;
        queue.unshift({ query: added.slice(0, 400) });
        rec.progress('searching', `Steered: ${added.slice(0, 120)}`);
      }
      if (queue.length === 0) {
        // Out of queries: read what the pages say so far and ask what is missing.
        await settleReads(rec, pool, gather);
        if (gather.aborted || gapsChecked >= o.limits.maxSearches || rec.overBudget()) break;
        gapsChecked++;
        const searched = (q: string) => rec.searchesRun.some((r) => r.toLowerCase() === q.trim().toLowerCase());
        let fresh = (await findGaps(rec, plan, gather)).filter((q) => !searched(q));
        // Below the minimum with nothing new from the model: the sub-questions not searched yet go out.
        const short = o.limits.minSearches - rec.searchesRun.length;
        if (fresh.length === 0 && short > 0)
          fresh = plan.subQuestions
            .filter((q) => !searched(q))
            .slice(0, short)
            .map((q) => q.slice(0, 400));
        if (fresh.length === 0) break;
        queue.push(...fresh.map((query) => ({ query })));
        rec.searchesPlanned = Math.min(o.limits.maxSearches, rec.searchesRun.length + queue.length);
        continue;
      }
      const next = queue.shift() as { query: string; provider?: SearchProviderId };
      const results = await searchWeb(rec, next, gather);
      for (const r of results.slice(0, 10)) {
        if (rec.sources.length + rec.fetchesStarted.size >= MAX_PAGES) break;
        const key = normaliseUrl(r.url);
        if (rec.seenUrls.has(key)) continue;
        if (pendingFor(rec, results, r) >= o.limits.pagesPerSearch) break;
        // Pages already being read finish even when the budget ends the search (their own timeouts bound them).
        void readOnce(rec, r, pool, reading);
      }
    }
  }
}
