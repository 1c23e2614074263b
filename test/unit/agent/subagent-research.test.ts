// The built-in `researcher` sub-agent runs Research mode's loop, not web tools: through the real
// controller, the real OpenAI SDK against the fake LLM (the parent, the research planner, the gap
// check, the writer and the claim checker are all real model calls), the real search client against a
// fake Exa and the real page fetcher against the local web corpus (test/fixtures/research). The parent's
// task result is the verified report with its sources (an invented citation removed); the card's Stop
// mid-research keeps a partial report; the sub-agent's cost cap ends its gathering and its spending is
// in the parent's run usage. One test runs in Plan mode (read-only): research only reads.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as html from '../../../extension/core/web/fetch/html-to-markdown';
import { createPageFetcher } from '../../../extension/core/web/fetch/page-fetcher';
import { DEFAULT_LIMITS, type ResearchLimits } from '../../../extension/core/research/loop/research-run';
import { collectText } from '../../../extension/core/research/loop/llm-text';
import { claimJudgeFrom } from '../../../extension/core/research/verify';
import type { ResearchHost } from '../../../extension/core/research/host';
import * as openai from '../../../extension/core/providers/openai';
import { builtinTools, createToolRegistry } from '../../../extension/core/tools/registry';
import { SubagentStops } from '../../../extension/core/agent/task-tool';
import type { Mode, SubagentView } from '../../../extension/protocol';
import type { SearchQuery } from '../../../extension/core/web/types';
import { startFakeLlm, type FakeReply, type RecordedRequest } from '../../fixtures/fake-llm';
import { startFakeExa } from '../../fixtures/research/fake-exa';
import { corpusResolver, startWebCorpus } from '../../fixtures/research/web-corpus';
import { memorySecrets, testClient } from '../research/helpers';
import { assertEnvelopeInvariants, createHarness } from './harness';

const KEY = 'exa-subagent-key-0123456789';
const QUESTION = 'How did the Pentland tidal turbines perform in their first winter?';

const servers: Array<{ close(): Promise<void> }> = [];
after(async () => {
  for (const s of servers) await s.close();
});

type Role = 'parent' | 'planner' | 'gaps' | 'writer' | 'judge';
function roleOf(r: RecordedRequest): Role | undefined {
  const b = JSON.stringify(r.body);
  if (b.includes('You plan web research')) return 'planner';
  if (b.includes('You review web research in progress')) return 'gaps';
  if (b.includes('You write a research report')) return 'writer';
  if (b.includes('You check one claim')) return 'judge';
  if (b.includes('system for ')) return 'parent';
  return undefined;
}
const parentHasResult = (r: RecordedRequest) => JSON.stringify(r.body).includes('"role":"tool"');
/** The text of the parent's tool results (the task's summary). */
function toolResultText(r: RecordedRequest): string {
  const messages = (r.body as { messages: Array<{ role: string; content: unknown }> }).messages;
  return messages
    .filter((m) => m.role === 'tool')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');
}

const PLAN = (queries: string[]): FakeReply => ({
  text: JSON.stringify({
    question: QUESTION,
    subQuestions: ['How much energy did they deliver?', 'How often were they stopped?'],
    queries: queries.map((query) => ({ query })),
    expectedOutput: 'A short cited report.',
  }),
  usage: { inputTokens: 1_000, outputTokens: 100 },
});
const WRITER: FakeReply = {
  text: [
    '# The Pentland tidal turbines after their first winter',
    '',
    '## Summary',
    '',
    'The four turbines off the Pentland Skerries generated 11.4 gigawatt-hours between October and February [1].',
    '',
    '## Key findings',
    '',
    '- The array stayed online for 96 per cent of the period [1].',
    '- The turbines will power every home in Scotland by 2030 [3].',
  ].join('\n'),
  usage: { inputTokens: 2_000, outputTokens: 200 },
};

async function setup(o: {
  mode: Mode;
  planQueries: string[];
  limits?: Partial<ResearchLimits>;
  maxCostUsd?: number;
  gaps?: FakeReply;
  /** Searches after this many hang until their signal ends (a Stop). */
  hangAfterSearches?: number;
}) {
  const web = await startWebCorpus();
  servers.push(web);
  const origin = `http://corpus.test:${web.port}`;
  const exa = await startFakeExa({
    key: KEY,
    docs: [
      {
        title: 'Tidal turbines pass their first winter',
        url: `${origin}/pages/tidal-energy.html`,
        snippet: 'Tidal turbines off the Pentland Skerries generated 11.4 GWh in their first winter.',
      },
    ],
  });
  servers.push(exa);
  const fake = await startFakeLlm();
  servers.push(fake);
  const roles: Role[] = [];
  fake.onRequest((r) => {
    const role = roleOf(r);
    if (role) roles.push(role);
    if (role === 'parent')
      return parentHasResult(r)
        ? { text: 'Here is what the researcher found.', usage: { inputTokens: 500, outputTokens: 20 } }
        : {
            toolCalls: [
              {
                id: 'task-1',
                name: 'task',
                arguments: { description: 'tidal research', prompt: QUESTION, subagent_type: 'researcher' },
              },
            ],
            usage: { inputTokens: 500, outputTokens: 20 },
          };
    if (role === 'planner') return PLAN(o.planQueries);
    if (role === 'gaps') return o.gaps ?? { text: '{"enough": true, "queries": []}' };
    if (role === 'writer') return WRITER;
    if (role === 'judge') return { text: '{"verdict":"supported","reason":"the page states it"}' };
    return undefined;
  });
  const provider = openai.createProvider({ name: 'fake', kind: 'openai', baseUrl: `${fake.baseUrl}/v1` }, 'sk-t');
  const llm = { provider, model: 'm' };
  const { client } = testClient({
    providers: ['exa'],
    endpoints: { exa: exa.baseUrl },
    secrets: memorySecrets({ 'sextant.searchApiKey.exa': KEY }),
  });
  const fetcher = createPageFetcher({
    allowPrivateHosts: () => ['corpus.test'],
    loadHtmlConverter: async () => html,
    resolve: corpusResolver,
    now: () => Date.UTC(2026, 10, 26),
  });
  const searches: string[] = [];
  const research: ResearchHost = {
    services: async () => ({
      search: async (q: SearchQuery, signal: AbortSignal) => {
        searches.push(q.query);
        if (o.hangAfterSearches !== undefined && searches.length > o.hangAfterSearches)
          await new Promise((_, reject) =>
            signal.addEventListener('abort', () => reject(new Error('search stopped')), { once: true }),
          );
        return (await client.search(q, signal)).results;
      },
      fetchPage: async (url, signal) => (await fetcher.fetch(url, { signal })).page,
    }),
    limits: () => ({ ...DEFAULT_LIMITS, minSearches: 1, maxSearches: 3, pagesPerSearch: 2, ...o.limits }),
    judge: async () => claimJudgeFrom((req, signal) => collectText(llm, req, signal)),
    // The composer's picker says workspace: the researcher sub-agent still searches the web.
    scope: () => 'workspace',
  };
  const stops = new SubagentStops();
  const all = createToolRegistry(builtinTools());
  const readOnly = createToolRegistry(builtinTools().filter((t) => t.modes.includes('plan')));
  const h = createHarness({
    provider,
    toolsFor: (mode) => (mode === 'agent' ? all : mode === 'plan' ? readOnly : undefined),
    research,
    subagents: {
      limits: { maxConcurrent: () => 4, maxSteps: () => 10, maxCostUsd: () => o.maxCostUsd },
      stops,
    },
  });
  const card = (): SubagentView | undefined =>
    h
      .envelopes()
      .flatMap((e) => (e.event.type === 'subagent_updated' ? [e.event.subagent] : []))
      .at(-1);
  const cardId = () =>
    h
      .envelopes()
      .flatMap((e) => (e.event.type === 'subagent_updated' ? [e.event.callId] : []))
      .at(-1);
  const lastParent = () => fake.requests.filter((r) => roleOf(r) === 'parent').at(-1);
  return { h, fake, roles, searches, origin, stops, card, cardId, lastParent };
}

test('the researcher sub-agent runs the research loop; the parent gets the verified, cited report', async () => {
  const s = await setup({ mode: 'agent', planQueries: ['tidal turbines first winter'] });
  await s.h.controller.send('r1', 'Research the Pentland turbines', 'agent');
  assertEnvelopeInvariants(s.h.envelopes());
  assert.equal(s.h.envelopes('r1').at(-1)?.event.type, 'complete');
  // The loop's own calls, not a model with web tools: planner, writer, a claim check per claim.
  assert.ok(s.roles.includes('planner') && s.roles.includes('writer') && s.roles.includes('judge'), `${s.roles}`);
  assert.deepEqual(s.searches, ['tidal turbines first winter']);
  const result = toolResultText(s.lastParent() as RecordedRequest);
  assert.match(result, /Sub-agent researcher finished; its verified research report/);
  assert.match(result, /11\.4 gigawatt-hours/);
  assert.ok(result.includes(`${s.origin}/pages/tidal-energy.html`), 'the cited source by URL');
  // The invented citation [3] (no such source) did not survive verification.
  assert.match(result, /1 invented citations removed/);
  assert.doesNotMatch(result, /every home in Scotland by 2030 \[3\]/);
  const card = s.card();
  assert.equal(card?.status, 'done');
  assert.equal(card?.name, 'researcher');
  assert.ok(card?.steps.some((x) => x.kind === 'tool' && x.name === 'web_search' && x.status === 'ok'));
  assert.ok(card?.steps.some((x) => x.kind === 'tool' && x.name === 'web_fetch' && x.status === 'ok'));
  assert.ok(card?.steps.some((x) => x.kind === 'text' && /Checking every citation/.test(x.text)));
  assert.ok((card?.modelCalls ?? 0) >= 3);
});

test("in Plan mode the card's Stop mid-research keeps a partial report from the pages read", async () => {
  const s = await setup({
    mode: 'plan',
    planQueries: ['tidal turbines first winter', 'tidal turbines stopped storm'],
    hangAfterSearches: 1,
  });
  const sent = s.h.controller.send('r1', 'Research the Pentland turbines', 'plan');
  // Wait for the first page read and the second search hanging.
  await waitUntil(
    () =>
      s.searches.length === 2 &&
      Boolean(s.card()?.steps.some((x) => x.kind === 'tool' && x.name === 'web_fetch' && x.status === 'ok')),
  );
  assert.equal(s.h.controller.stopSubagent(s.cardId() ?? ''), true);
  await sent;
  assert.equal(s.h.envelopes('r1').at(-1)?.event.type, 'complete', 'the parent went on');
  assert.equal(s.card()?.status, 'stopped');
  const result = toolResultText(s.lastParent() as RecordedRequest);
  assert.match(result, /Sub-agent researcher stopped early \(Stopped by you after 2 searches/);
  assert.ok(result.includes(`${s.origin}/pages/tidal-energy.html`));
  assert.equal(s.stops.running, 0);
});

test("the parent's Stop during research aborts the researcher and the run", async () => {
  const s = await setup({ mode: 'agent', planQueries: ['tidal turbines first winter'], hangAfterSearches: 0 });
  const sent = s.h.controller.send('r1', 'Research the Pentland turbines', 'agent');
  await waitUntil(() => s.searches.length === 1);
  await s.h.controller.stop('r1');
  await sent;
  assertEnvelopeInvariants(s.h.envelopes());
  assert.equal(s.h.envelopes('r1').at(-1)?.event.type, 'aborted');
  assert.equal(s.card()?.status, 'stopped');
  assert.ok(!s.roles.includes('writer'), 'nothing was written after the Stop');
});

test("the researcher's cost cap ends its gathering; its spending is in the parent's run", async () => {
  // Prices $1 / $2 per million tokens. The planner costs $0.0012; the gap check $0.1 (asking for more);
  // with a $0.05 cap the next search does not go out and the report is written from what was read.
  const s = await setup({
    mode: 'agent',
    planQueries: ['tidal turbines first winter'],
    maxCostUsd: 0.05,
    gaps: { text: '{"enough": false, "queries": ["tidal turbines 2027 plans"]}', usage: { inputTokens: 100_000 } },
  });
  await s.h.controller.send('r1', 'Research the Pentland turbines', 'agent');
  assert.deepEqual(s.searches, ['tidal turbines first winter'], 'the gap check’s query never ran');
  const card = s.card();
  assert.equal(card?.status, 'budget');
  const result = toolResultText(s.lastParent() as RecordedRequest);
  assert.match(result, /stopped early \(The budget \(/);
  assert.ok(result.includes(`${s.origin}/pages/tidal-energy.html`));
  const runUsage = s.h
    .envelopes('r1')
    .filter((e) => e.event.type === 'usage')
    .at(-1)?.event;
  assert.ok(runUsage?.type === 'usage');
  const sub = card?.usage?.inputTokens ?? 0;
  assert.ok(sub >= 100_000, `the researcher spent ${sub} input tokens`);
  assert.ok(runUsage.usage.inputTokens >= 1_000 + sub, 'the run counts the parent and the researcher');
});

async function waitUntil(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !cond(); i++) await new Promise((r) => setTimeout(r, 2));
  assert.ok(cond(), 'condition never held');
}
