// Every cited sentence is checked wherever the writer put it. Table tests of the report shapes real
// models write: a paragraph directly under its heading (no blank line), lists (bulleted, numbered,
// continued lines), tables, block quotes, bold lead-ins, setext headings, markers after the period —
// and the verification note counts all of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { citedSentences } from '../../../extension/core/research/verify/citations';
import { UNSUPPORTED_MARK, verifyReport, type FetchedSource } from '../../../extension/core/research/verify';

const claims = (md: string) => citedSentences(md).map((c) => [c.claim, c.numbers]);

const SHAPES: Array<{ name: string; markdown: string; expect: Array<[string, number[]]> }> = [
  {
    name: 'paragraphs directly under their headings (the writer format without blank lines)',
    markdown: [
      '# Tidal power in its first winter',
      '## Summary',
      'The array generated 11.4 GWh over the winter [1]. It was available 96% of the time [1].',
      '## Key findings',
      '- Output beat the forecast by about nine per cent [1].',
      '- Two stoppages, one of them a precaution [1].',
      '## Conclusion',
      'Twelve more turbines are planned by 2029 [1][2].',
    ].join('\n'),
    expect: [
      ['The array generated 11.4 GWh over the winter.', [1]],
      ['It was available 96% of the time.', [1]],
      ['Output beat the forecast by about nine per cent.', [1]],
      ['Two stoppages, one of them a precaution.', [1]],
      ['Twelve more turbines are planned by 2029.', [1, 2]],
    ],
  },
  {
    name: 'numbered lists, continued lines and a paragraph right after the list',
    markdown: [
      '1. The starter needs feeding every twelve',
      '   hours at 24 °C [2].',
      '2) A 1:5:5 ratio is used [2]',
      'Hooch is harmless [2].',
    ].join('\n'),
    expect: [
      ['The starter needs feeding every twelve hours at 24 °C.', [2]],
      ['A 1:5:5 ratio is used Hooch is harmless.', [2]],
    ],
  },
  {
    name: 'a table: each cited cell is checked as its row',
    markdown: [
      '## Figures',
      '| Measure | Value |',
      '|---|---:|',
      '| Installed capacity | 8 MW [1] |',
      '| Availability | 96 per cent [1] |',
      '| Colour | blue |',
    ].join('\n'),
    expect: [
      ['Installed capacity, Value: 8 MW', [1]],
      ['Availability, Value: 96 per cent', [1]],
    ],
  },
  {
    name: 'block quotes, also over two lines',
    markdown: [
      'The engineer was clear:',
      '> None of the strain gauges recorded more than',
      '> sixty per cent of the design load [1].',
      '',
      '> A second quote [2].',
    ].join('\n'),
    expect: [
      ['None of the strain gauges recorded more than sixty per cent of the design load.', [1]],
      ['A second quote.', [2]],
    ],
  },
  {
    name: 'bold lead-ins, in paragraphs and list items',
    markdown: [
      '**Capacity.** The array has four 2 MW turbines [1].',
      '- **Availability:** 96 per cent over five months [1].',
      '- __Output__. 11.4 GWh [1].',
    ].join('\n'),
    expect: [
      ['Capacity. The array has four 2 MW turbines.', [1]],
      ['Availability: 96 per cent over five months.', [1]],
      ['Output. 11.4 GWh.', [1]],
    ],
  },
  {
    name: 'setext headings, markers after the full stop, lists and ranges of markers',
    markdown: [
      'Summary',
      '-------',
      'The array stayed online in storms.[1] It was stopped twice. [1, 2]',
      'Costs were not reported [1-2].',
    ].join('\n'),
    expect: [
      ['The array stayed online in storms.', [1]],
      ['It was stopped twice.', [1, 2]],
      ['Costs were not reported.', [1, 2]],
    ],
  },
  {
    name: 'code is not cited: fences and inline spans with brackets',
    markdown: ['Use `v[1]` to read it [1].', '```', 'x = a[2] # [3]', '```', 'After the code [2].'].join('\n'),
    expect: [
      ['Use v[1] to read it.', [1]],
      ['After the code.', [2]],
    ],
  },
];

for (const shape of SHAPES)
  test(`cited sentences: ${shape.name}`, () => {
    assert.deepEqual(claims(shape.markdown), shape.expect);
  });

const AT = Date.UTC(2026, 10, 23);
const PAGE: FetchedSource = {
  n: 1,
  url: 'http://127.0.0.1:9/tidal',
  title: 'Tidal',
  text:
    'The four tidal turbines generated 11.4 gigawatt-hours between October and February. The array stayed ' +
    'online for 96 per cent of the period. Installed capacity: 8 megawatts.',
  accessedAt: AT,
};

test('the note counts every cited sentence, and an unsupported one is marked where it stands', async () => {
  const draft = [
    '# Tidal',
    '## Summary',
    'The turbines generated 11.4 GWh [1]. The array stayed online 96% of the time [1].',
    '## Key findings',
    '| Measure | Value |',
    '|---|---|',
    '| Installed capacity | 8 MW [1] |',
    '> The turbines generated 14 GWh between October and February [1].',
    '- **Quantum:** Superconducting qubits need cooling to millikelvin temperatures [1].',
    '## Conclusion',
    'The turbines generated 11.4 GWh in the winter [1].',
  ].join('\n');
  let asked = 0;
  const r = await verifyReport(draft, [PAGE], {
    judge: async (input) => {
      asked++;
      return { supported: !/14 GWh/.test(input.claim) };
    },
  });
  assert.equal(r.stats.claims, 6, r.verdicts.map((v) => v.claim).join('\n'));
  assert.match(r.notes[0], /^4 of 6 cited claims supported/);
  assert.equal(asked, 5, 'the unrelated qubit claim is rejected by the floor without a model call');
  assert.match(
    r.markdown,
    /> The turbines generated 14 GWh between October and February \[1\]\. \*\(not supported by the cited source\)\*/,
  );
  assert.match(r.markdown, /millikelvin temperatures \[1\]\. \*\(not supported/);
  assert.equal(r.markdown.split(UNSUPPORTED_MARK).length - 1, 2);
});
