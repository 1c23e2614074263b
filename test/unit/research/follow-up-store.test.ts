// Follow-ups survive a restart: a report's sources and their texts are stored with the session (the
// sql.js store), so a follow-up asked after the store is reopened reuses them and fetches nothing
// already read (fetches counted on a fake fetch port). And a citation's quote resolves to the exact
// text of the stored page (its offsets), or to the file's lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_LIMITS,
  runResearch,
  type ResearchEvent,
  type ResearchRunOptions,
  type ResearchServices,
} from '../../../extension/core/research/loop/research-run';
import { ResearchFollowUps } from '../../../extension/core/agent/research-follow-ups';
import { verifyReport } from '../../../extension/core/research/verify';
import type { FetchedPage, SearchResult } from '../../../extension/core/web/types';
import type { Report } from '../../../extension/protocol';
import type { RecordedRequest } from '../../fixtures/fake-llm';
import { useResearchModel } from '../../fixtures/research/research-model';
import { open, tempDir } from '../store/helpers';

const model = useResearchModel();

const PAGES: Record<string, string> = {
  'https://a.example/retries': 'Retries need care.\n\nExponential backoff doubles the wait after each failed attempt.',
  'https://b.example/jitter': 'Adding random jitter to the backoff spreads retries so clients do not retry together.',
  'https://c.example/budget': 'A retry budget limits retries to ten percent of requests.',
};

async function script(writer: string[], queries: string[]): Promise<void> {
  const fake = await model.fake();
  fake.onRequest((r: RecordedRequest) => {
    const b = JSON.stringify(r.body);
    if (b.includes('You plan web research'))
      return {
        text: JSON.stringify({
          question: 'How should our client retry?',
          subQuestions: ['How?'],
          queries: queries.map((query) => ({ query })),
          expectedOutput: 'A cited report.',
        }),
      };
    if (b.includes('You review web research in progress')) return { text: '{"enough": true, "queries": []}' };
    if (b.includes('You write a research report')) return { text: writer.join('\n') };
    return { text: '{"clear": true}' };
  });
}

function web(results: string[]): ResearchServices & { fetched: string[] } {
  const fetched: string[] = [];
  return {
    fetched,
    async search() {
      return results.map((url): SearchResult => ({ title: url, url, snippet: '', source: 'exa' }));
    },
    async fetchPage(url): Promise<FetchedPage> {
      fetched.push(url);
      const text = PAGES[url] ?? '';
      return {
        url,
        finalUrl: url,
        title: url,
        markdown: text,
        text,
        contentType: 'text/html',
        truncated: false,
        fetchedAt: Date.now(),
      };
    },
  };
}

async function run(svc: ResearchServices, extra: Partial<ResearchRunOptions> = {}): Promise<Report | undefined> {
  const events: ResearchEvent[] = [];
  let n = 0;
  const gen = runResearch({
    question: 'How should our client retry?',
    services: svc,
    llm: { provider: model.provider(), model: 'fake-model' },
    limits: { ...DEFAULT_LIMITS, minSearches: 1, maxSearches: 2 },
    signal: new AbortController().signal,
    now: () => Date.now(),
    newId: () => `id${++n}-${Math.random().toString(36).slice(2, 8)}`,
    ...extra,
  });
  for (let next = await gen.next(); !next.done; next = await gen.next()) events.push(next.value);
  const r = events.find((e) => e.type === 'report');
  return r?.type === 'report' ? r.report : undefined;
}

test('a follow-up after reopening the store fetches nothing already read; quotes resolve in stored text', async () => {
  const { dir, cleanup } = tempDir('follow-up');
  try {
    await script(
      [
        '# R',
        '- Exponential backoff doubles the wait after each failed attempt [1].',
        '- A retry budget limits retries to ten percent of requests [2].',
      ],
      ['retry backoff'],
    );
    const first = web(['https://a.example/retries', 'https://c.example/budget']);
    const followUps = new ResearchFollowUps(() => ({}));
    const one = await run(first, { remember: (p) => followUps.remember('s1', p) });
    assert.ok(one);
    assert.deepEqual(first.fetched.sort(), ['https://a.example/retries', 'https://c.example/budget']);

    // The report goes to the store with its sources' texts, as the request runner journals it.
    let store = await open(dir);
    const research = followUps.sourcesOf(one.id);
    assert.ok(research);
    const artifact = { id: one.id, kind: 'report', title: one.title, content: one.markdown, research };
    store.append({ kind: 'artifact', sessionId: 's1', artifact, at: Date.now() });
    await store.close();

    // A restart: nothing in memory, the store reopened.
    store = await open(dir);
    const stored = store.research?.({ sessionId: 's1' });
    await store.close();
    assert.ok(stored);
    assert.equal(stored.reportId, one.id);

    // Every supported claim's quote is the exact text at its offsets in the stored page.
    for (const v of one.verdicts.filter((x) => x.verdict === 'supported')) {
      const p = v.passage;
      assert.ok(p, `${v.claim} keeps its passage`);
      const src: { text: string } | undefined = stored.sources.find((s) => s.n === p.n);
      assert.ok(src);
      assert.equal(src.text.slice(p.start, p.end), p.quote);
    }
    assert.ok(one.verdicts.some((v) => v.verifiedBy === 'passage-match'));

    await script(
      [
        '# Follow-up',
        '- A retry budget limits retries to ten percent of requests [2].',
        '- Adding random jitter to the backoff spreads retries so clients do not retry together [3].',
      ],
      ['retry jitter'],
    );
    const second = web(['https://a.example/retries', 'https://c.example/budget', 'https://b.example/jitter']);
    const two = await run(second, { prior: stored, question: 'And jitter?' });
    assert.ok(two);
    assert.deepEqual(second.fetched, ['https://b.example/jitter'], 'only the page not read before is fetched');
    assert.equal(two.followsReport, one.id);
  } finally {
    cleanup();
  }
});

test("a workspace file's quote resolves to its lines", async () => {
  const file = ['# Retries', '', 'Our HTTP client retries idempotent requests at most three times.', 'Nothing else.'];
  const r = await verifyReport('Our HTTP client retries idempotent requests at most three times [1].', [
    {
      n: 1,
      url: 'file:///docs/retries.md',
      title: 'docs/retries.md',
      path: 'docs/retries.md',
      lines: { start: 10, end: 13 },
      text: file.join('\n'),
      accessedAt: Date.now(),
    },
  ]);
  const p = r.verdicts[0].passage;
  assert.ok(p?.lines);
  assert.deepEqual(p.lines, { start: 12, end: 12 });
  // Line 12 of the file is line 3 of the section that starts at line 10.
  assert.equal(file[p.lines.start - 10], p.quote);
});
