// The Usage panel in real Chromium, under the real HTML shell and CSP (buildWebviewHtml view 'usage'): it
// asks for the last 7 days, draws the host's report as two SVG charts (role="img" with a summary), a legend
// and a table; the range, metric, stacking and grouping controls; CSV export through the host; only typed
// messages accepted; axe-core finds no violation at all. With SEXTANT_DOCS_SCREENSHOT=1 it also refreshes
// docs/screenshot-usage.webp.
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { useViewEnvironment, type ViewHarness } from './harness';
import { pngToWebp } from '../fixtures/chromium';
import { DARK } from './themes';
import { buildReport, resolveRange } from '../../extension/core/usage/usage-report';
import type { UsageCell, UsageSummary } from '../../extension/core/store/usage-query';
import type { UsageInbound, UsageRange, UsageReport } from '../../extension/protocol';

const env = useViewEnvironment();
let view: ViewHarness;
const axeSource = readFileSync(createRequire(__filename).resolve('axe-core/axe.min.js'), 'utf8');
const NOW = Date.UTC(2026, 10, 29, 15);

beforeEach(async () => {
  view = await env.open({ path: '/usage', ready: 'usageReady' });
});
afterEach(async () => {
  assert.deepEqual(await view.violations(), [], 'no CSP violation');
  assert.deepEqual(view.pageErrors, []);
  assert.deepEqual(view.foreignRequests, []);
  await view.close();
});

/** A week of a developer's usage: agent chats with sub-agents and the reviewer, a research run, a compaction. */
function weekReport(range: UsageRange = { preset: '7d' }): UsageReport {
  const resolved = resolveRange(range, NOW, 0);
  const today = resolved.toDay;
  const cells: UsageCell[] = [];
  const put = (
    dayAgo: number,
    model: string,
    mode: string,
    source: UsageCell['key']['source'],
    label: string,
    cost: number,
  ) =>
    cells.push({
      day: today - dayAgo,
      key: { model, mode, source, label, workspace: dayAgo % 2 ? '/home/me/sextant' : '/home/me/api' },
      inputTokens: Math.round(cost * 300_000),
      cachedTokens: Math.round(cost * 100_000),
      outputTokens: Math.round(cost * 20_000),
      costUsd: cost,
      unpriced: 0,
      entries: 3,
    });
  for (let d = 0; d < 7; d++) {
    put(d, 'anthropic/claude-sonnet-4', 'agent', 'chat', '', 0.4 + d * 0.11);
    if (d % 2 === 0) put(d, 'minimax/MiniMax-M2.1', 'agent', 'subagent', 'explorer', 0.25 + d * 0.05);
    put(d, 'openai/gpt-5-mini', 'agent', 'reviewer', '', 0.03);
  }
  put(2, 'anthropic/claude-sonnet-4', 'research', 'research', 'searching', 0.6);
  put(2, 'anthropic/claude-sonnet-4', 'research', 'research', 'writing', 0.35);
  put(4, 'anthropic/claude-sonnet-4', 'agent', 'compaction', '', 0.08);
  cells.push({ ...cells[0], key: { ...cells[0].key, model: 'local/llama' }, costUsd: 0, unpriced: 2 });
  const sessions = ['Fix the flaky parser test', 'Research: HTTP caching', 'Plan the 0.2 release'].map((title, i) => ({
    sessionId: `s${i}`,
    title,
    inputTokens: 900_000 - i * 200_000,
    cachedTokens: 200_000,
    outputTokens: 40_000,
    costUsd: 3 - i,
    unpriced: 0,
    entries: 10,
  }));
  const summary: UsageSummary = { cells, sessions, sessionCount: 3 };
  return buildReport(summary, range, resolved, 4.2);
}

async function show(report: UsageReport): Promise<void> {
  await view.host({ type: 'usageReport', report });
  await view.page.getByRole('table').waitFor();
}

const posts = async () => (await view.posts()) as unknown as UsageInbound[];

async function axe(): Promise<Array<{ id: string; impact: string | null; nodes: number }>> {
  await view.page.evaluate(axeSource);
  return view.page.evaluate(async () => {
    const a = (
      window as unknown as {
        axe: {
          run(
            d: Document,
            o: unknown,
          ): Promise<{ violations: Array<{ id: string; impact: string | null; nodes: unknown[] }> }>;
        };
      }
    ).axe;
    const r = await a.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
}

describe('Usage view', () => {
  it('asks for the last 7 days, then draws the charts, the legend and the table from the report', async () => {
    assert.ok((await posts()).some((p) => p.type === 'usageQuery' && p.range.preset === '7d'));
    const report = weekReport();
    await show(report);
    const page = view.page;
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Usage');
    const charts = page.getByRole('img');
    assert.equal(await charts.count(), 2);
    const bars = (await charts.nth(0).getAttribute('aria-label')) ?? '';
    assert.match(bars, /^Cost per day, 2026-11-23 to 2026-11-29, stacked by source: Chat \$\d/);
    assert.match(bars, /Sub-agents \$.*Auto-mode reviewer \$.*Research \$.*Compaction \$/);
    assert.equal((await charts.nth(0).locator('rect').count()) > 7, true, 'stacked bars drawn');
    assert.deepEqual(await page.getByRole('list', { name: 'Legend' }).getByRole('listitem').allTextContents(), [
      'Chat',
      'Sub-agents',
      'Auto-mode reviewer',
      'Research',
      'Compaction',
    ]);
    // The table: a row per source (sub-agents and research phases apart), most expensive first, and a total.
    const rows = page.getByRole('table').locator('tbody tr');
    assert.equal(await rows.count(), report.groups.source.length);
    assert.equal(await rows.first().locator('th').textContent(), 'Chat');
    assert.ok((await page.getByRole('table').locator('tbody th').allTextContents()).includes('Research: searching'));
    assert.match((await page.getByRole('table').locator('tfoot').textContent()) ?? '', /Total\s*\$\d+\.\d\d/);
    assert.match(
      (await page.getByRole('status').textContent()) ?? '',
      /^Usage 2026-11-23 to 2026-11-29: \$.*unknown price/,
    );
  });

  it('groups by model, session or day; stacks by model; shows tokens', async () => {
    await show(weekReport());
    const page = view.page;
    await page.getByLabel('Group by').selectOption('model');
    await page.getByRole('heading', { name: 'By model' }).waitFor();
    assert.deepEqual(await page.getByRole('table').locator('tbody th').allTextContents(), [
      'anthropic/claude-sonnet-4',
      'minimax/MiniMax-M2.1',
      'openai/gpt-5-mini',
      'local/llama',
    ]);
    assert.match(
      (await page.getByRole('table').locator('tbody tr').last().textContent()) ?? '',
      /\+\?/,
      'unpriced marked',
    );
    await page.getByLabel('Group by').selectOption('session');
    assert.deepEqual(await page.getByRole('table').locator('tbody th').allTextContents(), [
      'Fix the flaky parser test',
      'Research: HTTP caching',
      'Plan the 0.2 release',
    ]);
    await page.getByLabel('Stack by').selectOption('model');
    await page.getByRole('list', { name: 'Legend' }).getByText('minimax/MiniMax-M2.1').waitFor();
    await page.getByLabel('Show').selectOption('tokens');
    assert.match((await page.getByRole('img').first().getAttribute('aria-label')) ?? '', /^Tokens per day/);
  });

  it('a range change asks the host again; a custom range needs both days; Export posts the range', async () => {
    await show(weekReport());
    const page = view.page;
    await page.getByLabel('Range').selectOption('30d');
    await view.waitForPost(
      'usageQuery' as never,
      ((m: UsageInbound) => m.type === 'usageQuery' && m.range.preset === '30d') as never,
    );
    await page.getByLabel('Range').selectOption('custom');
    await page.getByRole('textbox', { name: 'From' }).fill('2026-11-01');
    await page.getByRole('textbox', { name: 'To' }).fill('2026-11-10');
    await page.getByRole('button', { name: 'Show' }).click();
    const custom = (await posts()).find((p) => p.type === 'usageQuery' && p.range.preset === 'custom');
    assert.deepEqual(custom, { type: 'usageQuery', range: { preset: 'custom', from: '2026-11-01', to: '2026-11-10' } });
    await page.getByRole('button', { name: 'Export CSV…' }).click();
    const exp = (await posts()).find((p) => p.type === 'usageExport');
    assert.deepEqual(exp, { type: 'usageExport', range: { preset: 'custom', from: '2026-11-01', to: '2026-11-10' } });
    await view.host({ type: 'usageExported', path: '.sextant/exports/usage.csv' });
    await page.getByRole('status').getByText('Saved the CSV to .sextant/exports/usage.csv.').waitFor();
  });

  it('only typed messages are accepted; an error from the host is said', async () => {
    await view.host({ type: 'usageReport', report: { nonsense: true } });
    await view.host({ type: 'snapshot', snapshot: {} });
    await view.host({ type: 'usageError', message: 'Sextant could not read the usage: disk on fire' });
    await view.page.getByRole('alert').getByText('disk on fire').waitFor();
    assert.equal(await view.page.getByRole('table').count(), 0);
  });

  it('axe-core: no violations, with the report shown (and the docs screenshot)', async () => {
    await show(weekReport());
    const violations = await axe();
    assert.deepEqual(violations, []);
    if (process.env.SEXTANT_DOCS_SCREENSHOT) {
      await view.page.evaluate((t) => {
        document.body.classList.add(t.bodyClass);
        for (const [k, v] of Object.entries(t.colors)) document.documentElement.style.setProperty(`--vscode-${k}`, v);
      }, DARK);
      await view.page.setViewportSize({ width: 900, height: 1100 });
      const png = await view.page.screenshot({ fullPage: true });
      writeFileSync(join(process.cwd(), 'docs', 'screenshot-usage.webp'), await pngToWebp(view.page, png));
    }
  });
});
