// The gathering half of a research run: the planning call, one web search at a time (each shown as a
// card), reading a search's pages, waiting for the reads in flight, and asking the model what is still
// missing. Each step adds what it finds to the run's record; the loop in research-run.ts decides the
// order, the limits and when gathering ends.
import type { ResearchPlanInput } from '../../../protocol';
import gapsPrompt from '../../../../prompts/research-gaps.md';
import type { SearchProviderId, SearchResult } from '../../web/types';
import { sinceDay, withinWindow } from '../../web/search/client';
import { urlPassesDomains } from '../../web/search/domains';
import type { FetchedSource } from '../verify';
import { normaliseUrl } from '../verify/citations';
import { collectText, jsonObjectIn } from './llm-text';
import { planResearch, type PlanContext } from './research-planner';
import type { ResearchRecord } from './research-record';
import type { TaskPool } from './task-pool';
import { withBrowserText } from './browser-gathering';

export async function planQueries(
  rec: ResearchRecord,
  question: string,
  context: PlanContext,
): Promise<ResearchPlanInput> {
  const planner = rec.o.planner;
  const r = await planResearch(question, planner?.llm ?? rec.o.llm, rec.o.limits, rec.o.signal, context);
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
    const f = rec.filters;
    const answered = await rec.o.services.search(
      {
        query: q.query,
        maxResults: 10,
        provider: q.provider,
        ...(f.includeDomains?.length ? { allowedDomains: f.includeDomains } : {}),
        ...(f.excludeDomains?.length ? { blockedDomains: f.excludeDomains } : {}),
        ...(f.recencyDays ? { recencyDays: f.recencyDays } : {}),
      },
      signal,
    );
    // The filters hold whatever the provider did with them (some take no date, a proxy may ignore them).
    const since = sinceDay(f.recencyDays, rec.o.now());
    const results = answered.filter(
      (r) => urlPassesDomains(r.url, f.includeDomains ?? [], f.excludeDomains ?? []) && withinWindow(r, since),
    );
    if (results.length < answered.length) rec.filteredOut += answered.length - results.length;
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

/**
 * A result's page, read once per run whoever asks (the sub-researchers share this cache): the source,
 * or undefined when it could not be read.
 */
export function readOnce(
  rec: ResearchRecord,
  result: SearchResult,
  pool: TaskPool,
  signal: AbortSignal,
): Promise<FetchedSource | undefined> {
  const key = normaliseUrl(result.url);
  let read = rec.reads.get(key);
  if (!read) {
    rec.seenUrls.add(key);
    rec.fetchesStarted.add(result.url);
    read = pool.run(() => readPage(rec, result, signal));
    rec.reads.set(key, read);
  }
  return read;
}

export async function readPage(
  rec: ResearchRecord,
  result: SearchResult,
  signal: AbortSignal,
): Promise<FetchedSource | undefined> {
  const callId = rec.card('web_fetch', result.url);
  const started = rec.o.now();
  try {
    const page = await withBrowserText(rec, await rec.o.services.fetchPage(result.url, signal), signal);
    // A follow-up's stale source read again keeps its number; its text is the newest.
    const same = (s: FetchedSource) =>
      [page.url, page.finalUrl].some((u) =>
        [s.url, s.finalUrl ?? s.url].some((v) => normaliseUrl(v) === normaliseUrl(u)),
      );
    const known = rec.sources.find((s) => !s.path && same(s));
    const source: FetchedSource = {
      n: known?.n ?? rec.nextN(),
      url: page.url,
      finalUrl: page.finalUrl,
      title: page.title || result.title,
      text: page.text,
      accessedAt: page.fetchedAt,
    };
    if (known) rec.sources.splice(rec.sources.indexOf(known), 1, source);
    else rec.sources.push(source);
    const n = source.n;
    rec.seenUrls.add(normaliseUrl(page.finalUrl));
    rec.cardDone(callId, 'web_fetch', result.url, started, {
      status: 'ok',
      preview: `[${n}] ${page.title || result.title} · ${page.text.length.toLocaleString('en')} characters`,
    });
    return source;
  } catch (e) {
    const message = (e as Error).message;
    rec.cardDone(callId, 'web_fetch', result.url, started, {
      status: signal.aborted ? 'aborted' : 'error',
      preview: message,
      summary: signal.aborted ? undefined : `not read: ${message}`,
    });
    return undefined;
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
