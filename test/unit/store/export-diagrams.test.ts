// Mermaid diagrams in exports (issue 43 item 4), drawn with the real renderer (beautiful-mermaid) the
// extension loads from dist/mermaid-draw.js: the HTML (and so PDF) export shows each diagram as an
// <img> whose data: SVG holds the node labels and reaches nothing outside itself, with its source one
// click away; a broken or unsupported diagram shows its source and why; the Markdown export keeps the
// fenced source; a secret in a diagram's source is redacted before it is drawn, and the picture, put in
// after redaction, is not damaged by it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderMermaidSVG } from 'beautiful-mermaid';
import { exportReport } from '../../../extension/core/store/export-report';
import { exportSession } from '../../../extension/core/store/export';
import { EXPORT_CSP } from '../../../extension/core/store/export-html';
import type { MermaidRenderer } from '../../../extension/protocol';
import type { StoredSession } from '../../../extension/core/ports';
import { bareReport } from '../../fixtures/research/bare-report';

const mermaid = renderMermaidSVG as MermaidRenderer;

const report = bareReport;

const FLOW = ['flowchart LR', '  A[Request] --> B{Failed?}', '  B -- yes --> C[Wait]', '  B -- no --> D[Done]'];
const MD = ['# Retries', '', '```mermaid', ...FLOW, '```', '', 'After the diagram.'].join('\n');

/** The SVG of each drawn picture in `html`. */
function pictures(html: string): string[] {
  return [...html.matchAll(/<img src="data:image\/svg\+xml;charset=utf-8,([^"]+)"/g)].map((m) =>
    decodeURIComponent(m[1]),
  );
}

test('the HTML export draws a Mermaid block as a picture holding its labels, its source one click away', () => {
  const html = exportReport(report(MD), 'html', { mermaid });
  const [svg, ...more] = pictures(html);
  assert.equal(more.length, 0);
  for (const label of ['Request', 'Failed?', 'Wait', 'Done', 'yes', 'no']) assert.ok(svg.includes(`>${label}<`), label);
  assert.match(html, /<figure class="diagram"><img src="data:[^"]+" alt="Flowchart: Request, Failed\?, Wait, Done"/);
  assert.match(html, /<details><summary>Source<\/summary><pre><code class="language-mermaid">flowchart LR\n/);
  // The picture reaches nothing: no font import, no remote URL; it follows a reader's dark scheme.
  assert.doesNotMatch(svg, /@import|googleapis/);
  assert.doesNotMatch(svg.replace('http://www.w3.org/2000/svg', ''), /https?:/);
  assert.match(svg, /@media \(prefers-color-scheme: dark\)/);
  // The export's CSP is unchanged (data: images only) and nothing runs.
  assert.ok(html.includes(EXPORT_CSP));
  assert.doesNotMatch(html, /<script/i);
  assert.match(html, /After the diagram\./);
});

test('the Markdown export keeps the fenced source; without a renderer the HTML shows it too', () => {
  const md = exportReport(report(MD), 'markdown', { mermaid });
  assert.ok(md.includes(['```mermaid', ...FLOW, '```'].join('\n')));
  assert.doesNotMatch(md, /data:image/);
  const html = exportReport(report(MD), 'html');
  assert.equal(pictures(html).length, 0);
  assert.match(html, /<figcaption>Mermaid diagram \(its source\)<\/figcaption>/);
});

test('a broken diagram and an unsupported type show their source and the reason, never a blank', () => {
  const md = [
    '```mermaid',
    'graph TD',
    '  A[Start] -->',
    '```',
    '',
    '```mermaid',
    'pie title Pets',
    '  "Dogs" : 386',
    '```',
    '',
    '```mermaid',
    'graph TD',
    '```',
  ].join('\n');
  const html = exportReport(report(md), 'html', { mermaid });
  assert.equal(pictures(html).length, 0);
  const why = 'Diagram not drawn: line 2 (&quot;A[Start] --&gt;&quot;) ends with an arrow that points to nothing';
  assert.ok(html.includes(`<p role="note">${why}</p><pre>`), html);
  assert.match(html, /Diagram type not supported: pie\. Supported are flowchart/);
  assert.match(html, /Diagram not drawn: it has nothing to draw/);
  assert.match(html, /<code class="language-mermaid">pie title Pets/);
});

test('a renderer that throws (or did not load) leaves the source and its reason', () => {
  const failing: MermaidRenderer = () => {
    throw new Error('the diagram renderer did not load (no such file)');
  };
  const html = exportReport(report(MD), 'html', { mermaid: failing });
  assert.match(html, /Diagram not drawn: the diagram renderer did not load \(no such file\)/);
  assert.match(html, /<code class="language-mermaid">flowchart LR/);
});

test('a session export draws its diagrams; a secret in a diagram is redacted before it is drawn', () => {
  const secret = 'sk-live0123456789abcdefghij';
  const session: StoredSession = {
    id: 's',
    title: 'Diagrams',
    mode: 'chat',
    model: 'm',
    createdAt: 0,
    updatedAt: 0,
    todos: [],
    modelMessages: [],
    messages: [
      {
        id: 'a',
        role: 'assistant',
        mode: 'chat',
        createdAt: 0,
        status: 'complete',
        parts: [{ type: 'text', text: `Here:\n\n\`\`\`mermaid\ngraph LR\n  K[${secret}] --> B[Done]\n\`\`\`` }],
      },
    ],
  } as unknown as StoredSession;
  const html = exportSession({ session, artifacts: [] }, 'html', { mermaid, secrets: [secret] });
  const [svg] = pictures(html);
  assert.ok(svg, 'drawn');
  assert.ok(svg.includes('>Done<'));
  assert.ok(!html.includes(secret) && !svg.includes(secret), 'the secret is nowhere, in the page or the picture');
});
