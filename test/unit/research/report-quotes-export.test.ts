// Exports carry the quotes a report's claims rest on: Markdown footnotes after the citation, HTML block
// quotes linked to the page, JSON verdicts with the passage (quote and offsets).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verifyReport, type FetchedSource } from '../../../extension/core/research/verify';
import { exportReport } from '../../../extension/core/store/export-report';
import type { Report } from '../../../extension/protocol';

const AT = Date.UTC(2026, 10, 25);
const PAGE: FetchedSource = {
  n: 1,
  url: 'https://corpus.test/tidal',
  title: 'Tidal turbines',
  text: 'Winter was rough. The array stayed online for 96 per cent of the period. Fish were fine.',
  accessedAt: AT,
};

async function report(): Promise<Report> {
  const v = await verifyReport('# Tidal\n\n## Summary\n\nThe array stayed online for 96 per cent of the period [1].', [
    PAGE,
  ]);
  return {
    id: 'report-1',
    title: 'Tidal',
    question: 'How did the array do?',
    markdown: v.markdown,
    sources: v.sources,
    verdicts: v.verdicts,
    notes: v.notes,
    stats: {
      searches: 1,
      sourcesRead: 1,
      claims: 1,
      supported: 1,
      unsupported: 0,
      unchecked: 0,
      inventedRemoved: 0,
      unfetchedUrlsRemoved: 0,
    },
    createdAt: AT,
  };
}

const QUOTE = 'The array stayed online for 96 per cent of the period.';

test('the verdict keeps the passage: the quote is the exact text at its offsets', async () => {
  const r = await report();
  const p = r.verdicts[0].passage;
  assert.ok(p);
  assert.equal(p.quote, QUOTE);
  assert.equal(PAGE.text.slice(p.start, p.end), QUOTE);
  assert.equal(r.verdicts[0].verifiedBy, 'passage-match');
});

test('Markdown: a footnote after the citation, with the quote and its source', async () => {
  const md = exportReport(await report(), 'markdown', { now: AT });
  assert.match(md, /period \[1\]\[\^q1\]\./);
  assert.ok(md.includes(`[^q1]: “${QUOTE}” — [1] [Tidal turbines](https://corpus.test/tidal)`), md);
});

test('HTML: the quote in a <blockquote> with a link to its page', async () => {
  const html = exportReport(await report(), 'html', { now: AT });
  const block = /<blockquote>([\s\S]*?)<\/blockquote>/.exec(html)?.[1] ?? '';
  assert.ok(block.includes(QUOTE), html);
  assert.match(block, /<a href="https:\/\/corpus\.test\/tidal"[^>]*>\[1\] Tidal turbines<\/a>/);
});

test('JSON: each verdict carries its passage and what verified it', async () => {
  const doc = JSON.parse(exportReport(await report(), 'json', { now: AT })) as { report: Report };
  assert.deepEqual(doc.report.verdicts[0].passage, { n: 1, quote: QUOTE, start: 18, end: 18 + QUOTE.length });
  assert.equal(doc.report.verdicts[0].verifiedBy, 'passage-match');
});
