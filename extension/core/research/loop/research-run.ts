// Research mode's loop: analyse → plan → search (one query per step) → read → evaluate gaps →
// iterate → write → verify. It runs isolated: its own context (the question, the plan, the pages
// read) and only research services — no workspace tools, no chat history. Searches run one after
// another; each search's pages are fetched in the background through a bounded pool while the next
// search goes out, so reading overlaps searching. Gathering stops at the search limit or the time
// budget; whatever was read is then written up, verified against the pages and delivered as a report.
import type { PartialReason } from '../../../protocol';
import { AsyncQueue } from '../../util/async-queue';
import type { SearchProviderId } from '../../web/types';
import { normaliseUrl } from '../verify/citations';
import { findGaps, pendingFor, planQueries, readPage, searchWeb, settleReads } from './research-gathering';
import { seconds, writePartial } from './partial-report';
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
      rec.progress('planning', 'Working out what to search');
      const plan = o.plan ?? (await planQueries(rec));
      if (o.signal.aborted) return { kind: 'aborted' };
      const queue = plan.queries.slice(0, o.limits.maxSearches);
      rec.searchesPlanned = Math.max(queue.length, Math.min(o.limits.minSearches, o.limits.maxSearches));
      let gapsChecked = 0;
      while (rec.searchesRun.length < o.limits.maxSearches && !gather.signal.aborted && !rec.overBudget()) {
        // A steer is an addition to the brief: the gap checks and the report read it, and it is searched.
        for (const added of o.steers?.take() ?? []) {
          plan.question = `${plan.question}\n\nAdded by the user during the run: ${added}`;
          queue.unshift({ query: added.slice(0, 400) });
          rec.progress('searching', `Steered: ${added.slice(0, 120)}`);
        }
        if (queue.length === 0) {
          // Out of queries: read what the pages say so far and ask what is missing.
          await settleReads(rec, pool, gather.signal);
          if (gather.signal.aborted || gapsChecked >= o.limits.maxSearches || rec.overBudget()) break;
          gapsChecked++;
          const searched = (q: string) => rec.searchesRun.some((r) => r.toLowerCase() === q.trim().toLowerCase());
          let fresh = (await findGaps(rec, plan, gather.signal)).filter((q) => !searched(q));
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
        const results = await searchWeb(rec, next, gather.signal);
        for (const r of results.slice(0, 10)) {
          if (rec.sources.length + rec.fetchesStarted.size >= MAX_PAGES) break;
          const key = normaliseUrl(r.url);
          if (rec.seenUrls.has(key)) continue;
          if (pendingFor(rec, results, r) >= o.limits.pagesPerSearch) break;
          rec.seenUrls.add(key);
          rec.fetchesStarted.add(r.url);
          // Pages already being read finish even when the budget ends the search (their own timeouts bound them).
          void pool.run(() => readPage(rec, r, reading.signal));
        }
      }
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
      return why ? await writePartial(rec, plan, why) : await writeAndVerify(rec, plan);
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
}
