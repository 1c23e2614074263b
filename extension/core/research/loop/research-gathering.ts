// The gathering half of a research run: the planning call, one web search at a time (each shown as a
// card), reading a search's pages, waiting for the reads in flight, and asking the model what is still
// missing. Each step adds what it finds to the run's record; the loop in research-run.ts decides the
// order, the limits and when gathering ends.
import type { ResearchPlanInput } from '../../../protocol';
import gapsPrompt from '../../../../prompts/research-gaps.md';
import type { SearchProviderId, SearchResult } from '../../web/types';
import { normaliseUrl } from '../verify/citations';
import { collectText, jsonObjectIn } from './llm-text';
import { planResearch } from './research-planner';
import type { ResearchRecord } from './research-record';
import type { TaskPool } from './task-pool';

export async function planQueries(rec: ResearchRecord): Promise<ResearchPlanInput> {
  const planner = rec.o.planner;
  const r = await planResearch(rec.o.question, planner?.llm ?? rec.o.llm, rec.o.limits, rec.o.signal);
  if (r.usage) rec.addUsage(r.usage, planner ? planner.price : rec.o.price);
  if (r.note) rec.notes.push(r.note);
  if (planner) rec.notes.push(`Planned (and checked for gaps) with ${planner.ref}.`);
  return r.plan;
}

export async function searchWeb(
  rec: ResearchRecord,
  q: { query: string; provider?: SearchProviderId },
  signal: AbortSignal,
): Promise<SearchResult[]> {
  const callId = rec.card('web_search', q.query);
  rec.searchesRun.push(q.query);
  rec.progress('searching', `Searching: ${q.query}`);
  const started = rec.o.now();
  try {
    const results = await rec.o.services.search({ query: q.query, maxResults: 10, provider: q.provider }, signal);
    const lines = results.map((r, i) => `${i + 1}. ${r.title} — ${r.url}`);
    rec.cardDone(callId, 'web_search', q.query, started, {
      status: 'ok',
      preview: results.length
        ? `${results.length} results: ${results
            .slice(0, 3)
            .map((r) => r.title)
            .join(' · ')}`
        : 'No results',
      detail: lines.join('\n') || 'No results',
    });
    if (results.length === 0) rec.notes.push(`The search "${q.query}" found nothing.`);
    return results;
  } catch (e) {
    if (isNoKey(e)) throw e;
    const message = (e as Error).message;
    rec.cardDone(callId, 'web_search', q.query, started, {
      status: signal.aborted ? 'aborted' : 'error',
      preview: message,
      summary: `search failed: ${message}`,
    });
    if (!signal.aborted) rec.notes.push(`The search "${q.query}" failed: ${message}`);
    return [];
  } finally {
    rec.progress('searching');
  }
}

export async function readPage(rec: ResearchRecord, result: SearchResult, signal: AbortSignal): Promise<void> {
  const callId = rec.card('web_fetch', result.url);
  const started = rec.o.now();
  try {
    const page = await rec.o.services.fetchPage(result.url, signal);
    const n = rec.sources.length + 1;
    rec.sources.push({
      n,
      url: page.url,
      finalUrl: page.finalUrl,
      title: page.title || result.title,
      text: page.text,
      accessedAt: page.fetchedAt,
    });
    rec.seenUrls.add(normaliseUrl(page.finalUrl));
    rec.cardDone(callId, 'web_fetch', result.url, started, {
      status: 'ok',
      preview: `[${n}] ${page.title || result.title} · ${page.text.length.toLocaleString('en')} characters`,
    });
  } catch (e) {
    const message = (e as Error).message;
    rec.cardDone(callId, 'web_fetch', result.url, started, {
      status: signal.aborted ? 'aborted' : 'error',
      preview: message,
      summary: signal.aborted ? undefined : `not read: ${message}`,
    });
  } finally {
    rec.fetchesStarted.delete(result.url);
    rec.progress(rec.phase === 'evaluating' ? 'evaluating' : 'reading');
  }
}

/** How many of this search's results are already being read (so each search adds at most N pages). */
export function pendingFor(rec: ResearchRecord, results: SearchResult[], current: SearchResult): number {
  const before = results.slice(0, results.indexOf(current));
  return before.filter((r) => rec.fetchesStarted.has(r.url) || rec.sources.some((s) => s.url === r.url)).length;
}

export async function settleReads(rec: ResearchRecord, pool: TaskPool, signal: AbortSignal): Promise<void> {
  if (!signal.aborted) rec.progress('reading', 'Reading the pages found');
  await pool.idle();
}

export async function findGaps(rec: ResearchRecord, plan: ResearchPlanInput, signal: AbortSignal): Promise<string[]> {
  rec.progress('evaluating', 'Checking what is still missing');
  const read = rec.sources
    .map((s) => `[${s.n}] ${s.title} (${s.url})\n${s.text.slice(0, 600).replace(/\s+/g, ' ')}`)
    .join('\n\n');
  const user = [
    `Question: ${plan.question}`,
    `Sub-questions:\n${plan.subQuestions.map((q) => `- ${q}`).join('\n')}`,
    `Searches run:\n${rec.searchesRun.map((q) => `- ${q}`).join('\n')}`,
    `Pages read:\n\n${read || '(none yet)'}`,
    `Searches left: ${rec.o.limits.maxSearches - rec.searchesRun.length}; at least ` +
      `${Math.max(0, rec.o.limits.minSearches - rec.searchesRun.length)} more are expected.`,
  ].join('\n\n');
  try {
    const planner = rec.o.planner;
    const { text, usage } = await collectText(planner?.llm ?? rec.o.llm, { system: gapsPrompt.trim(), user }, signal);
    rec.addUsage(usage, planner ? planner.price : rec.o.price);
    const v = jsonObjectIn(text) as { enough?: unknown; queries?: unknown } | undefined;
    const queries = Array.isArray(v?.queries)
      ? v.queries
          .filter((q): q is string => typeof q === 'string' && q.trim() !== '')
          .map((q) => q.trim().slice(0, 400))
      : [];
    const enough = v?.enough === true && rec.searchesRun.length >= rec.o.limits.minSearches;
    return enough ? [] : queries.slice(0, 3);
  } catch (e) {
    if (!signal.aborted)
      rec.notes.push(`The gap check failed (${(e as Error).message}); no further searches were made.`);
    return [];
  }
}

/** A missing search key ends the run with the message saying what to configure. */
function isNoKey(e: unknown): boolean {
  return e instanceof Error && (e as { code?: unknown }).code === 'no_key';
}
