// Math, charts, diagrams and wide tables in the HTML export of a report (which the PDF prints): TeX as
// MathML, a ```chart table as SVG bars, a wide table in a scrolling box, a Mermaid block as its source
// with a caption when the export was given no renderer (drawn: export-diagrams.test.ts); a block that
// cannot be drawn shows its source and why. The export's CSP is unchanged: nothing in it runs or loads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exportReport } from '../../../extension/core/store/export-report';
import { EXPORT_CSP } from '../../../extension/core/store/export-html';
import { chartSvg, parseChart } from '../../../extension/protocol';
import { bareReport } from '../../fixtures/research/bare-report';

const report = bareReport;

const MD = [
  '# Retries',
  'The wait is $w_n = b \\cdot 2^n$; prices like $5 and $10 stay text.',
  '',
  '$$',
  '\\frac{1}{2}',
  '$$',
  '',
  '```chart',
  'title: Retries per client',
  '| Client | Retries |',
  '|---|---|',
  '| curl | 3 |',
  '| OkHttp | 5 |',
  '```',
  '',
  '```mermaid',
  'flowchart LR',
  '  A --> B',
  '```',
  '',
  '| a | b |',
  '|---|---|',
  '| 1 | 2 |',
].join('\n');

test('the HTML export draws math as MathML, a chart as SVG, and scrolls a wide table', () => {
  const html = exportReport(report(MD), 'html');
  assert.match(html, /<math xmlns="http:\/\/www\.w3\.org\/1998\/Math\/MathML">.*<mi>w<\/mi>/s);
  assert.match(html, /<div class="math-display"><span class="katex"><math[^>]*display="block"/);
  assert.match(html, /prices like \$5 and \$10 stay text/);
  assert.match(html, /<figure class="chart"><svg [^>]*aria-label="Retries per client"/);
  assert.equal((html.match(/<rect class="chart-series-0" x="[\d.]+" y="\d+" width/g) ?? []).length, 2);
  assert.match(html, /<div class="table-scroll"><table>/);
  // Mermaid without a renderer: its source, said to be the source.
  assert.match(
    html,
    /<figcaption>Mermaid diagram \(its source\)<\/figcaption><pre><code[^>]*>flowchart LR\n {2}A --&gt; B/,
  );
  // Nothing runs: the same CSP, no script anywhere.
  assert.ok(html.includes(EXPORT_CSP));
  assert.doesNotMatch(html, /<script/i);
  // Markdown and JSON keep the source as written.
  assert.match(exportReport(report(MD), 'markdown'), /```chart\ntitle: Retries per client/);
});

test('blocks that cannot be drawn show source and why', () => {
  const broken = exportReport(
    report(
      ['$$', '\\begin{matrix} a', '$$', '', '```chart', '| a | b |', '|---|---|', '| x | many |', '```'].join('\n'),
    ),
    'html',
  );
  assert.match(broken, /<p role="note">Formula could not be typeset: [^<]+<\/p><pre><code>\\begin\{matrix\} a/);
  assert.match(broken, /Chart could not be drawn: row 1, column &quot;b&quot; is not a number: &quot;many&quot;/);
});

test('a chart: labels, series, negatives, and text escaped', () => {
  const c = parseChart('| Team <b> | 2024 | 2025 |\n|:--|--:|--:|\n| A & B | 1,200 | -5 |\n| C | 3.5 | 40% |');
  assert.deepEqual(c.labels, ['A & B', 'C']);
  assert.deepEqual(
    c.series.map((s) => [s.name, s.values]),
    [
      ['2024', [1200, 3.5]],
      ['2025', [-5, 40]],
    ],
  );
  const svg = chartSvg(c);
  assert.match(svg, /A &amp; B/);
  assert.doesNotMatch(svg, /<b>/);
  assert.throws(() => parseChart('no table'), /needs a Markdown table/);
});
