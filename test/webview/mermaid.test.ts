// Mermaid diagrams in the chat (issue 43 item 4), in real Chromium under the view's real CSP: a report's
// flowchart and formula are drawn (screenshot saved to test-results/mermaid.png) — the diagram an <img>
// whose data: SVG holds the node labels and nothing that reaches outside it, with a text alternative,
// a "Show source" toggle and a sideways scroll when it is wide; a broken diagram and an unsupported
// type show their source and the reason, never a blank; a hostile diagram's markup stays text and
// reaches nothing; the renderer's chunk loads only with the first diagram, and an unfinished block still
// streaming stays its source; a theme change redraws it in the theme's colours. Nothing is refused by
// the CSP; axe finds no violation.
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { Report } from '../../extension/protocol';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';
import { REPORT, RequestScript } from './fixtures';
import { axeViolations } from './axe';
import { closeCheckedView, openResearchView } from './research-view';
import { DARK, LIGHT, type Theme } from './themes';

const env = useViewEnvironment();
let view: ViewHarness;
let chunks: string[];

beforeEach(async () => {
  ({ view, chunks } = await openResearchView(env));
});
afterEach(() => closeCheckedView(view));

const mermaidChunks = () => chunks.filter((c) => c.startsWith('mermaid-render'));

/** A 20-node flowchart: a pipeline of ten steps, each with a check beside it. */
const TWENTY = [
  'flowchart TD',
  ...Array.from({ length: 9 }, (_, i) => `  S${i}[Step ${i}] --> S${i + 1}[Step ${i + 1}]`),
  ...Array.from({ length: 10 }, (_, i) => `  S${i} -.-> C${i}{Check ${i}}`),
].join('\n');

const GOOD = [
  '# Retries in practice',
  '## Summary',
  'The expected wait is $w_n = b \\cdot 2^n$ for attempt $n$ [1].',
  '',
  '```mermaid',
  'flowchart LR',
  '  accTitle: The retry loop',
  '  A[Request] --> B{Failed?}',
  '  B -- yes --> C[Wait b·2^n]',
  '  C --> A',
  '  B -- no --> D[Done]',
  '  style D fill:url(https://evil.example/fill.svg)',
  '```',
  '',
  '```mermaid',
  TWENTY,
  '```',
  '',
  '## Sources',
  '1. [Backoff](https://a.example/edition) — accessed 2026-11-23',
].join('\n');

const BROKEN = [
  '# Broken diagrams',
  '## Findings',
  '```mermaid',
  'flowchart TD',
  '  A[Request] -->',
  '```',
  '',
  '```mermaid',
  'gantt',
  '  title Release',
  '  section One',
  '  Build :a1, 2026-01-01, 3d',
  '```',
].join('\n');

async function showReport(markdown: string, id: string): Promise<Locator> {
  const r = new RequestScript(`r-${id}`);
  await deliver(view, r.events(r.started('How do clients retry?', 'research')));
  const report: Report = { ...REPORT, id, title: markdown.split('\n')[0].replace(/^# /, ''), markdown };
  await deliver(view, r.events({ type: 'report', report }, { type: 'complete' }));
  return view.page.getByRole('region', { name: 'Report' });
}

/** Waits until every rich block has settled (drawn or failed), `blocks` of them at least. */
async function settled(page: Page, blocks: number): Promise<void> {
  await page.waitForFunction(
    (n) =>
      document.querySelectorAll('[data-rich="pending"]').length === 0 &&
      document.querySelectorAll('.rich-block, [data-rich="error"]').length >= n,
    blocks,
    { timeout: 60_000 },
  );
}

/** The SVG text behind a diagram's <img>. */
async function svgOf(img: Locator): Promise<string> {
  const src = (await img.getAttribute('src')) ?? '';
  assert.match(src, /^data:image\/svg\+xml;charset=utf-8,/);
  return decodeURIComponent(src.slice(src.indexOf(',') + 1));
}

async function useTheme(page: Page, theme: Theme): Promise<void> {
  await page.evaluate((t) => {
    document.body.classList.remove('vscode-dark', 'vscode-light', 'vscode-high-contrast');
    document.body.classList.add(t.bodyClass);
    for (const [k, v] of Object.entries(t.colors)) document.documentElement.style.setProperty(`--vscode-${k}`, v);
  }, theme);
}

describe('Mermaid diagrams in a report', () => {
  it('draws a flowchart and a formula: an <img> with the labels, alt text, source toggle (screenshot)', async () => {
    assert.deepEqual(mermaidChunks(), [], 'no diagram yet, no renderer');
    const started = Date.now();
    const card = await showReport(GOOD, 'report-mermaid');
    const page = view.page;
    await settled(page, 2);
    // Wall time from the report's delivery to both diagrams drawn (the first loads the chunk): a figure
    // for the report, not a pass mark.
    console.log(`[mermaid] report with a 4- and a 20-node flowchart drawn in ${Date.now() - started} ms`);
    // Each drawing's own time (mermaid-blocks.ts measures it): the first includes the layout engine's start.
    const draws = await page.evaluate(() => performance.getEntriesByName('sextant-diagram').map((e) => e.duration));
    console.log(
      `[mermaid] draw times in ms, in order (4 nodes, then 20): ${draws.map((d) => d.toFixed(1)).join(', ')}`,
    );
    const diagrams = card.getByRole('group', { name: 'Diagram' });
    assert.equal(await diagrams.count(), 2);
    const first = diagrams.nth(0).locator('img');
    assert.equal(await first.getAttribute('alt'), 'Flowchart: The retry loop');
    const svg = await svgOf(first);
    for (const label of ['Request', 'Failed?', 'Wait b·2^n', 'Done']) assert.ok(svg.includes(label), label);
    // Neither the renderer's font import nor the `style … url(https://…)` line reaches outside the picture.
    assert.doesNotMatch(svg, /@import|fonts\.googleapis|evil\.example/);
    assert.doesNotMatch(svg.replace('http://www.w3.org/2000/svg', ''), /https?:\/\//);
    const second = diagrams.nth(1).locator('img');
    assert.match((await second.getAttribute('alt')) ?? '', /^Flowchart: Step 0, Step 1, /);
    const twenty = await svgOf(second);
    for (let i = 0; i < 10; i++) assert.ok(twenty.includes(`>Check ${i}<`) && twenty.includes(`>Step ${i}<`));
    // The picture is drawn (decoded, with a size), not a broken image.
    const natural = await first.evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth));
    assert.ok(natural > 100, `natural width ${natural}`);
    // The formula beside it.
    assert.ok((await card.locator('sx-markdown math').count()) >= 2);
    // The screenshot in a view as wide as an editor tab: the formula and the first diagram.
    await page.setViewportSize({ width: 1000, height: 800 });
    await page.waitForFunction(() => document.documentElement.clientWidth === 1000);
    await card.getByText(/The expected wait is/).evaluate((p) => p.scrollIntoView({ block: 'start' }));
    mkdirSync(join(process.cwd(), 'test-results'), { recursive: true });
    await page.screenshot({ path: join(process.cwd(), 'test-results', 'mermaid.png') });
    await page.setViewportSize({ width: 420, height: 800 });
    await page.waitForFunction(() => document.documentElement.clientWidth === 420);
    // Show source: the toggle is a button, reached with the keyboard, and says whether the source is open.
    const toggle = diagrams.nth(0).getByRole('button', { name: 'Show source' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    const hide = diagrams.nth(0).getByRole('button', { name: 'Hide source' });
    assert.equal(await hide.getAttribute('aria-expanded'), 'true');
    assert.match((await diagrams.nth(0).locator('pre.diagram-source').textContent()) ?? '', /A\[Request\] --> B/);
    // A diagram wider than the view scrolls inside its own box, which takes the focus; the view does not.
    const scroll = diagrams.nth(0).locator('.diagram-scroll');
    const sizes = await scroll.evaluate((s) => ({ scroll: s.scrollWidth, client: s.clientWidth, tab: s.tabIndex }));
    assert.ok(sizes.scroll > sizes.client, `the wide flowchart scrolls: ${JSON.stringify(sizes)}`);
    assert.equal(sizes.tab, 0);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1));
    assert.equal(mermaidChunks().length, 1, chunks.join());
    const a = await axeViolations(page);
    assert.deepEqual(a.violations, [], JSON.stringify(a.violations, null, 1));
  });

  it('a broken diagram and an unsupported type show their source and why, not a blank', async () => {
    const card = await showReport(BROKEN, 'report-mermaid-broken');
    await settled(view.page, 2);
    const errors = card.locator('.rich-error');
    assert.equal(await errors.count(), 2);
    await card
      .getByText('Diagram not drawn: line 2 ("A[Request] -->") ends with an arrow that points to nothing')
      .waitFor();
    await card.getByText(/^Diagram type not supported: gantt\. Supported are flowchart/).waitFor();
    assert.match((await errors.nth(0).locator('pre').textContent()) ?? '', /A\[Request\] -->/);
    assert.match((await errors.nth(1).locator('pre').textContent()) ?? '', /section One/);
    assert.equal(await card.locator('img').count(), 0);
    await card.screenshot({ path: join(process.cwd(), 'test-results', 'mermaid-broken.png') });
    const a = await axeViolations(view.page);
    assert.deepEqual(a.violations, [], JSON.stringify(a.violations, null, 1));
  });

  it('a hostile diagram: markup in labels is text, links and styles reach nothing, nothing runs', async () => {
    const hostile = [
      '# Hostile',
      '',
      '```mermaid',
      'flowchart TD',
      '  A["<img src=x onerror=window.__xss=1>"] --> B["<script>window.__xss=1</script>"]',
      '  click A "javascript:window.__xss=1"',
      '  style B fill:url(https://evil.example/x.svg),stroke:red',
      '  classDef bad fill:url(//evil.example/y)',
      '  class A bad',
      '```',
    ].join('\n');
    const card = await showReport(hostile, 'report-hostile');
    const img = card.getByRole('group', { name: 'Diagram' }).locator('img');
    await img.waitFor();
    const svg = await svgOf(img);
    assert.ok(svg.includes('&lt;img src=x onerror=window.__xss=1&gt;'), 'the label is text');
    // The markup (its text and the renderer's data- copies of labels aside) holds nothing active or remote.
    const markup = svg.replace(/>[^<]*</g, '><').replace(/\sdata-[\w-]+="[^"]*"/g, '');
    assert.doesNotMatch(markup, /<script|<img|javascript:|evil\.example|\son\w+=/i);
    await img.evaluate((el: HTMLImageElement) => el.decode());
    assert.equal(await view.page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss), undefined);
    assert.equal(await card.locator('sx-markdown script, sx-markdown svg').count(), 0);
  });

  it('loads the renderer only with the first diagram; an unfinished block stays source while streaming', async () => {
    const r = new RequestScript('r-stream');
    await deliver(view, r.events(r.started('draw it')));
    await deliver(
      view,
      r.events({ type: 'text_delta', text: 'Here it is:\n\n```mermaid\nflowchart LR\n  A[Ask] --> ' }),
    );
    await deliver(view, r.events({ type: 'text_delta', text: 'B[Answer]\n' }));
    const answer = view.page.getByRole('article', { name: 'Sextant' });
    // Still open: the fence has not closed, so it is code, and nothing was loaded for it.
    assert.match((await answer.locator('pre code').textContent()) ?? '', /A\[Ask\] --> B\[Answer\]/);
    assert.equal(await answer.locator('img').count(), 0);
    assert.deepEqual(mermaidChunks(), []);
    await deliver(view, r.events({ type: 'text_delta', text: '```\n\nDone.' }, { type: 'complete' }));
    const img = answer.getByRole('group', { name: 'Diagram' }).locator('img');
    await img.waitFor();
    assert.match(await svgOf(img), />Ask<[\s\S]*>Answer</);
    assert.equal(mermaidChunks().length, 1);
  });

  it('redraws a diagram in the new theme’s colours when the theme changes', async () => {
    await useTheme(view.page, DARK);
    const card = await showReport('# Theme\n\n```mermaid\ngraph LR\n  A[Dark] --> B[Light]\n```', 'report-theme');
    const img = card.getByRole('group', { name: 'Diagram' }).locator('img');
    await img.waitFor();
    const fg = (t: Theme) => t.colors.foreground.replace(/^#(..)(..)(..)$/, (_, r, g, b) => rgb(r, g, b));
    assert.ok((await svgOf(img)).includes(`--fg:${fg(DARK)}`), (await svgOf(img)).slice(0, 300));
    const redrawn = view.page.evaluate(
      () => new Promise((done) => window.addEventListener('sextant-diagrams-redrawn', done, { once: true })),
    );
    await useTheme(view.page, LIGHT);
    await redrawn;
    assert.ok((await svgOf(img)).includes(`--fg:${fg(LIGHT)}`), (await svgOf(img)).slice(0, 300));
  });
});

const rgb = (r: string, g: string, b: string) =>
  `rgb(${Number.parseInt(r, 16)}, ${Number.parseInt(g, 16)}, ${Number.parseInt(b, 16)})`;
