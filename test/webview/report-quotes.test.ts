// A report card whose citations carry their quotes, in real Chromium: the quote shows on keyboard focus
// (a tooltip the link is described by) and on hover, Escape hides it, Enter opens the passage through
// the host; axe-core finds no violation at all in the card with the tooltip shown.
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Report } from '../../extension/protocol';
import { axeViolations } from './axe';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';
import { REPORT, RequestScript, snapshot, snapshotMessage } from './fixtures';

const env = useViewEnvironment();
let view: ViewHarness;
const QUOTE = 'The Rust 2024 edition was released with Rust 1.85 in February 2025.';

const report: Report = {
  ...REPORT,
  id: 'report-quotes',
  verdicts: [
    {
      ...REPORT.verdicts[0],
      verifiedBy: 'judge',
      passage: { n: 1, quote: QUOTE, start: 40, end: 40 + QUOTE.length },
    },
    REPORT.verdicts[1],
  ],
};

beforeEach(async () => {
  view = await env.open();
  await deliver(view, snapshotMessage(snapshot({ mode: 'research' })));
  const r = new RequestScript('r-quotes');
  await deliver(
    view,
    r.events(r.started('What changed?', 'research'), { type: 'report', report }, { type: 'complete' }),
  );
});
afterEach(async () => {
  assert.deepEqual(await view.violations(), []);
  assert.deepEqual(view.pageErrors, []);
  await view.close();
});

describe('report card quotes', () => {
  it('a citation shows its quote on focus and hover, opens the passage; the card has 0 axe violations', async () => {
    const card = view.page.getByRole('region', { name: 'Report' });
    const cite = card.getByRole('link', { name: '[1]' });
    await cite.focus();
    const tip = card.getByRole('tooltip');
    await tip.getByText(`“${QUOTE}”`).waitFor();
    await tip.getByText('[1] The Rust 2024 edition · checked by the model').waitFor();
    assert.equal(await cite.getAttribute('aria-describedby'), 'quote-tip-report-quotes');
    // The unsupported claim's marker is no quote link.
    assert.equal(await card.getByRole('link', { name: '[2]' }).count(), 0);

    const { violations } = await axeViolations(view.page, ['.report-card']);
    assert.deepEqual(violations, [], 'axe: 0 violations on the report card with its quote shown');

    await view.page.keyboard.press('Escape');
    await tip.waitFor({ state: 'hidden' });
    await cite.hover();
    await tip.waitFor({ state: 'visible' });
    await cite.focus();
    await view.page.keyboard.press('Enter');
    assert.deepEqual(await view.waitForPost('openSourceQuote'), {
      type: 'openSourceQuote',
      reportId: 'report-quotes',
      n: 1,
      start: 40,
      end: 40 + QUOTE.length,
    });
  });
});
