// Reports people look at (issue 43 item 4), in real Chromium under the view's real CSP: a research
// report holding inline and display math, a Mermaid diagram (more in mermaid.test.ts), a chart from a
// Markdown table and a wide table draws them (screenshot saved to test-results/rich-blocks.png); a broken
// formula and chart each show their source and the reason, never a blank; KaTeX loads as its own chunk
// only when math appears; nothing is refused by the CSP in the live page; axe finds no violation.
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Report } from '../../extension/protocol';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';
import { REPORT, RequestScript } from './fixtures';
import { axeViolations } from './axe';
import { closeCheckedView, openResearchView } from './research-view';

const env = useViewEnvironment();
let view: ViewHarness;
let chunks: string[];

beforeEach(async () => {
  ({ view, chunks } = await openResearchView(env));
});
afterEach(() => closeCheckedView(view));

const WIDE = `| ${Array.from({ length: 14 }, (_, i) => `Column ${i + 1}`).join(' | ')} |`;
const GOOD = [
  '# Retries in practice',
  '## Summary',
  'The expected wait grows as $w_n = b \\cdot 2^n$ for attempt $n$, and costs $5 or $10 stay prose [1].',
  '',
  '$$',
  '\\sum_{n=0}^{k-1} b \\cdot 2^n = b\\,(2^k - 1)',
  '$$',
  '',
  '```mermaid',
  'flowchart LR',
  '  A[Request] --> B{Failed?}',
  '  B -- yes --> C[Wait b·2^n]',
  '  C --> A',
  '  B -- no --> D[Done]',
  '```',
  '',
  '```chart',
  'title: Retries per client',
  '| Client | Retries |',
  '|---|---|',
  '| curl | 3 |',
  '| OkHttp | 5 |',
  '| Go net/http | 0 |',
  '```',
  '',
  WIDE,
  `|${'---|'.repeat(14)}`,
  `| ${Array.from({ length: 14 }, (_, i) => `VALUE${i + 1}WIDECELLWITHOUTBREAKS`).join(' | ')} |`,
  '',
  '## Sources',
  '1. [Backoff](https://a.example/edition) — accessed 2026-11-23',
].join('\n');

const BROKEN = [
  '# Broken blocks',
  '## Findings',
  'A formula that does not parse: $\\frac{1}{$ inline.',
  '',
  '$$',
  '\\begin{matrix} a & b',
  '$$',
  '',
  '```chart',
  '| Client | Retries |',
  '|---|---|',
  '| curl | many |',
  '```',
].join('\n');

async function showReport(markdown: string, id: string): Promise<void> {
  const r = new RequestScript(`r-${id}`);
  await deliver(view, r.events(r.started('How do clients retry?', 'research')));
  const report: Report = { ...REPORT, id, title: markdown.split('\n')[0].replace(/^# /, ''), markdown };
  await deliver(view, r.events({ type: 'report', report }, { type: 'complete' }));
}

/** Waits until no block is waiting for its chunk (each settles drawn or failed). */
async function settled(page: Page, blocks: number): Promise<void> {
  await page.waitForFunction(
    (n) =>
      document.querySelectorAll('[data-rich="pending"]').length === 0 &&
      document.querySelectorAll('.rich-block, [data-rich="error"]').length >= n,
    blocks,
    { timeout: 30_000 },
  );
}

describe('math, diagrams and charts in a report', () => {
  it('draws math, a diagram, a chart and a scrolling wide table (screenshot)', async () => {
    await showReport(GOOD, 'report-rich');
    const page = view.page;
    await settled(page, 3);
    const card = page.getByRole('region', { name: 'Report' });
    // The Mermaid block is a picture (mermaid.test.ts checks it closely).
    const diagram = card.getByRole('group', { name: 'Diagram' }).locator('img');
    assert.match((await diagram.getAttribute('alt')) ?? '', /^Flowchart: Request, Failed\?/);
    // Math: inline and display, as MathML; the prices stay prose.
    const inline = card.locator('sx-markdown math:not([display="block"])');
    assert.ok((await inline.count()) >= 2);
    const display = card.getByRole('group', { name: 'Formula' }).locator('math[display="block"]');
    assert.equal(await display.count(), 1);
    assert.ok(((await display.boundingBox())?.height ?? 0) > 15);
    await card.getByText(/costs \$5 or \$10 stay prose/).waitFor();
    // The chart: one bar per row, each value printed.
    const chart = card.getByRole('group', { name: 'Chart' }).getByRole('img', { name: 'Retries per client' });
    assert.equal(await chart.locator('rect[class^="chart-series"]').count(), 3);
    assert.match((await chart.textContent()) ?? '', /curl.*3.*OkHttp.*5/s);
    // The wide table scrolls inside the card, not the view, and takes the focus for the arrow keys.
    const table = card.locator('table');
    const sizes = await table.evaluate((t) => ({ scroll: t.scrollWidth, client: t.clientWidth, tab: t.tabIndex }));
    assert.ok(sizes.scroll > sizes.client, `the table overflows and scrolls: ${JSON.stringify(sizes)}`);
    assert.equal(sizes.tab, 0);
    const page_ = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
    assert.ok(page_, 'the view itself does not scroll sideways');
    // KaTeX came as a chunk of its own.
    assert.ok(
      chunks.some((c) => c.startsWith('math-render')),
      chunks.join(),
    );
    mkdirSync(join(process.cwd(), 'test-results'), { recursive: true });
    await card.screenshot({ path: join(process.cwd(), 'test-results', 'rich-blocks.png') });
    const a = await axeViolations(page);
    assert.deepEqual(a.violations, [], JSON.stringify(a.violations, null, 1));
  });

  it('a broken formula and chart show their source and why, not a blank', async () => {
    await showReport(BROKEN, 'report-broken');
    const page = view.page;
    await settled(page, 3);
    const card = page.getByRole('region', { name: 'Report' });
    const errors = card.locator('.rich-error');
    assert.equal(await errors.count(), 2);
    await card.getByText(/^Formula could not be drawn: .+/).waitFor();
    await card.getByText(/^Chart could not be drawn: row 1, column "Retries" is not a number: "many"/).waitFor();
    // Each source is there, as written.
    assert.match((await errors.nth(0).locator('pre').textContent()) ?? '', /\\begin\{matrix\} a & b/);
    assert.match((await errors.nth(1).locator('pre').textContent()) ?? '', /\| curl \| many \|/);
    // The inline formula stays as its TeX, marked, with the reason as its title.
    const inline = card.locator('code.rich-error-inline');
    assert.equal(await inline.textContent(), '\\frac{1}{');
    assert.match((await inline.getAttribute('title')) ?? '', /Formula could not be typeset/);
    await card.screenshot({ path: join(process.cwd(), 'test-results', 'rich-blocks-broken.png') });
    const a = await axeViolations(page);
    assert.deepEqual(a.violations, [], JSON.stringify(a.violations, null, 1));
  });

  it('an answer without math does not load KaTeX', async () => {
    await showReport('# Plain\n\nNo math here, it costs $5 and $10 [1].', 'report-plain');
    await view.page
      .getByRole('region', { name: 'Report' })
      .getByText(/costs \$5 and \$10/)
      .waitFor();
    assert.deepEqual(
      chunks.filter((c) => /^math-render/.test(c)),
      [],
    );
  });
});
