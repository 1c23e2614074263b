// The research loop through the real OpenAI SDK against the fake LLM (planner, gap check, writer and
// claim checker are real model calls), with scripted search and fetch services: bounds, the time
// budget, parallel reading, abort in every phase, empty searches, and a missing search key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_LIMITS,
  runResearch,
  type ResearchEvent,
  type ResearchLimits,
  type ResearchOutcome,
  type PlannerTarget,
  type ResearchServices,
} from '../../../extension/core/research/loop/research-run';
import { researchRequest } from '../../../extension/core/agent/research-request';
import { claimJudgeFrom } from '../../../extension/core/research/verify';
import { collectText } from '../../../extension/core/research/loop/llm-text';
import type { FetchedPage, SearchResult } from '../../../extension/core/web/types';
import type { ResearchPlanInput } from '../../../extension/protocol';
import type { RunBudget } from '../../../extension/core/usage/budget';
import type { RecordedRequest } from '../../fixtures/fake-llm';
import {
  type AskedRole,
  useResearchModel,
  researchRoleOf,
  type ResearchRole,
} from '../../fixtures/research/research-model';

const model = useResearchModel(['planner', 'gaps', 'writer', 'judge']);
const script = model.script;
const rolesOf = (asked: AskedRole[]) => asked.map((a) => a.role);

const PLAN = (queries: string[]) => ({
  text: JSON.stringify({
    question: 'What changed in the Rust 2024 edition?',
    subQuestions: ['When was it released?', 'What changed?'],
    queries: queries.map((query) => ({ query })),
    expectedOutput: 'A short cited report.',
  }),
});

const PAGES: Record<string, { title: string; text: string }> = {
  'https://a.example/edition': {
    title: 'The Rust 2024 edition',
    text: 'The Rust 2024 edition was released with Rust 1.85 in February 2025. It reserves the gen keyword.',
  },
  'https://b.example/closures': {
    title: 'Async closures',
    text: 'Async closures were stabilised in Rust 1.85 and can borrow from their environment.',
  },
  'https://c.example/survey': {
    title: 'Survey',
    text: 'In the 2024 survey, 45% of respondents said they use Rust at work.',
  },
};

interface Scripted extends ResearchServices {
  searches: string[];
  fetched: string[];
  maxInFlight: number;
}

function services(
  opts: {
    results?: (query: string) => SearchResult[];
    searchDelayMs?: number;
    fetchDelayMs?: number;
    failFetch?: (url: string) => string | undefined;
  } = {},
): Scripted {
  let inFlight = 0;
  const s: Scripted = {
    searches: [],
    fetched: [],
    maxInFlight: 0,
    async search(q, signal) {
      s.searches.push(q.query);
      await sleep(opts.searchDelayMs ?? 0, signal);
      return (
        opts.results?.(q.query) ??
        Object.entries(PAGES).map(([url, p]) => ({ title: p.title, url, snippet: p.text.slice(0, 40), source: 'exa' }))
      );
    },
    async fetchPage(url, signal): Promise<FetchedPage> {
      inFlight++;
      s.maxInFlight = Math.max(s.maxInFlight, inFlight);
      try {
        await sleep(opts.fetchDelayMs ?? 5, signal);
        const why = opts.failFetch?.(url);
        if (why) throw new Error(why);
        const p = PAGES[url] ?? { title: url, text: `Page at ${url}.` };
        s.fetched.push(url);
        return {
          url,
          finalUrl: url,
          title: p.title,
          markdown: p.text,
          text: p.text,
          contentType: 'text/html',
          truncated: false,
          fetchedAt: Date.UTC(2026, 10, 23),
        };
      } finally {
        inFlight--;
      }
    },
  };
  return s;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('aborted'));
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(new Error('aborted'));
      },
      { once: true },
    );
  });
}

async function run(
  svc: ResearchServices,
  limits: Partial<ResearchLimits> = {},
  extra: {
    signal?: AbortSignal;
    judge?: boolean;
    onEvent?: (e: ResearchEvent) => void;
    plan?: ResearchPlanInput;
    budget?: RunBudget;
    price?: { input: number; output: number };
    /** The fast model's price (claim checks). */
    judgePrice?: { input: number; output: number };
    planner?: PlannerTarget;
  } = {},
) {
  const events: ResearchEvent[] = [];
  let n = 0;
  const gen = runResearch({
    question: 'What changed in the Rust 2024 edition?',
    plan: extra.plan,
    services: svc,
    llm: { provider: model.provider(), model: 'fake-model' },
    judge: extra.judge
      ? claimJudgeFrom(
          (req, signal) =>
            collectText({ provider: model.provider(), model: 'fast' }, { system: req.system, user: req.user }, signal),
          extra.judgePrice,
        )
      : undefined,
    limits: { ...DEFAULT_LIMITS, ...limits },
    ...(extra.budget ? { budget: extra.budget } : {}),
    ...(extra.price ? { price: extra.price } : {}),
    ...(extra.planner ? { planner: extra.planner } : {}),
    signal: extra.signal ?? new AbortController().signal,
    now: () => Date.now(),
    newId: () => `id${++n}`,
  });
  let outcome: ResearchOutcome;
  for (;;) {
    const next = await gen.next();
    if (next.done) {
      outcome = next.value;
      break;
    }
    events.push(next.value);
    extra.onEvent?.(next.value);
  }
  const report = events.find((e) => e.type === 'report');
  return { events, outcome, report: report?.type === 'report' ? report.report : undefined };
}

const WRITER = {
  text: [
    '# Rust 2024',
    '## Summary',
    'The Rust 2024 edition was released with Rust 1.85 in February 2025 [1].',
    'Async closures were stabilised in Rust 1.85 [2].',
    '## Key findings',
    '- 45% of respondents said they use Rust at work [3].',
    '- The edition adds a garbage collector [7].',
    '## Conclusion',
    'The edition shipped in February 2025 [1].',
  ].join('\n'),
};

test('a full run: plan, searches, parallel reading, gap check, a streamed draft, a verified report', async () => {
  const asked = await script({
    planner: PLAN(['rust 2024 edition', 'rust 1.85 async closures']),
    gaps: { text: '{"enough": true, "missing": "", "queries": []}' },
    writer: WRITER,
    judge: { text: '{"verdict":"supported","reason":"same facts"}' },
  });
  const svc = services({ fetchDelayMs: 30 });
  const { events, outcome, report } = await run(svc, { fetchConcurrency: 2, pagesPerSearch: 3 }, { judge: true });
  assert.equal(outcome.kind, 'reported');
  assert.deepEqual(svc.searches, ['rust 2024 edition', 'rust 1.85 async closures']);
  // Each URL is read once, however many searches return it; at most 2 at a time, and really in parallel.
  assert.deepEqual([...svc.fetched].sort(), Object.keys(PAGES).sort());
  assert.equal(svc.maxInFlight, 2);
  assert.deepEqual(rolesOf(asked).slice(0, 3), ['planner', 'gaps', 'writer']);
  assert.ok(
    rolesOf(asked)
      .slice(3)
      .every((r) => r === 'judge') && asked.length >= 4,
    rolesOf(asked).join(','),
  );
  // The writer saw the pages, numbered.
  const writerBody = asked.find((a) => a.role === 'writer')?.body ?? '';
  assert.match(writerBody, /Source \[1\]: [^\\]+\\nURL: https:\/\/a\.example\/edition/);
  // The draft streamed as text before the report replaced it.
  const firstDelta = events.findIndex((e) => e.type === 'text_delta');
  const reportAt = events.findIndex((e) => e.type === 'report');
  assert.ok(firstDelta >= 0 && firstDelta < reportAt);
  // Phases in order (reading interleaves with searching, so each phase's first appearance is compared).
  const phases = events.flatMap((e) => (e.type === 'research_progress' ? [e.progress.phase] : []));
  const order = ['planning', 'searching', 'reading', 'evaluating', 'writing', 'verifying', 'done'] as const;
  const firstSeen = order.map((p) => phases.indexOf(p));
  assert.ok(
    firstSeen.every((at, i) => at >= 0 && (i === 0 || at > firstSeen[i - 1])),
    phases.join(' '),
  );
  // The invented [7] was removed; the rest resolve to pages read in this run.
  assert.ok(report);
  assert.doesNotMatch(report.markdown, /\[7\]/);
  assert.equal(report.stats.inventedRemoved, 1);
  assert.equal(report.stats.searches, 2);
  assert.equal(report.stats.sourcesRead, 3);
  assert.ok(report.sources.every((s) => Object.keys(PAGES).includes(s.url)));
  // Every supported claim says what verified it: the model, or a word-for-word passage match.
  assert.equal(report.verdicts.filter((v) => v.verifiedBy !== undefined).length, report.stats.supported);
  assert.equal(report.verdicts.filter((v) => v.verifiedBy === 'judge').length, asked.length - 3);
  assert.ok(report.notes.some((n) => /2 searches and 3 pages read/.test(n)));
  // Cards for every search and page; history gets the final report only.
  assert.equal(events.filter((e) => e.type === 'tool_started' && e.call.name === 'web_search').length, 2);
  assert.equal(events.filter((e) => e.type === 'tool_started' && e.call.name === 'web_fetch').length, 3);
  const history = events.flatMap((e) => (e.type === 'history' ? e.messages : []));
  assert.deepEqual(
    history.map((m) => m.role),
    ['assistant'],
  );
});

test('bounds: at most maxSearches; below minSearches the gap check or the sub-questions add searches', async () => {
  await script({
    planner: PLAN(['q1', 'q2', 'q3', 'q4', 'q5']),
    gaps: { text: '{"enough": true, "queries": []}' },
    writer: { text: 'Rust 1.85 shipped the 2024 edition [1].' },
  });
  const capped = services();
  await run(capped, { maxSearches: 3 });
  assert.deepEqual(capped.searches, ['q1', 'q2', 'q3']);

  await script({
    planner: PLAN(['only one']),
    gaps: { text: '{"enough": false, "missing": "dates", "queries": ["rust 2024 release date", "only one"]}' },
    writer: { text: 'Rust 1.85 shipped the 2024 edition [1].' },
  });
  const topped = services();
  await run(topped, { minSearches: 2, maxSearches: 2 });
  assert.deepEqual(topped.searches, ['only one', 'rust 2024 release date'], 'a repeated query is not run twice');

  // The model says "enough" after one search, but the minimum is 2: the unsearched sub-question goes out.
  await script({
    planner: PLAN(['only one']),
    gaps: { text: '{"enough": true, "queries": []}' },
    writer: { text: 'Rust 1.85 shipped the 2024 edition [1].' },
  });
  const floor = services();
  await run(floor, { minSearches: 2, maxSearches: 5 });
  assert.deepEqual(floor.searches, ['only one', 'When was it released?']);
});

test('the time budget ends the searching; pages being read are kept; the report is partial and says so', async () => {
  await script({
    planner: PLAN(['q1', 'q2', 'q3', 'q4', 'q5', 'q6', 'q7']),
    writer: { text: 'Rust 1.85 shipped the 2024 edition [1].' },
  });
  const slow = services({ searchDelayMs: 120 });
  const plan = JSON.parse(PLAN(['q1', 'q2', 'q3', 'q4', 'q5', 'q6', 'q7']).text);
  const { outcome, report } = await run(slow, { timeBudgetMs: 200, maxSearches: 7 }, { plan });
  assert.equal(outcome.kind, 'reported');
  assert.ok(slow.searches.length < 7, `stopped early (${slow.searches.length} searches)`);
  assert.equal(report?.partial?.reason, 'time');
  assert.ok(report?.notes.some((n) => /^Partial report: The time budget \(0\.2 s\) ended the run after/.test(n)));
});

test('empty searches end cleanly with what is known, without a report or a writer call', async () => {
  const asked = await script({
    planner: PLAN(['nothing here', 'nor here']),
    gaps: { text: '{"enough": false, "queries": []}' },
  });
  const empty = services({ results: () => [] });
  const { outcome, events } = await run(empty, { minSearches: 2 });
  assert.equal(outcome.kind, 'nothing_found');
  assert.ok(!rolesOf(asked).includes('writer'));
  const text = events.flatMap((e) => (e.type === 'text_delta' ? [e.text] : [])).join('');
  assert.match(text, /could not find sources to answer this: 2 searches/);
  assert.match(text, /The search "nothing here" found nothing\./);
  assert.equal(events.filter((e) => e.type === 'report').length, 0);
});

test('a page that cannot be read shows as a failed card and the rest of the run goes on', async () => {
  await script({
    planner: PLAN(['q1']),
    gaps: { text: '{"enough": true, "queries": []}' },
    writer: { text: 'Rust 1.85 shipped the 2024 edition [1].' },
  });
  const svc = services({
    failFetch: (u) => (u.includes('c.example') ? 'refused: 10.0.0.5 is a private address' : undefined),
  });
  const { events, report } = await run(svc, { minSearches: 1 });
  const failed = events.find((e) => e.type === 'tool_updated' && e.call.subject === 'https://c.example/survey');
  assert.equal(failed?.type === 'tool_updated' ? failed.call.status : '', 'error');
  assert.match(failed?.type === 'tool_updated' ? (failed.call.summary ?? '') : '', /not read: refused: 10\.0\.0\.5/);
  assert.equal(report?.stats.sourcesRead, 2);
});

for (const phase of ['planning', 'searching', 'reading', 'writing'] as const) {
  test(`Stop while ${phase}: the run ends aborted, with no report`, async () => {
    await script({
      planner: phase === 'planning' ? { text: '', hang: true } : PLAN(['q1', 'q2']),
      gaps: { text: '{"enough": true, "queries": []}' },
      writer: phase === 'writing' ? { text: 'The Rust 2024 edition', hang: true } : WRITER,
    });
    const ac = new AbortController();
    const svc = services({
      searchDelayMs: phase === 'searching' ? 10_000 : 0,
      fetchDelayMs: phase === 'reading' ? 10_000 : 1,
    });
    const { outcome, events } = await run(
      svc,
      { minSearches: 1 },
      {
        signal: ac.signal,
        onEvent: (e) => {
          const p = e.type === 'research_progress' ? e.progress.phase : e.type === 'text_delta' ? 'writing' : '';
          const now = phase === 'reading' ? e.type === 'tool_started' && e.call.name === 'web_fetch' : p === phase;
          if (now) setTimeout(() => ac.abort(), 20);
        },
      },
    );
    assert.equal(outcome.kind, 'aborted');
    assert.equal(events.filter((e) => e.type === 'report').length, 0);
  });
}

test('no search key: the request fails with what to configure, as a no_key error', async () => {
  await script({});
  const err = Object.assign(new Error('No search API key: run "Sextant: Set Search API Key" or set EXA_API_KEY.'), {
    code: 'no_key',
  });
  const gen = researchRequest({
    question: 'q',
    research: { services: () => Promise.reject(err), limits: () => DEFAULT_LIMITS },
    llm: { provider: model.provider(), model: 'fake-model' },
    signal: new AbortController().signal,
    now: () => Date.now(),
    newId: () => 'x',
  });
  await assert.rejects(gen.next(), (e: Error & { code?: string }) => {
    assert.equal(e.name, 'ProviderError');
    assert.equal(e.code, 'no_key');
    assert.match(e.message, /Set Search API Key/);
    return true;
  });
});

test('a spending cap ends the gathering; the report uses what was read and names the cap', async () => {
  const big = { inputTokens: 5000, outputTokens: 100 };
  const asked = await script({
    planner: { ...PLAN(['rust 2024 edition', 'rust 1.85 async closures']), usage: big },
    // Without a cap these would be searched next.
    gaps: { text: '{"enough": false, "queries": ["rust 2024 survey", "rust gen keyword"]}', usage: big },
    writer: { ...WRITER, usage: big },
  });
  const svc = services();
  const budget: RunBudget = { limits: { maxTokens: 12_000 }, sessionSpent: { tokens: 0, costUsd: 0 } };
  const { outcome, report, events } = await run(svc, {}, { budget, price: { input: 1, output: 2 } });
  // Planning (5,100 tokens) leaves room for the planned searches and one gap check (10,200); one more
  // call like it would pass 12,000, so the gap check's queries are not searched.
  assert.deepEqual(svc.searches, ['rust 2024 edition', 'rust 1.85 async closures']);
  assert.deepEqual(rolesOf(asked).slice(0, 3), ['planner', 'gaps', 'writer']);
  assert.equal(outcome.kind, 'reported');
  const note = report?.notes.find((n) => n.includes('sextant.budget.maxTokens'));
  assert.ok(note, report?.notes.join(' | '));
  assert.match(note, /ended the search after 2 searches and 3 pages/);
  assert.equal(report?.partial?.reason, 'budget', 'written as a partial report by one short call');
  // Cost figures are the summed usage × price.
  const last = events.filter((e) => e.type === 'usage').at(-1);
  assert.ok(last?.type === 'usage');
  assert.equal(last.usage.inputTokens, 15_000);
  assert.equal(last.usage.costUsd, (15_000 * 1 + 300 * 2) / 1_000_000);
});

test('sextant.plannerModel: plan and gap checks on the planner model, the report on the chat model', async () => {
  const asked = await script({
    planner: PLAN(['rust 2024 edition']),
    gaps: { text: '{"enough": true, "queries": []}', usage: { inputTokens: 1000, outputTokens: 100 } },
    writer: { text: 'Rust 1.85 shipped the 2024 edition [1].', usage: { inputTokens: 2000, outputTokens: 200 } },
  });
  const fake = await model.fake();
  const planner: PlannerTarget = {
    llm: { provider: model.provider(), model: 'planner-model', reasoning: 'high' },
    price: { input: 10, output: 100 },
    ref: 'big/planner-model',
  };
  const { events, report } = await run(
    services(),
    { minSearches: 1, maxSearches: 1 },
    {
      planner,
      price: { input: 1, output: 2 },
    },
  );
  assert.deepEqual(rolesOf(asked), ['planner', 'writer']);
  const modelOf = (role: ResearchRole) =>
    (fake.requests.find((r) => researchRoleOf(r) === role)?.body as { model?: string } | undefined)?.model;
  assert.equal(modelOf('planner'), 'planner-model');
  assert.equal(modelOf('writer'), 'fake-model');
  // The planner model's reasoning level goes with its calls only.
  const effortOf = (role: ResearchRole) =>
    (fake.requests.find((r) => researchRoleOf(r) === role)?.body as { reasoning_effort?: string } | undefined)
      ?.reasoning_effort;
  assert.equal(effortOf('planner'), 'high');
  assert.equal(effortOf('writer'), undefined);
  assert.ok(report?.notes.some((n) => n.includes('big/planner-model')));
  // Each call is priced at its own model's price.
  const plannerReq = fake.requests.find((r) => researchRoleOf(r) === 'planner') as RecordedRequest;
  const plannerUsage = events.find((e) => e.type === 'usage');
  assert.ok(plannerUsage?.type === 'usage');
  const u1 = plannerUsage.usage;
  assert.ok(plannerReq && u1.inputTokens > 0);
  const expectedPlanner = (u1.inputTokens * 10 + u1.outputTokens * 100) / 1e6;
  assert.ok(Math.abs((u1.costUsd ?? -1) - expectedPlanner) < 1e-12);
  const last = events.filter((e) => e.type === 'usage').at(-1);
  assert.ok(last?.type === 'usage');
  const writerCost = (2000 * 1 + 200 * 2) / 1e6;
  assert.ok(Math.abs((last.usage.costUsd ?? -1) - (expectedPlanner + writerCost)) < 1e-12);

  // A planner without a known price makes the run's cost unknown, never a partial figure.
  await script({
    planner: PLAN(['rust 2024 edition']),
    writer: { text: 'Rust 1.85 shipped the 2024 edition [1].' },
  });
  const unpriced = await run(
    services(),
    { minSearches: 1, maxSearches: 1 },
    {
      planner: { ...planner, price: undefined },
      price: { input: 1, output: 2 },
    },
  );
  const final = unpriced.events.filter((e) => e.type === 'usage').at(-1);
  assert.ok(final?.type === 'usage' && final.usage.costUsd === undefined);
});

test("the claim checks' calls count in the run's usage, each at the fast model's price", async () => {
  const call = { inputTokens: 1000, outputTokens: 100 };
  const asked = await script({
    planner: { ...PLAN(['rust 2024 edition']), usage: call },
    gaps: { text: '{"enough": true, "queries": []}', usage: call },
    writer: { ...WRITER, usage: call },
    judge: { text: '{"verdict":"supported","reason":"same facts"}', usage: { inputTokens: 500, outputTokens: 20 } },
  });
  const { events } = await run(
    services(),
    { minSearches: 1, maxSearches: 1 },
    { judge: true, price: { input: 1, output: 2 }, judgePrice: { input: 10, output: 20 } },
  );
  const checks = rolesOf(asked).filter((r) => r === 'judge').length;
  const own = asked.length - checks; // the planner and the writer (one search: no gap check)
  assert.ok(checks >= 1 && own >= 2, rolesOf(asked).join(','));
  const last = events.filter((e) => e.type === 'usage').at(-1);
  assert.ok(last?.type === 'usage');
  assert.equal(last.usage.inputTokens, own * 1000 + checks * 500);
  const expected = (own * (1000 * 1 + 100 * 2) + checks * (500 * 10 + 20 * 20)) / 1_000_000;
  assert.ok(Math.abs((last.usage.costUsd ?? -1) - expected) < 1e-12, `${last.usage.costUsd} vs ${expected}`);
  // An unpriced fast model makes the run's cost unknown.
  await script({
    planner: { ...PLAN(['rust 2024 edition']), usage: call },
    gaps: { text: '{"enough": true, "queries": []}', usage: call },
    writer: { ...WRITER, usage: call },
    judge: { text: '{"verdict":"supported"}', usage: { inputTokens: 500, outputTokens: 20 } },
  });
  const unpriced = await run(
    services(),
    { minSearches: 1, maxSearches: 1 },
    { judge: true, price: { input: 1, output: 2 } },
  );
  const final = unpriced.events.filter((e) => e.type === 'usage').at(-1);
  assert.ok(final?.type === 'usage' && final.usage.costUsd === undefined);
});
