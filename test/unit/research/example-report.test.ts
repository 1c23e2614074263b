// The sample report in docs/examples/, made the way a user's report is made — the real search client
// against a fake Exa, the real fetch pipeline (guard, Readability, Markdown) against the local web
// corpus, the researcher and the claim checker through the real OpenAI SDK against the fake LLM — and
// checked against what is committed. SEXTANT_UPDATE_EXAMPLES=1 writes it anew.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as html from '../../../extension/core/web/fetch/html-to-markdown';
import { createPageFetcher } from '../../../extension/core/web/fetch/page-fetcher';
import { DEFAULT_LIMITS, runResearch } from '../../../extension/core/research/loop/research-run';
import { collectText } from '../../../extension/core/research/loop/llm-text';
import { claimJudgeFrom } from '../../../extension/core/research/verify';
import { exportReport } from '../../../extension/core/store/export-report';
import * as openai from '../../../extension/core/providers/openai';
import type { Report } from '../../../extension/protocol';
import { startFakeLlm } from '../../fixtures/fake-llm';
import { startFakeExa } from '../../fixtures/research/fake-exa';
import { corpusResolver, startWebCorpus } from '../../fixtures/research/web-corpus';
import { ROOT } from '../store/helpers';
import { memorySecrets, testClient } from './helpers';

const AT = Date.UTC(2026, 10, 23, 9, 0, 0);
const KEY = 'exa-example-key-0123456789';
const DIR = join(ROOT, 'docs', 'examples');

const LABEL =
  "> **Sample output.** Made by Sextant's research loop with a *fake model* (scripted replies) against a " +
  '*local test corpus* (test/fixtures/research/pages, served on this machine) and a fake search API — not a ' +
  'real web search. It shows the report format, the numbered sources and the verification notes; the ' +
  "facts are the test pages' own. Regenerate with `SEXTANT_UPDATE_EXAMPLES=1 node test/run-unit.mjs example-report`.";

const servers: Array<{ close(): Promise<void> }> = [];
after(async () => {
  for (const s of servers) await s.close();
});

async function makeReport(): Promise<{ report: Report; origin: string }> {
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
      {
        title: 'Link listing',
        url: `${origin}/pages/link-listing.html`,
        snippet: 'Tidal energy links and reading list.',
      },
    ],
  });
  servers.push(exa);
  const fake = await startFakeLlm();
  servers.push(fake);
  fake.onRequest((r) => {
    const b = JSON.stringify(r.body);
    if (b.includes('You plan web research'))
      return {
        text: JSON.stringify({
          question: 'How did the Pentland tidal turbines perform in their first winter?',
          subQuestions: ['How much energy did they deliver?', 'How often were they stopped?', 'What comes next?'],
          queries: [{ query: 'tidal turbines first winter energy' }, { query: 'tidal turbines stopped storm' }],
          expectedOutput: 'A short cited report on output, availability and plans.',
        }),
      };
    if (b.includes('You review web research in progress')) return { text: '{"enough": true, "queries": []}' };
    if (b.includes('You write a research report'))
      return {
        text: [
          '# The Pentland tidal turbines after their first winter',
          '',
          '## Summary',
          '',
          'The four turbines off the Pentland Skerries generated 11.4 gigawatt-hours between October and ' +
            'February [1]. The array stayed online for 96 per cent of the period [1].',
          '',
          '## Key findings',
          '',
          '- The turbines were stopped twice, once for a faulty pitch actuator and once during Storm Ingrid [1].',
          '- No strain gauge recorded more than sixty per cent of the design load [1].',
          '- Output beat the forecast by 25 per cent [1].',
          '- The turbines will power every home in Scotland by 2030 [3].',
          '',
          '## Conclusion',
          '',
          'The first winter went better than feared; the company plans twelve more turbines by 2029 [1]. ' +
            'More detail is at https://example.invalid/tidal-summary.',
        ].join('\n'),
      };
    // The fast model's check: the page says "roughly nine per cent", not 25.
    if (b.includes('You check one claim'))
      return b.includes('Claim: Output beat the forecast by 25 per cent')
        ? { text: '{"verdict":"unsupported","reason":"the page says roughly nine per cent"}' }
        : { text: '{"verdict":"supported","reason":"the page states it"}' };
    return undefined;
  });
  const llm = {
    provider: openai.createProvider({ name: 'fake', kind: 'openai', baseUrl: `${fake.baseUrl}/v1` }, 'sk-example'),
    model: 'fake-model',
  };
  const secrets = memorySecrets({ 'sextant.searchApiKey.exa': KEY });
  const { client } = testClient({ providers: ['exa'], endpoints: { exa: exa.baseUrl }, secrets });
  const fetcher = createPageFetcher({
    allowPrivateHosts: () => ['corpus.test'],
    loadHtmlConverter: async () => html,
    resolve: corpusResolver,
    now: () => AT,
  });
  let report: Report | undefined;
  const gen = runResearch({
    question: 'How did the Pentland tidal turbines perform in their first winter?',
    services: {
      search: async (q, signal) => (await client.search(q, signal)).results,
      fetchPage: async (url, signal) => (await fetcher.fetch(url, { signal })).page,
    },
    llm,
    judge: claimJudgeFrom((req, signal) => collectText(llm, req, signal)),
    limits: { ...DEFAULT_LIMITS, minSearches: 2, maxSearches: 2, pagesPerSearch: 2 },
    signal: new AbortController().signal,
    now: () => AT,
    newId: () => 'example',
  });
  for (;;) {
    const n = await gen.next();
    if (n.done) break;
    if (n.value.type === 'report') report = n.value.report;
  }
  assert.ok(report, 'a report was delivered');
  return { report, origin };
}

/** The corpus runs on a random port: the example names it without one. */
function portless(text: string, origin: string): string {
  return text.split(origin).join('http://corpus.test');
}

test('the sample report in docs/examples/ is what the research loop makes today', async () => {
  const { report, origin } = await makeReport();
  // What the example shows, checked whatever the files say.
  assert.deepEqual(
    report.sources.map((s) => s.title),
    ['Tidal turbines pass their first winter'],
  );
  assert.equal(report.stats.inventedRemoved, 1);
  assert.equal(report.stats.unfetchedUrlsRemoved, 1);
  if (process.env.SEXTANT_DEBUG) console.log(JSON.stringify(report.verdicts, null, 1));
  assert.equal(report.stats.unsupported, 1, 'the 25 per cent claim is not on the page');
  const files = {
    'research-report.md': `${LABEL}\n\n${exportReport(report, 'markdown', { now: AT })}`,
    'research-report.html': exportReport(report, 'html', { now: AT }),
    'research-report.json': exportReport(report, 'json', { now: AT }),
  };
  if (process.env.SEXTANT_UPDATE_EXAMPLES) {
    mkdirSync(DIR, { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(join(DIR, name), portless(text, origin));
    return;
  }
  for (const [name, text] of Object.entries(files)) {
    const file = join(DIR, name);
    assert.ok(existsSync(file), `${file} is committed (SEXTANT_UPDATE_EXAMPLES=1 writes it)`);
    assert.equal(readFileSync(file, 'utf8'), portless(text, origin), `${name} is out of date`);
  }
});
