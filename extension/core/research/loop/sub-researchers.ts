// Parallel sub-researchers: each of the plan's sub-questions is researched by its own branch — its
// queries one after another, its pages read through the run's one fetch pool and one page cache (a
// page two branches find is fetched once), the run's one search limit and spending caps — and ends
// with compressed findings: a short cited summary of what its sources say. The writer works from the
// findings. Branches run through the loop's own TaskPool (a concurrency cap); a Stop (the gathering
// signal) ends every branch together, and what was read stays for the partial report.
//
// This is the research loop's own pool, not a generic sub-agent tool: research never imports agent.
import type { ResearchPlanInput } from '../../../protocol';
import findingsPrompt from '../../../../prompts/research-findings.md';
import type { SearchProviderId } from '../../web/types';
import type { FetchedSource } from '../verify';
import { collectText } from './llm-text';
import { readOnce, searchWeb } from './research-gathering';
import type { ResearchRecord } from './research-record';
import { TaskPool } from './task-pool';

/** What one sub-researcher hands the writer. */
export interface Findings {
  question: string;
  text: string;
  sources: number[];
}

type Query = { query: string; provider?: SearchProviderId };

/** The plan's queries shared out over its sub-questions in order; a sub-question without one searches itself. */
export function branchQueries(plan: ResearchPlanInput, maxSearches: number): Query[][] {
  const k = plan.subQuestions.length;
  const out: Query[][] = plan.subQuestions.map(() => []);
  for (const [i, q] of plan.queries.slice(0, maxSearches).entries()) out[i % k].push(q);
  return out.map((qs, i) => (qs.length ? qs : [{ query: plan.subQuestions[i].slice(0, 400) }]));
}

export async function runSubResearchers(
  rec: ResearchRecord,
  plan: ResearchPlanInput,
  fetchPool: TaskPool,
  signals: { gather: AbortSignal; reading: AbortSignal },
): Promise<Findings[]> {
  const { o } = rec;
  const queries = branchQueries(plan, o.limits.maxSearches);
  rec.branches = plan.subQuestions.map((question) => ({
    question: question.slice(0, 500),
    status: 'waiting' as const,
    searches: 0,
    sources: 0,
  }));
  rec.searchesPlanned = Math.min(
    o.limits.maxSearches,
    queries.reduce((n, qs) => n + qs.length, 0),
  );
  const branches = new TaskPool(Math.max(1, o.limits.subResearchers));
  const findings = await Promise.all(
    plan.subQuestions.map((question, i) =>
      branches.run(() => researchBranch(rec, i, question, queries[i], fetchPool, signals)),
    ),
  );
  return findings.filter((f): f is Findings => f !== undefined);
}

async function researchBranch(
  rec: ResearchRecord,
  i: number,
  question: string,
  queries: Query[],
  fetchPool: TaskPool,
  signals: { gather: AbortSignal; reading: AbortSignal },
): Promise<Findings | undefined> {
  const { o } = rec;
  const state = (rec.branches ?? [])[i];
  const set = (status: typeof state.status) => {
    state.status = status;
    rec.progress(rec.phase === 'planning' ? 'searching' : rec.phase);
  };
  const mine = new Map<number, FetchedSource>();
  const reads: Array<Promise<void>> = [];
  for (const q of queries) {
    if (signals.gather.aborted || rec.searchesRun.length >= o.limits.maxSearches || rec.overBudget()) break;
    set('searching');
    const results = await searchWeb(rec, q, signals.gather);
    state.searches++;
    let taken = 0;
    for (const r of results.slice(0, 10)) {
      if (taken >= o.limits.pagesPerSearch) break;
      taken++;
      reads.push(
        readOnce(rec, r, fetchPool, signals.reading).then((src) => {
          if (src) mine.set(src.n, src);
          state.sources = mine.size;
        }),
      );
    }
    set('reading');
  }
  await Promise.allSettled(reads);
  if (signals.gather.aborted) {
    set('stopped');
    return undefined;
  }
  if (mine.size === 0) {
    set('done');
    return undefined;
  }
  set('summarising');
  const sources = [...mine.values()].sort((a, b) => a.n - b.n);
  const material = sources.map((s) => `Source [${s.n}]: ${s.title}\n\n${s.text.slice(0, 5_000)}`).join('\n\n---\n\n');
  try {
    const planner = o.planner;
    const { text, usage } = await collectText(
      planner?.llm ?? o.llm,
      {
        system: findingsPrompt.trim(),
        user: `Question: ${o.question}\n\nYour sub-question: ${question}\n\nSources:\n\n${material}`,
        maxTokens: 800,
      },
      signals.gather,
    );
    rec.addUsage(usage, planner ? planner.price : o.price);
    set('done');
    return { question, text: text.trim(), sources: sources.map((s) => s.n) };
  } catch (e) {
    if (signals.gather.aborted) {
      set('stopped');
      return undefined;
    }
    rec.notes.push(`The findings for "${question}" could not be summarised (${(e as Error).message}).`);
    set('done');
    return { question, text: '', sources: sources.map((s) => s.n) };
  }
}
