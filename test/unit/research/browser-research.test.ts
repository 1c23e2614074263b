// Research mode's read-only browser: the browser tools it is offered are exactly navigate, snapshot and
// close (clicking, typing, screenshots and the console are refused); a page whose fetch yields almost no
// text (a JavaScript app's shell) is read again in the browser after the user allows its origin — asked
// once per origin per run — and its snapshot text is the source the report cites; a "no" keeps the
// fetched text. The loop runs through the real OpenAI SDK against the fake LLM.
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_LIMITS,
  runResearch,
  type ResearchEvent,
  type ResearchServices,
} from '../../../extension/core/research/loop/research-run';
import {
  type PageBrowser,
  RESEARCH_BROWSER_TOOLS,
  researchBrowserTools,
  toolPageBrowser,
} from '../../../extension/core/research/browser-reader';
import { createBrowserTools } from '../../../extension/core/tools/browser/tools';
import { BrowserSessions } from '../../../extension/core/tools/browser/session';
import { toolsWithWeb } from '../../../extension/core/research/tool-set';
import type { FetchedPage } from '../../../extension/core/web/types';
import { useResearchModel } from '../../fixtures/research/research-model';
import { createNodePorts } from '../../fixtures/node-ports';

const model = useResearchModel();
beforeEach(() =>
  model.script({
    planner: {
      text: JSON.stringify({
        question: 'What does the shop sell?',
        subQuestions: ['What is for sale?'],
        queries: [{ query: 'shop products' }],
        expectedOutput: 'A short cited report.',
      }),
    },
    gaps: { text: '{"enough": true, "queries": []}' },
    writer: { text: 'The shop sells blue teapots [1].' },
  }),
);

function launchRefused(): BrowserSessions {
  return new BrowserSessions({
    allowPrivateHosts: () => [],
    settings: () => ({ headless: true }),
    loadBackend: async () => {
      throw new Error('no browser in this test');
    },
  });
}

test('Research mode is offered browser_navigate, browser_snapshot and browser_close; the rest is refused', async () => {
  const tools = createBrowserTools({ sessions: launchRefused() });
  assert.deepEqual(
    researchBrowserTools(tools).map((t) => t.name),
    [...RESEARCH_BROWSER_TOOLS],
  );
  assert.deepEqual(
    tools
      .filter((t) => t.modes.includes('agent'))
      .map((t) => t.name)
      .sort(),
    [
      'browser_click',
      'browser_close',
      'browser_console',
      'browser_navigate',
      'browser_screenshot',
      'browser_snapshot',
      'browser_type',
    ],
  );
  // The Research-mode tool set with the web tools holds the same three browser tools.
  const research = toolsWithWeb('research', { trusted: true }, tools).filter((t) => t.name.startsWith('browser_'));
  assert.ok(
    research.every((t) => RESEARCH_BROWSER_TOOLS.includes(t.name)),
    research.map((t) => t.name).join(),
  );
  const browser = toolPageBrowser(tools, createNodePorts({ root: process.cwd() }), 'r1');
  const signal = new AbortController().signal;
  for (const name of ['browser_click', 'browser_type', 'browser_screenshot', 'browser_console'])
    await assert.rejects(browser.run(name, { ref: 'e1', text: 'x' }, signal), /is not offered in Research mode/);
  await browser.close();
});

const SHELL = 'https://shop.example/';
const SHELL2 = 'https://shop.example/catalogue';

function services(): ResearchServices & { fetched: string[] } {
  const fetched: string[] = [];
  return {
    fetched,
    async search() {
      return [SHELL, SHELL2].map((url) => ({ title: 'Shop', url, snippet: 'shop', source: 'exa' as const }));
    },
    async fetchPage(url): Promise<FetchedPage> {
      fetched.push(url);
      // A JavaScript app: the static HTML has no readable text.
      return {
        url,
        finalUrl: url,
        title: 'Shop',
        markdown: 'Loading…',
        text: 'Loading…',
        contentType: 'text/html',
        truncated: false,
        fetchedAt: Date.UTC(2026, 10, 28),
      };
    },
  };
}

function fakeBrowser(): PageBrowser & { read: PageBrowser['read']; opened: string[]; closed: number } {
  const b = {
    opened: [] as string[],
    closed: 0,
    async read(url: string) {
      b.opened.push(url);
      return {
        url,
        text: `Opened ${url}.\n- heading "Blue teapots" [level=1]\n- text: ${'We sell blue teapots. '.repeat(30)}`,
      };
    },
    async run(): Promise<never> {
      throw new Error('not used');
    },
    async close() {
      b.closed++;
    },
  };
  return b;
}

async function research(svc: ResearchServices, approve: (url: string, origin: string) => Promise<boolean>) {
  const events: ResearchEvent[] = [];
  const asked: string[] = [];
  let n = 0;
  const gen = runResearch({
    question: 'What does the shop sell?',
    services: svc,
    llm: { provider: model.provider(), model: 'fake-model' },
    limits: { ...DEFAULT_LIMITS, minSearches: 1, maxSearches: 1 },
    approveBrowse: async (url, origin) => {
      asked.push(origin);
      return approve(url, origin);
    },
    signal: new AbortController().signal,
    now: () => Date.now(),
    newId: () => `id${++n}`,
  });
  for (;;) {
    const next = await gen.next();
    if (next.done) break;
    events.push(next.value);
  }
  const report = events.find((e) => e.type === 'report');
  return { events, asked, report: report?.type === 'report' ? report.report : undefined };
}

test('a thin page is read in the browser after its origin is allowed (asked once); the report cites it', async () => {
  const browser = fakeBrowser();
  const svc = { ...services(), browser };
  const { events, asked, report } = await research(svc, async () => true);
  assert.deepEqual(asked, ['https://shop.example'], 'one question for the origin, though two pages were read');
  assert.deepEqual(browser.opened.sort(), [SHELL2, SHELL].sort());
  const cards = events.flatMap((e) =>
    e.type === 'tool_updated' && e.call.name === 'browser_navigate' ? [e.call] : [],
  );
  assert.equal(cards.length, 2);
  assert.ok(cards.every((c) => c.status === 'ok' && /read in the browser/.test(c.preview ?? '')));
  assert.ok(report, 'a report');
  // The writer read the browser's text (the fetch had only "Loading…").
  const fake = await model.fake();
  const writer = fake.requests.find((r) => JSON.stringify(r.body).includes('You write a research report'));
  assert.match(JSON.stringify(writer?.body), /We sell blue teapots/);
  assert.ok(report.sources.some((s) => s.url === SHELL || s.url === SHELL2));
  assert.equal(browser.closed, 1, "the run's browser closes when the run ends");
});

test('when the user says no, the fetched text stays and the browser opens nothing', async () => {
  const browser = fakeBrowser();
  const { events, asked } = await research({ ...services(), browser }, async () => false);
  assert.deepEqual(asked, ['https://shop.example']);
  assert.deepEqual(browser.opened, []);
  const cards = events.flatMap((e) =>
    e.type === 'tool_updated' && e.call.name === 'browser_navigate' ? [e.call] : [],
  );
  assert.ok(cards.length >= 1 && cards.every((c) => c.status === 'error' && /did not allow/.test(c.summary ?? '')));
});
