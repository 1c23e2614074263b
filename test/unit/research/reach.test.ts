// Research that reaches further (issue 28), through the real OpenAI SDK against the fake LLM with
// scripted search and fetch services: clarifying questions (answered, and skipped with "Just go"),
// the workspace as cited sources (two Markdown files and a PDF, with line ranges that resolve; a
// secret file not read), a mixed run, a domain filter against a search that ignores it, parallel
// sub-researchers sharing one page cache and stopping together, and a follow-up that fetches nothing
// already read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { homedir } from 'node:os';
import * as path from 'node:path';
import {
  DEFAULT_LIMITS,
  runResearch,
  type ResearchEvent,
  type ResearchOutcome,
  type ResearchRunOptions,
  type ResearchServices,
} from '../../../extension/core/research/loop/research-run';
import type { PriorResearch } from '../../../extension/core/research/loop/research-run-types';
import { ResearchStop } from '../../../extension/core/research/loop/research-stop';
import { createWorkspaceSources } from '../../../extension/core/research/workspace/workspace-sources';
import { createPolicy } from '../../../extension/core/permissions';
import { declaredToolFacts } from '../../../extension/core/tools/registry';
import { extractPdfPages } from '../../../extension/core/tools/util/pdf';
import type { FetchedPage, SearchResult } from '../../../extension/core/web/types';
import type { Question, Report } from '../../../extension/protocol';
import type { RecordedRequest } from '../../fixtures/fake-llm';
import { useResearchModel } from '../../fixtures/research/research-model';
import { createNodePorts, makeTempWorkspace, repoFile } from '../../fixtures/node-ports';

const model = useResearchModel();
const script = model.script;
const bodyText = (r: RecordedRequest) => JSON.stringify(r.body);

const plan = (o: { subQuestions?: string[]; queries: string[]; files?: string[] }) => ({
  text: JSON.stringify({
    question: 'How should our client retry?',
    subQuestions: o.subQuestions ?? ['What do our docs say?'],
    queries: o.queries.map((query) => ({ query })),
    expectedOutput: 'A cited report.',
    ...(o.files ? { files: o.files } : {}),
  }),
});

const PAGES: Record<string, string> = {
  'https://a.example/retries': 'Exponential backoff doubles the wait after each failed attempt, up to a cap.',
  'https://b.example/jitter': 'Adding random jitter to the backoff spreads retries so clients do not retry together.',
  'https://c.example/budget': 'A retry budget limits retries to ten percent of requests.',
};

interface Scripted extends ResearchServices {
  searches: string[];
  fetched: string[];
}

function services(
  o: { results?: (q: string) => string[]; fetchDelayMs?: number; gate?: Promise<void> } = {},
): Scripted {
  const s: Scripted = {
    searches: [],
    fetched: [],
    async search(q) {
      s.searches.push(q.query);
      const urls = o.results?.(q.query) ?? Object.keys(PAGES);
      return urls.map((url): SearchResult => ({ title: url, url, snippet: '', source: 'exa' }));
    },
    async fetchPage(url, signal): Promise<FetchedPage> {
      s.fetched.push(url);
      if (o.gate) await o.gate;
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(resolve, o.fetchDelayMs ?? 2);
        const onAbort = () => {
          clearTimeout(t);
          reject(new Error('aborted'));
        };
        signal.addEventListener('abort', onAbort, { once: true });
      });
      const text = PAGES[url] ?? `Page at ${url}.`;
      return {
        url,
        finalUrl: url,
        title: `Page ${new URL(url).hostname}`,
        markdown: text,
        text,
        contentType: 'text/html',
        truncated: false,
        fetchedAt: Date.now(),
      };
    },
  };
  return s;
}

async function run(svc: ResearchServices, extra: Partial<ResearchRunOptions> = {}) {
  const events: ResearchEvent[] = [];
  let n = 0;
  const gen = runResearch({
    question: 'How should our client retry?',
    services: svc,
    llm: { provider: model.provider(), model: 'fake-model' },
    limits: { ...DEFAULT_LIMITS, minSearches: 1, maxSearches: 4 },
    signal: new AbortController().signal,
    now: () => Date.now(),
    newId: () => `id${++n}`,
    ...extra,
  });
  let outcome: ResearchOutcome;
  for (;;) {
    const next = await gen.next();
    if (next.done) {
      outcome = next.value;
      break;
    }
    events.push(next.value);
  }
  const r = events.find((e) => e.type === 'report');
  return { events, outcome, report: r?.type === 'report' ? (r.report as Report) : undefined };
}

// ---- clarify ------------------------------------------------------------------------------------

const CLARIFY = {
  text: JSON.stringify({
    clear: false,
    questions: [
      { question: 'Which client?', options: ['The HTTP client', 'The queue consumer'] },
      { question: 'Anything else to know?', options: [] },
    ],
  }),
};

test('clarify: the questions go through the ask form with "Just go"; the answers join the brief', async () => {
  const asked = await script({
    clarify: CLARIFY,
    planner: plan({ queries: ['retry backoff'] }),
    writer: { text: '# Retries\n\nExponential backoff doubles the wait after each failed attempt [1].' },
  });
  const shown: Question[][] = [];
  const { report } = await run(services({ results: () => ['https://a.example/retries'] }), {
    clarify: {
      ask: async (questions) => {
        shown.push(questions);
        return [{ selected: ['The HTTP client'] }, { selected: [], other: 'We use Node 22' }];
      },
    },
  });
  assert.equal(shown.length, 1);
  assert.deepEqual(
    shown[0][0].options.map((o) => o.label),
    ['The HTTP client', 'The queue consumer', 'Just go'],
  );
  // A free-text question: "Just go" beside the form's own "Other".
  assert.deepEqual(
    shown[0][1].options.map((o) => o.label),
    ['Just go'],
  );
  const planner = asked.find((a) => a.role === 'planner');
  assert.match(planner?.body ?? '', /The user clarified:.*Which client\? The HTTP client.*We use Node 22/);
  assert.deepEqual(asked.map((a) => a.role).slice(0, 2), ['clarify', 'planner']);
  assert.ok(report?.notes.some((n) => /clarified before searching/.test(n)));
});

test('clarify: "Just go" skips the answers; a clear question asks nothing', async () => {
  let asked = await script({
    clarify: CLARIFY,
    planner: plan({ queries: ['retry backoff'] }),
    writer: { text: '# R' },
  });
  const { report } = await run(services({ results: () => ['https://a.example/retries'] }), {
    clarify: { ask: async () => [{ selected: ['Just go'] }, { selected: ['Just go'] }] },
  });
  assert.doesNotMatch(asked.find((a) => a.role === 'planner')?.body ?? '', /clarified/);
  assert.ok(report?.notes.some((n) => /skipped \("Just go"\)/.test(n)));

  asked = await script({
    clarify: { text: '{"clear": true}' },
    planner: plan({ queries: ['q'] }),
    writer: { text: '#' },
  });
  let calls = 0;
  await run(services({ results: () => ['https://a.example/retries'] }), {
    clarify: {
      ask: async () => {
        calls++;
        return [];
      },
    },
  });
  assert.equal(calls, 0);
  assert.equal(asked[0].role, 'clarify');
});

// ---- the workspace as a source ---------------------------------------------------------------

const RETRIES_MD = [
  '# Retry policy',
  '',
  'Our HTTP client retries idempotent requests at most three times.',
  'Each retry waits twice as long as the one before, starting at 200 milliseconds.',
  '',
  '## Not retried',
  '',
  'Requests that failed with a 4xx status are never retried.',
].join('\n');
const TIMEOUTS_MD = [
  '# Timeouts',
  '',
  'Every request has a deadline of 30 seconds, retries included.',
  'The queue consumer retries a message five times before it goes to the dead letter queue.',
].join('\n');

async function workspace() {
  const root = await makeTempWorkspace({
    'docs/retries.md': RETRIES_MD,
    'docs/timeouts.md': TIMEOUTS_MD,
    'specs/sample.pdf': readFileSync(repoFile('test/fixtures/files/sample.pdf')),
    // A secret the policy refuses: it matches the words but is never read.
    '.env': 'RETRY_TOKEN=retries-secret-value retries deadline',
    'src/app.ts': 'export const retries = 3; // retries deadline',
  });
  await fs.mkdir(path.join(root, '.git'), { recursive: true });
  const ports = createNodePorts({ root });
  const policy = createPolicy({ workspaceFolders: [root], home: homedir(), tools: declaredToolFacts() });
  const sources = createWorkspaceSources({ ws: ports.workspace, rgPath: undefined, policy: () => policy });
  return { root, sources };
}

/** The lines a workspace source cites, read from the file itself (a PDF through the same extractor). */
function citedLines(root: string, s: Report['sources'][number]): string {
  assert.ok(s.path && s.lines, `a workspace source: ${JSON.stringify(s)}`);
  const abs = path.join(root, s.path);
  const lines = s.path.endsWith('.pdf')
    ? extractPdfPages(readFileSync(abs)).flatMap((p) => [...p.split('\n'), ''])
    : readFileSync(abs, 'utf8').split('\n');
  return lines.slice(s.lines.start - 1, s.lines.end).join('\n');
}

test('a workspace-only run cites two Markdown files and a PDF by path and lines that resolve', async () => {
  const { root, sources: ws } = await workspace();
  const asked = await script({
    planner: plan({
      queries: ['retry policy deadline'],
      files: ['docs/retries.md', 'docs/timeouts.md', 'specs/sample.pdf', '.env', 'not/listed.md'],
    }),
    writer: {
      text: [
        '# Retries',
        '## Key findings',
        '- Our HTTP client retries idempotent requests at most three times [1].',
        '- Every request has a deadline of 30 seconds, retries included [2].',
        '- Totals: 42 apples, 7 pears [3].',
      ].join('\n'),
    },
  });
  const svc = services();
  const { report, events } = await run({ ...svc, workspace: ws }, { scope: 'workspace' });
  assert.ok(report);
  // Nothing went to the web.
  assert.deepEqual(svc.searches, []);
  assert.deepEqual(svc.fetched, []);
  // The planner saw the workspace's files (not the secret: the listing is what it may pick from).
  const plannerBody = asked.find((a) => a.role === 'planner')?.body ?? '';
  assert.match(plannerBody, /docs\/retries\.md/);
  assert.match(plannerBody, /specs\/sample\.pdf/);
  assert.deepEqual(
    report.sources.map((s) => s.path),
    ['docs/retries.md', 'docs/timeouts.md', 'specs/sample.pdf'],
  );
  assert.equal(report.stats.supported, 3, JSON.stringify(report.verdicts));
  for (const [k, s] of report.sources.entries()) {
    const text = citedLines(root, s);
    const claim = report.verdicts[k].claim.replace(/\s*\[\d+\]\.?$/, '');
    const words = claim.split(/\W+/).filter((w) => w.length > 4);
    assert.ok(
      words.every((w) => text.toLowerCase().includes(w.toLowerCase())),
      `${s.path} lines ${s.lines?.start}–${s.lines?.end} hold "${claim}"`,
    );
  }
  assert.match(report.markdown, /\[docs\/retries\.md \(lines 1–8\)\]\(docs\/retries\.md#L1-L8\)/);
  assert.equal(report.scope, 'workspace');
  // The secret was never read; each workspace read is a read_file card.
  const reads = events.filter((e) => e.type === 'tool_started' && e.call.name === 'read_file');
  assert.ok(reads.length >= 3);
  assert.ok(!report.sources.some((s) => s.path === '.env'));
  assert.ok(!JSON.stringify(events).includes('retries-secret-value'));
});

test('a mixed run cites a web page and a workspace file side by side', async () => {
  const { sources: ws } = await workspace();
  await script({
    planner: plan({ queries: ['retry backoff jitter'], files: ['docs/retries.md'] }),
    // The web page's number is whatever the run gave it: the writer reads it from its sources.
    writer: (r) => {
      const web = /Source \[(\d+)\]: Page b\.example/.exec(bodyText(r))?.[1];
      return {
        text: [
          '# Retries',
          '- Our HTTP client retries idempotent requests at most three times [1].',
          `- Adding random jitter to the backoff spreads retries so clients do not retry together [${web}].`,
        ].join('\n'),
      };
    },
  });
  const svc = services({ results: () => ['https://b.example/jitter'] });
  const { report } = await run({ ...svc, workspace: ws }, { scope: 'both' });
  assert.ok(report);
  assert.deepEqual(svc.fetched, ['https://b.example/jitter']);
  assert.equal(report.sources.length, 2);
  assert.equal(report.sources[0].path, 'docs/retries.md');
  assert.equal(report.sources[1].url, 'https://b.example/jitter');
  assert.equal(report.stats.supported, 2, JSON.stringify(report.verdicts));
});

// ---- source filters -----------------------------------------------------------------------------

test('a domain filter drops a host the search returns anyway; the report shows the filters', async () => {
  await script({ planner: plan({ queries: ['retry backoff'] }), writer: { text: '# R\n\nBackoff doubles [1].' } });
  const svc = services();
  const { report } = await run(svc, { filters: { excludeDomains: ['b.example'], recencyDays: 30 } });
  assert.ok(report);
  assert.deepEqual(svc.fetched.sort(), ['https://a.example/retries', 'https://c.example/budget']);
  assert.deepEqual(report.filters, { excludeDomains: ['b.example'], recencyDays: 30 });
  assert.ok(
    report.notes.some((n) =>
      /Source filters: Exclude domains: b\.example; Published within: 30 days \(1 search/.test(n),
    ),
    report.notes.join('\n'),
  );
});

// ---- parallel sub-researchers ------------------------------------------------------------------

test('sub-researchers run in parallel, share the page cache and hand findings to the writer', async () => {
  const asked = await script({
    planner: plan({ subQuestions: ['Backoff?', 'Jitter?', 'Budget?'], queries: ['backoff', 'jitter', 'budget'] }),
    findings: (r) => ({ text: `- finding for ${/Your sub-question: (\w+)/.exec(bodyText(r))?.[1]} [1]` }),
    writer: { text: '# R\n\nExponential backoff doubles the wait after each failed attempt [1].' },
  });
  // Every branch's search returns the same first page: it is fetched once.
  const svc = services({ results: (q) => ['https://a.example/retries', `https://${q}.example/x`] });
  const { report, events } = await run(svc, {
    limits: { ...DEFAULT_LIMITS, minSearches: 1, maxSearches: 6, subResearchers: 3 },
  });
  assert.ok(report);
  assert.deepEqual([...svc.searches].sort(), ['backoff', 'budget', 'jitter']);
  assert.equal(svc.fetched.filter((u) => u === 'https://a.example/retries').length, 1);
  assert.equal(svc.fetched.length, 4);
  assert.equal(asked.filter((a) => a.role === 'findings').length, 3);
  const writer = asked.find((a) => a.role === 'writer')?.body ?? '';
  assert.match(writer, /Findings of the sub-researchers/);
  assert.match(writer, /finding for Backoff/);
  // The progress view shows each branch, ending done.
  const last = events.filter((e) => e.type === 'research_progress' && e.progress.branches).at(-1);
  assert.ok(last?.type === 'research_progress');
  assert.deepEqual(
    last.progress.branches?.map((b) => [b.question, b.status]),
    [
      ['Backoff?', 'done'],
      ['Jitter?', 'done'],
      ['Budget?', 'done'],
    ],
  );
  // No gap check in this mode: each branch summarises instead.
  assert.ok(!asked.some((a) => a.role === 'gaps'));
});

test('Stop ends every sub-researcher together and the partial report uses what was read', async () => {
  await script({
    planner: plan({
      subQuestions: ['Backoff?', 'Jitter?'],
      queries: ['backoff', 'jitter', 'more backoff', 'more jitter'],
    }),
    findings: { text: '- f [1]' },
    writer: { text: '# Partial\n\nExponential backoff doubles the wait after each failed attempt [1].' },
  });
  const stop = new ResearchStop();
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  // The first page is read at once; every other read waits until after the Stop.
  const svc = services({
    results: (q) => [q === 'backoff' ? 'https://a.example/retries' : `https://x.example/${q.replace(/ /g, '-')}`],
  });
  // Reads and the branches' second searches wait on the gate (so they are in flight when Stop lands).
  const held = <T>(s: AbortSignal, work: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      s.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      void gate.then(() => (s.aborted ? undefined : work().then(resolve, reject)));
    });
  const slow: ResearchServices = {
    search: (q, s) => (q.query.startsWith('more') ? held(s, () => svc.search(q, s)) : svc.search(q, s)),
    fetchPage: (url, s) => (url.includes('a.example') ? svc.fetchPage(url, s) : held(s, () => svc.fetchPage(url, s))),
  };
  const events: ResearchEvent[] = [];
  let stopped = false;
  const gen = runResearch({
    question: 'How should our client retry?',
    services: slow,
    llm: { provider: model.provider(), model: 'fake-model' },
    limits: { ...DEFAULT_LIMITS, minSearches: 1, maxSearches: 6, subResearchers: 2 },
    stop,
    signal: new AbortController().signal,
    now: () => Date.now(),
    newId: () => 'x',
  });
  for (;;) {
    const n = await gen.next();
    if (n.done) break;
    events.push(n.value);
    const e = n.value;
    if (!stopped && e.type === 'tool_updated' && e.call.name === 'web_fetch' && e.call.status === 'ok') {
      stopped = true;
      assert.equal(stop.request(), true);
      release();
    }
  }
  const report = events.find((e) => e.type === 'report');
  assert.ok(report?.type === 'report');
  assert.equal(report.report.partial?.reason, 'stopped');
  assert.equal(report.report.sources[0]?.url, 'https://a.example/retries');
  const last = events.filter((e) => e.type === 'research_progress' && e.progress.branches).at(-1);
  assert.ok(last?.type === 'research_progress');
  assert.ok(
    last.progress.branches?.every((b) => b.status === 'stopped'),
    JSON.stringify(last.progress.branches),
  );
  // The searches and reads in flight were stopped with the branches: none of them finished.
  assert.ok(!svc.searches.some((q) => q.startsWith('more')), svc.searches.join(', '));
  assert.deepEqual(svc.fetched, ['https://a.example/retries']);
  const aborted = events.filter((e) => e.type === 'tool_updated' && e.call.status === 'aborted');
  assert.ok(aborted.length >= 2, `${aborted.length} cards aborted`);
});

// ---- follow-ups ---------------------------------------------------------------------------------

test('a follow-up reuses the sources already read (no second fetch) and keeps their numbers', async () => {
  await script({
    planner: plan({ queries: ['retry backoff'] }),
    gaps: { text: '{"enough": true, "queries": []}' },
    writer: {
      text: [
        '# R',
        '- Exponential backoff doubles the wait after each failed attempt, up to a cap [1].',
        '- A retry budget limits retries to ten percent of requests [2].',
      ].join('\n'),
    },
  });
  let prior: PriorResearch | undefined;
  const first = services({ results: () => ['https://a.example/retries', 'https://c.example/budget'] });
  const one = await run(first, { remember: (p) => (prior = p) });
  assert.ok(one.report && prior);
  assert.equal(prior.sources.length, 2);

  const asked = await script({
    planner: plan({ queries: ['retry jitter'] }),
    gaps: { text: '{"enough": true, "queries": []}' },
    writer: {
      text: [
        '# Follow-up',
        '- A retry budget limits retries to ten percent of requests [2].',
        '- Adding random jitter to the backoff spreads retries so clients do not retry together [3].',
      ].join('\n'),
    },
  });
  // The search returns the old pages again and one new one: only the new one is fetched.
  const second = services({
    results: () => ['https://a.example/retries', 'https://c.example/budget', 'https://b.example/jitter'],
  });
  const two = await run(second, { prior, question: 'And jitter?' });
  assert.ok(two.report);
  assert.deepEqual(second.fetched, ['https://b.example/jitter']);
  // Old sources keep their numbers; the new one comes after them.
  assert.deepEqual(
    two.report.sources.map((s) => [s.n, s.url]),
    [
      [2, 'https://c.example/budget'],
      [3, 'https://b.example/jitter'],
    ],
  );
  assert.equal(two.report.stats.supported, 2, JSON.stringify(two.report.verdicts));
  assert.equal(two.report.followsReport, one.report.id);
  assert.match(asked.find((a) => a.role === 'planner')?.body ?? '', /Earlier report \(this is a follow-up\)/);
  // Without clarifying: a follow-up continues at once.
  assert.ok(!asked.some((a) => a.role === 'clarify'));
});
