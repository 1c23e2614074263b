// Stop keeps what was found: a research run stopped mid-run (through the session controller, as the
// view's Stop does) writes a short report from the pages read so far, marked partial, whose every
// [n] resolves to a page fetched before the Stop; a second Stop ends the run without it; a Stop before
// any page was read aborts at once. The real search client against the fake Exa, the real fetch
// pipeline against the local corpus, the real OpenAI SDK against the fake LLM.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as html from '../../../extension/core/web/fetch/html-to-markdown';
import { createPageFetcher } from '../../../extension/core/web/fetch/page-fetcher';
import { DEFAULT_LIMITS } from '../../../extension/core/research/loop/research-run';
import type { ResearchHost } from '../../../extension/core/research/host';
import * as openai from '../../../extension/core/providers/openai';
import type { Report } from '../../../extension/protocol';
import { startFakeLlm, type FakeReply, type RecordedRequest } from '../../fixtures/fake-llm';
import { startFakeExa } from '../../fixtures/research/fake-exa';
import { corpusResolver, startWebCorpus } from '../../fixtures/research/web-corpus';
import { assertEnvelopeInvariants, createHarness } from '../agent/harness';
import { memorySecrets, testClient } from './helpers';

const KEY = 'exa-partial-key-0123456789';

const servers: Array<{ close(): Promise<void> }> = [];
after(async () => {
  for (const s of servers) await s.close();
});

const QUESTION = 'What happened to tidal power, coral reefs and city cycling recently?';
const PLAN = {
  question: QUESTION,
  subQuestions: ['Tidal?', 'Coral?', 'Cycling?'],
  queries: [{ query: 'tidal turbines' }, { query: 'coral bleaching' }, { query: 'bike lanes' }],
  expectedOutput: 'A short cited report.',
};
/** What the writer says about each page it is given, by title. */
const FACTS: Array<[RegExp, string]> = [
  [/Tidal turbines/, 'The four tidal turbines generated 11.4 gigawatt-hours between October and February'],
  [/coral bleached/, 'Half of the hard coral colonies at 63 sites showed bleaching'],
  [/Bike lanes/, 'Lindqvist now has 212 kilometres of protected bike lanes'],
];

interface Setup {
  origin: string;
  fetched: string[];
  requests: RecordedRequest[];
  /** Resolves when the third search starts (both earlier pages read); it then waits for the Stop. */
  thirdSearch: Promise<void>;
  host: ResearchHost;
  llm: ReturnType<typeof openai.createProvider>;
  writer: (reply: (r: RecordedRequest) => FakeReply) => void;
  /** Resolves when the planner is asked. */
  planning: Promise<void>;
}

async function setup(o: { plannerHangs?: boolean } = {}): Promise<Setup> {
  const web = await startWebCorpus();
  servers.push(web);
  const origin = `http://corpus.test:${web.port}`;
  const exa = await startFakeExa({
    key: KEY,
    docs: [
      { title: 'Tidal turbines pass their first winter', url: `${origin}/pages/tidal-energy.html`, snippet: 'tidal' },
      { title: 'Half the reef coral bleached', url: `${origin}/pages/coral-survey.html`, snippet: 'coral bleaching' },
      { title: 'Bike lanes doubled', url: `${origin}/pages/city-cycling.html`, snippet: 'bike lanes' },
    ],
  });
  servers.push(exa);
  const fake = await startFakeLlm();
  servers.push(fake);
  const requests: RecordedRequest[] = [];
  let writerReply: (r: RecordedRequest) => FakeReply = () => ({ text: '' });
  let planned!: () => void;
  const planning = new Promise<void>((r) => (planned = r));
  fake.onRequest((r) => {
    requests.push(r);
    const b = JSON.stringify(r.body);
    if (b.includes('You plan web research')) {
      planned();
      return o.plannerHangs ? { text: '', hang: true } : { text: JSON.stringify(PLAN) };
    }
    if (b.includes('You review web research in progress')) return { text: '{"enough": true, "queries": []}' };
    if (b.includes('You write a research report')) return writerReply(r);
    if (b.includes('You check one claim')) return { text: '{"verdict":"supported"}' };
    return undefined;
  });
  const { client } = testClient({
    providers: ['exa'],
    endpoints: { exa: exa.baseUrl },
    secrets: memorySecrets({ 'sextant.searchApiKey.exa': KEY }),
  });
  const fetcher = createPageFetcher({
    allowPrivateHosts: () => ['corpus.test'],
    loadHtmlConverter: async () => html,
    resolve: corpusResolver,
  });
  const fetched: string[] = [];
  let searches = 0;
  let pagesRead!: () => void;
  const twoPagesRead = new Promise<void>((r) => (pagesRead = r));
  let thirdStarted!: () => void;
  const thirdSearch = new Promise<void>((r) => (thirdStarted = r));
  const host: ResearchHost = {
    services: async () => ({
      search: async (q, signal) => {
        if (++searches === 3) {
          // The third search waits until the first two pages are read, then for the user's Stop.
          await twoPagesRead;
          thirdStarted();
          await new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('stopped'))));
        }
        return (await client.search(q, signal)).results;
      },
      fetchPage: async (url, signal) => {
        const { page } = await fetcher.fetch(url, { signal });
        fetched.push(page.finalUrl);
        if (fetched.length === 2) pagesRead();
        return page;
      },
    }),
    limits: () => ({ ...DEFAULT_LIMITS, minSearches: 3, maxSearches: 3, pagesPerSearch: 1 }),
    judge: async () => async () => {
      throw new Error('a partial report is not sent to the model judge');
    },
  };
  const llm = openai.createProvider({ name: 'fake', kind: 'openai', baseUrl: `${fake.baseUrl}/v1` }, 'sk-partial');
  return { origin, fetched, requests, thirdSearch, host, llm, writer: (f) => (writerReply = f), planning };
}

/** The writer's draft: one sentence per source it was given, citing it, plus an invented [9]. */
function draftFor(r: RecordedRequest): string {
  const user = JSON.stringify(r.body);
  const lines = ['# Tidal, coral and cycling', '## Summary'];
  for (const m of user.matchAll(/Source \[(\d+)\]: ([^\\]+)/g)) {
    const fact = FACTS.find(([title]) => title.test(m[2]))?.[1];
    if (fact) lines.push(`${fact} [${m[1]}].`);
  }
  lines.push('## Conclusion', 'Electric ferries will replace every diesel ferry by 2030 [9].');
  return lines.join('\n');
}

const markers = (markdown: string) =>
  [...markdown.replace(/## Sources[\s\S]*$/, '').matchAll(/\[(\d+)\](?!\()/g)].map((m) => Number(m[1]));

test('Stop mid-run: a partial report from the pages read before it, every [n] one of them', async () => {
  const s = await setup();
  s.writer((r) => ({ text: draftFor(r) }));
  const h = createHarness({ provider: s.llm, research: s.host });
  const sending = h.controller.send('r1', QUESTION, 'research');
  await s.thirdSearch;
  const before = [...s.fetched];
  await h.controller.stop('r1');
  await sending;

  const events = h.envelopes('r1').map((e) => e.event);
  assert.equal(events.at(-1)?.type, 'complete', 'the run ends itself with the report, not aborted');
  const report = events.flatMap((e) => (e.type === 'report' ? [e.report] : []))[0] as Report;
  assert.ok(report, 'a report was delivered');
  assert.equal(report.partial?.reason, 'stopped');
  assert.match(report.partial?.detail ?? '', /^Stopped by you after 3 searches and 2 pages read/);
  assert.ok(report.notes.some((n) => n.startsWith('Partial report: Stopped by you')));
  // Every [n] resolves to a listed source, and every listed source was fetched before the Stop.
  assert.equal(before.length, 2);
  assert.deepEqual(s.fetched, before, 'nothing is fetched after the Stop');
  const ns = markers(report.markdown);
  assert.ok(ns.length >= 2, report.markdown);
  for (const n of ns) {
    const src = report.sources.find((x) => x.n === n);
    assert.ok(src, `[${n}] resolves`);
    assert.ok(before.includes(src.url), `[${n}] ${src.url} was fetched before the Stop`);
  }
  assert.deepEqual(report.sources.map((x) => x.url).sort(), [...before].sort());
  assert.equal(report.stats.inventedRemoved, 1, 'the invented [9] is removed');
  // One short writer call with its own small budget; no judge calls.
  const writers = s.requests.filter((r) => JSON.stringify(r.body).includes('You write a research report'));
  assert.equal(writers.length, 1);
  const body = writers[0].body as { max_tokens?: number; max_completion_tokens?: number };
  assert.equal(body.max_tokens ?? body.max_completion_tokens, 1200);
  assert.match(JSON.stringify(body), /The research was ended early/);
  assert.ok(!s.requests.some((r) => JSON.stringify(r.body).includes('You check one claim')));
  assert.equal(report.stats.claims, 2);
  // Without the judge, only a claim pinned word for word to a page is verified; the others stay unchecked.
  assert.equal(report.stats.supported + report.stats.unchecked, 2);
  assert.ok(report.verdicts.every((v) => v.verdict !== 'supported' || v.verifiedBy === 'passage-match'));
  // The cards of what was searched and read stay; the third search's card says it was stopped.
  const cards = events.flatMap((e) => (e.type === 'tool_updated' ? [e.call] : []));
  assert.deepEqual(
    cards.filter((c) => c.name === 'web_fetch').map((c) => c.status),
    ['ok', 'ok'],
  );
  assert.equal(cards.find((c) => c.subject === 'bike lanes')?.status, 'aborted');
  assertEnvelopeInvariants(h.envelopes());
  // The report is kept as the session's report.
  assert.equal(h.controller.reports()[0]?.id, report.id);
});

test('a second Stop while the partial report is written ends the run without it', async () => {
  const s = await setup();
  let writing!: () => void;
  const writerStarted = new Promise<void>((r) => (writing = r));
  s.writer((r) => {
    writing();
    return { text: draftFor(r), hang: true };
  });
  const h = createHarness({ provider: s.llm, research: s.host });
  const sending = h.controller.send('r2', QUESTION, 'research');
  await s.thirdSearch;
  await h.controller.stop('r2');
  await writerStarted;
  await h.controller.stop('r2');
  await sending;
  const events = h.envelopes('r2').map((e) => e.event);
  assert.equal(events.at(-1)?.type, 'aborted');
  assert.equal(events.filter((e) => e.type === 'report').length, 0);
  assertEnvelopeInvariants(h.envelopes());
});

test('a Stop before any page was read aborts at once', async () => {
  const s = await setup({ plannerHangs: true });
  const h = createHarness({ provider: s.llm, research: s.host });
  const sending = h.controller.send('r3', QUESTION, 'research');
  await s.planning;
  await h.controller.stop('r3');
  await sending;
  const events = h.envelopes('r3').map((e) => e.event);
  assert.equal(events.at(-1)?.type, 'aborted');
  assert.equal(events.filter((e) => e.type === 'report').length, 0);
  assert.deepEqual(s.fetched, []);
});
