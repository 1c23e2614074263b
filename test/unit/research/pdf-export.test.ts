// PDF export of a report: the report's HTML export printed by the machine's Chromium (skipped when none
// is installed), read back with read_file's PDF extractor; a configured path that is not a browser
// gives the reason the export is not offered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { findChromium, printHtmlToPdf } from '../../../extension/platform/chromium-pdf';
import { exportReport } from '../../../extension/core/store/export-report';
import { extractPdfPages } from '../../../extension/core/tools/util/pdf';
import type { Report } from '../../../extension/protocol';

const found = findChromium(undefined);

test('a configured path that is not a browser: PDF export is not offered, and the reason says why', () => {
  const r = findChromium('/nonexistent/chrome');
  assert.ok('reason' in r);
  // The browser tool's finder says it: one finder, one message.
  assert.match(
    r.reason,
    /sextant\.browser\.executablePath is "\/nonexistent\/chrome", which is not an executable file/,
  );
});

test('a report prints to a PDF whose text holds the report and its workspace citation', {
  skip: !('path' in found) && 'no Chromium installed',
}, async () => {
  assert.ok('path' in found);
  const report: Report = {
    id: 'report-pdf',
    title: 'Retry policy',
    question: 'How do we retry?',
    markdown:
      '# Retry policy\n\nOur client retries three times [1].\n\n## Sources\n\n' +
      '1. [docs/retries.md (lines 3–8)](docs/retries.md#L3-L8)',
    sources: [
      {
        n: 1,
        url: 'docs/retries.md#L3-L8',
        title: 'docs/retries.md',
        accessedAt: 0,
        path: 'docs/retries.md',
        lines: { start: 3, end: 8 },
      },
    ],
    verdicts: [],
    notes: [],
    stats: {
      searches: 0,
      sourcesRead: 1,
      claims: 1,
      supported: 1,
      unsupported: 0,
      unchecked: 0,
      inventedRemoved: 0,
      unfetchedUrlsRemoved: 0,
    },
    createdAt: 0,
  };
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sextant-pdf-test-'));
  const out = path.join(dir, 'report.pdf');
  await printHtmlToPdf(found.path, exportReport(report, 'html'), out);
  const bytes = readFileSync(out);
  assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
  const text = extractPdfPages(bytes).join('\n');
  assert.match(text, /Our client retries three times/);
  assert.match(text, /docs\/retries\.md/);
  await fs.rm(dir, { recursive: true, force: true });
});
