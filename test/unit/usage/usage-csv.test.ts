// The Usage view's CSV: RFC 4180 quoting (commas, quotes, line breaks), formulas kept as text, one line per
// row of the store's grain in a stable order, CRLF line ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { csvField, usageCsv } from '../../../extension/core/usage/usage-csv';
import type { UsageRow } from '../../../extension/core/store/usage-query';

const row = (over: Partial<UsageRow>, key: Partial<UsageRow['key']> = {}): UsageRow => ({
  day: 20_000,
  sessionId: 's1',
  title: 'Plain',
  key: { workspace: '/w/app', model: 'm/x', mode: 'agent', source: 'chat', label: '', ...key },
  inputTokens: 10,
  cachedTokens: 2,
  outputTokens: 3,
  costUsd: 0.1234567,
  unpriced: 0,
  entries: 1,
  ...over,
});

test('fields with commas, quotes and line breaks are quoted, quotes doubled; formulas are kept as text', () => {
  assert.equal(csvField('plain'), 'plain');
  assert.equal(csvField('a, b'), '"a, b"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField('two\nlines'), '"two\nlines"');
  assert.equal(csvField('=HYPERLINK("http://x")'), `"'=HYPERLINK(""http://x"")"`);
  assert.equal(csvField('+1'), "'+1");
  assert.equal(csvField('@sum'), "'@sum");
  assert.equal(csvField(-5), '-5', 'numbers are numbers');
});

test('one line per row, sorted by day then session, with the header and CRLF line ends', () => {
  const csv = usageCsv([
    row({ day: 20_001, sessionId: 's2', title: 'Fix "the" build, now' }, { source: 'subagent', label: 'explorer' }),
    row({ unpriced: 2, costUsd: 0 }, { workspace: '/w/api\n/w/web' }),
  ]);
  const lines = csv.split('\r\n');
  assert.equal(lines.at(-1), '', 'ends with CRLF');
  assert.equal(
    lines[0],
    'day,session_id,session_title,workspace,model,mode,source,source_detail,' +
      'input_tokens,cached_tokens,output_tokens,cost_usd,unpriced_entries',
  );
  assert.equal(lines[1], '2024-10-04,s1,Plain,/w/api; /w/web,m/x,agent,Chat,,10,2,3,0,2');
  assert.equal(
    lines[2],
    '2024-10-05,s2,"Fix ""the"" build, now",/w/app,m/x,agent,Sub-agents,explorer,10,2,3,0.123457,0',
  );
  assert.equal(lines.length, 4);
});
