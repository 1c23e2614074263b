// Research run against fake servers with 200 ms per search and per page fetch (the model is the fake
// LLM, answering at once): wall time next to the run's critical path — planning, the searches one
// after another (one query per step, by design), one fetch round after the last search, the gap
// check, writing and verifying — and the same run reading one page at a time for comparison. Then
// the share of citations verified in a scripted report. Prints figures; asserts nothing.
import { runResearch, type ResearchEvent, DEFAULT_LIMITS } from '../../extension/core/research/loop/research-run';
import { claimJudgeFrom } from '../../extension/core/research/verify';
import { collectText } from '../../extension/core/research/loop/llm-text';
import * as openai from '../../extension/core/providers/openai';
import type { FetchedPage, SearchResult } from '../../extension/core/web/types';
import { startFakeLlm } from '../../test/fixtures/fake-llm';

const LATENCY = Number(process.env.RESEARCH_LATENCY_MS ?? 200);
const SEARCHES = 4;
const PAGES_PER_SEARCH = 3;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(t);
      reject(new Error('aborted'));
    };
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

const FACTS = [
  'The Severn tidal array generated 11.4 gigawatt-hours in its first winter.',
  'Turbine availability reached 96 percent across the array.',
  'Maintenance visits fell to 3 per turbine per year.',
  'The operator plans 40 more turbines by 2029.',
  'Sea-bed surveys found no change in fish counts near the turbines.',
  'Grid connection cost 18 million pounds.',
];

function page(url: string, k: number): FetchedPage {
  // Every page carries every fact (pages are numbered in the order they finish, not by URL).
  const text = `${FACTS.join(' ')} Further context about tidal energy, page ${k + 1}.`;
  return {
    url,
    finalUrl: url,
    title: `Tidal report ${k + 1}`,
    markdown: text,
    text,
    contentType: 'text/html',
    truncated: false,
    fetchedAt: Date.now(),
  };
}

async function main(): Promise<void> {
  const fake = await startFakeLlm();
  const queries = Array.from({ length: SEARCHES }, (_, i) => ({ query: `tidal energy ${i + 1}` }));
  // Seven claims: five from the pages, one with a figure no page has, one citing a source never fetched.
  const draft = [
    '# Tidal energy',
    '## Key findings',
    `- ${FACTS[0].replace(/\.$/, '')} [1].`,
    `- ${FACTS[1].replace(/\.$/, '')} [2].`,
    `- ${FACTS[2].replace(/\.$/, '')} [3].`,
    `- ${FACTS[3].replace(/\.$/, '')} [4].`,
    `- ${FACTS[4].replace(/\.$/, '')} [5].`,
    '- The array powers 90 thousand homes [1].',
    '- Tidal power will replace all gas plants [42].',
  ].join('\n');
  fake.onRequest((r) => {
    const b = JSON.stringify(r.body);
    if (b.includes('You plan web research'))
      return {
        text: JSON.stringify({
          question: 'Tidal energy results',
          subQuestions: subQuestions(),
          queries,
          expectedOutput: 'A report.',
        }),
      };
    if (b.includes('You are one of several researchers')) return { text: `- ${FACTS[0]} [1]` };
    if (b.includes('You review web research in progress')) return { text: '{"enough": true, "queries": []}' };
    if (b.includes('You write a research report')) return { text: draft };
    if (b.includes('You check one claim')) return { text: '{"verdict":"supported"}' };
    return undefined;
  });
  const provider = openai.createProvider({ name: 'fake', kind: 'openai', baseUrl: `${fake.baseUrl}/v1` }, 'sk-bench');
  const llm = { provider, model: 'fake-model' };

  let subs = ['Output?'];
  const subQuestions = () => subs;
  const runOnce = async (fetchConcurrency: number, subResearchers = 1) => {
    let k = 0;
    const services = {
      async search(_q: unknown, signal: AbortSignal): Promise<SearchResult[]> {
        await sleep(LATENCY, signal);
        const base = k;
        k += PAGES_PER_SEARCH;
        return Array.from({ length: PAGES_PER_SEARCH }, (_, i) => ({
          title: `Tidal report ${base + i + 1}`,
          url: `https://example.org/tidal/${base + i}`,
          snippet: '',
          source: 'exa' as const,
        }));
      },
      async fetchPage(url: string, signal: AbortSignal) {
        await sleep(LATENCY, signal);
        return page(url, Number(url.split('/').pop()));
      },
    };
    const marks: Array<[string, number]> = [];
    const summarising: number[] = [];
    const summarised: number[] = [];
    const t0 = performance.now();
    let report: Extract<ResearchEvent, { type: 'report' }>['report'] | undefined;
    const gen = runResearch({
      question: 'What did the tidal array achieve?',
      services,
      llm,
      judge: claimJudgeFrom((req, signal) => collectText(llm, req, signal)),
      limits: {
        ...DEFAULT_LIMITS,
        minSearches: SEARCHES,
        maxSearches: SEARCHES,
        fetchConcurrency,
        pagesPerSearch: PAGES_PER_SEARCH,
        subResearchers,
      },
      signal: new AbortController().signal,
      now: () => Date.now(),
      newId: () => 'bench',
    });
    for (;;) {
      const n = await gen.next();
      if (n.done) break;
      const e = n.value;
      if (e.type === 'research_progress' && marks.at(-1)?.[0] !== e.progress.phase)
        marks.push([e.progress.phase, performance.now() - t0]);
      if (e.type === 'research_progress')
        for (const [i, b] of (e.progress.branches ?? []).entries()) {
          const at = performance.now() - t0;
          if (b.status === 'summarising') summarising[i] ??= at;
          if (b.status === 'done' && summarising[i] !== undefined) summarised[i] ??= at;
        }
      if (e.type === 'report') report = e.report;
    }
    const wall = performance.now() - t0;
    const at = (phase: string) => marks.find(([p]) => p === phase)?.[1] ?? wall;
    // Model time as measured in this run: planning, the gap check, writing, verifying.
    const planning = at('searching');
    const evaluatingStart = at('evaluating');
    const writing = at('writing');
    const model = planning + (writing - evaluatingStart) + (wall - writing);
    const sequentialCritical = model + SEARCHES * LATENCY + LATENCY;
    // With sub-researchers each branch runs its one search and its fetch round at once: the critical
    // path is one search and one fetch round (plus the model calls, each branch's summary included).
    const summary = Math.max(0, ...summarised.map((t, i) => t - summarising[i]));
    const critical = subResearchers > 1 ? planning + 2 * LATENCY + summary + (wall - writing) : sequentialCritical;
    return { wall, critical, report };
  };

  await runOnce(4); // warm-up: SDK, sockets
  const overlapped = await runOnce(4);
  const serial = await runOnce(1);
  const f = (ms: number) => `${Math.round(ms)} ms`;
  console.log(`latency per search and per fetch: ${LATENCY} ms; ${SEARCHES} searches × ${PAGES_PER_SEARCH} pages`);
  console.log(`critical path (model calls + ${SEARCHES} searches + one fetch round): ${f(overlapped.critical)}`);
  const times = (x: { wall: number; critical: number }) => (x.wall / x.critical).toFixed(2);
  console.log(
    `wall, pages read 4 at a time while the next search runs: ${f(overlapped.wall)} ` +
      `(${times(overlapped)}× the critical path; target ≤ 1.3×)`,
  );
  console.log(`wall, one page at a time: ${f(serial.wall)} (${times(serial)}×)`);
  // The same plan with one sub-question per query: today's loop vs parallel sub-researchers.
  subs = queries.map((q) => `About ${q.query}?`);
  await runOnce(4, SEARCHES); // warm-up
  const branched = await runOnce(4 * SEARCHES, SEARCHES);
  const sequential = await runOnce(4, 1);
  console.log(
    `same plan, ${SEARCHES} sub-questions: sequential loop ${f(sequential.wall)} ` +
      `(${times(sequential)}× its critical path); ` +
      `${SEARCHES} sub-researchers ${f(branched.wall)} — wall ÷ critical path (one search + one fetch round + ` +
      `model calls) = ${times(branched)} (goal ≤ 1.1); ${(sequential.wall / branched.wall).toFixed(2)}× faster`,
  );
  const r = overlapped.report;
  if (r) {
    if (process.env.RESEARCH_DEBUG) console.log(JSON.stringify(r.verdicts, null, 1));
    const markers = [...r.markdown.matchAll(/\[(\d+)\](?!\()/g)].map((m) => Number(m[1]));
    const resolved = markers.filter((n) => r.sources.some((s) => s.n === n)).length;
    const share = Math.round((100 * r.stats.supported) / Math.max(1, r.stats.claims));
    console.log(
      `citations: ${r.stats.claims} cited claims, ${r.stats.supported} verified against their pages (${share} %), ` +
        `${r.stats.unsupported} marked unsupported, ${r.stats.inventedRemoved} invented citation removed; ` +
        `${resolved}/${markers.length} markers left resolve to a fetched page`,
    );
  }
  await fake.close();
}

void main();
