// The shared Mermaid code (extension/protocol/mermaid-source.ts, mermaid-svg.ts) the chat view and the
// exports both draw with: what it refuses and why, what it takes out of the source, the text
// alternative, and the neutralising of the renderer's SVG — the renderer's Google Fonts @import, a
// `style … url(https://…)` line, and any link, script, foreign object or event attribute a renderer
// might write — checked on hand-made SVG and on the real renderer's output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderMermaidSVG } from 'beautiful-mermaid';
import {
  cssColour,
  drawMermaid,
  neutraliseSvg,
  prepareMermaid,
  svgDataUrl,
  type MermaidRenderer,
} from '../../../extension/protocol';

const render = renderMermaidSVG as MermaidRenderer;
const colours = { bg: '#1f1f1f', fg: '#cccccc' };
/** Whatever in `svg` could reach outside the picture. */
const external = (svg: string) =>
  svg
    .replace('xmlns="http://www.w3.org/2000/svg"', '')
    .match(/@import|https?:|\/\/[a-z]|javascript:|<script|<foreignObject|\son[a-z]+=|href=|url\((?!#)/gi) ?? [];

test('neutralises a hostile SVG: imports, remote url(), links, scripts, foreign objects, handlers', () => {
  const hostile = [
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="alert(1)">',
    "<style>@import url('https://fonts.googleapis.com/css2?family=Inter&amp;display=swap');",
    '@import "https://evil.example/x.css"; text { font-family: \'Inter\', system-ui; }</style>',
    '<script>alert(1)</script><foreignObject><div>html</div></foreignObject>',
    '<a href="https://evil.example"><rect fill="url(https://evil.example/p.svg#g)" stroke="url(#ok)"/></a>',
    '<image xlink:href="https://evil.example/i.png"/><use href="https://evil.example/s.svg#x"/>',
    '<text>see https://docs.example (a label, not a reference)</text></svg>',
  ].join('');
  const out = neutraliseSvg(hostile);
  assert.deepEqual(external(out.replace('https://docs.example', '')), []);
  // A local reference (a marker, a gradient) stays; a label's text stays as text.
  assert.match(out, /stroke="url\(#ok\)"/);
  assert.match(out, /fill="none"/);
  assert.match(out, /<text>see https:\/\/docs\.example/);
  assert.match(out, /text \{ font-family: system-ui/);
  // A label that reads like markup or a handler is text, and stays exactly as written (the SVG stays whole).
  const label = '<g class="node" data-label="&lt;img onerror=x&gt; url(https://a.example)"><text>b onload=y</text></g>';
  assert.ok(neutraliseSvg(`<svg width="1" height="1">${label}</svg>`).includes(label));
});

test('the real renderer: its font import and a style line’s remote fill are taken out', () => {
  const raw = render('graph TD\n  A --> B\n  style A fill:url(https://evil.example/x.svg)', colours);
  assert.match(raw, /@import url\('https:\/\/fonts\.googleapis\.com/, 'the renderer does write it');
  assert.match(raw, /fill="url\(https:\/\/evil\.example/, 'and passes the style line through');
  const drawn = drawMermaid(render, 'graph TD\n  A --> B\n  style A fill:url(https://evil.example/x.svg)', colours);
  assert.deepEqual(external(drawn.svg), []);
  assert.match(drawn.svg, /marker-end="url\(#arrowhead\)"/);
  assert.match(svgDataUrl(drawn.svg), /^data:image\/svg\+xml;charset=utf-8,%3Csvg/);
});

test('text alternative: type and accTitle, else the first labels; accDescr and click lines leave the source', () => {
  const a = prepareMermaid(
    'graph\n  accTitle: Retry loop\n  accDescr: How a client retries\n  A --> B\n  click A "https://x"',
  );
  assert.equal(a.type, 'Flowchart');
  assert.equal(a.title, 'Retry loop');
  assert.equal(a.description, 'How a client retries');
  assert.equal(a.source, 'graph TD\n  A --> B');
  assert.equal(drawMermaid(render, 'sequenceDiagram\n  Alice->>Bob: Hi', colours).alt, 'Sequence diagram: Alice, Bob');
  const fm = drawMermaid(render, '---\ntitle: "Pets"\n---\nclassDiagram\n  Animal <|-- Dog', colours);
  assert.equal(fm.alt, 'Class diagram: Pets');
});

test('refuses with the reason: unsupported types, unfinished lines, empty drawings', () => {
  const reason = (src: string) => {
    try {
      drawMermaid(render, src, colours);
      return 'drawn';
    } catch (e) {
      assert.equal((e as Error).name, 'DiagramError');
      return (e as Error).message;
    }
  };
  assert.match(reason('gantt\n  title A'), /^Diagram type not supported: gantt\. Supported are flowchart/);
  assert.match(reason('mindmap\n  root'), /^Diagram type not supported: mindmap/);
  assert.match(reason('hello'), /^Diagram not drawn: the first line must name a diagram type/);
  assert.equal(
    reason('graph TD\n  A -->'),
    'Diagram not drawn: line 2 ("A -->") ends with an arrow that points to nothing',
  );
  assert.match(reason('graph TD\n  A -->|yes|'), /ends with an arrow/);
  assert.match(reason('graph TD\n  A[[[ --> B'), /line 2 .* has a bracket that is not closed/);
  assert.match(reason('graph TD\n  A["open --> B'), /has a quote that is not closed/);
  assert.match(reason('graph TD\n  subgraph S\n  A --> B'), /a subgraph is not closed with "end"/);
  assert.match(reason('sequenceDiagram\n  Alice->>: Hi'), /is a message without a receiver/);
  assert.match(reason('graph TD'), /^Diagram not drawn: it has nothing to draw/);
  assert.match(reason(''), /^Diagram not drawn: the block is empty/);
  assert.match(reason(`graph TD\n${'  A --> B\n'.repeat(3000)}`), /over 20,000 characters/);
  // Valid diagrams of each supported type draw, a state diagram's composite state included.
  for (const ok of [
    'flowchart LR\n  A>flag] --> B((round))',
    'stateDiagram-v2\n  [*] --> S1\n  state S1 {\n    a --> b\n  }\n  S1 --> [*]',
    'erDiagram\n  CUSTOMER ||--o{ ORDER : places',
    'xychart-beta\n  x-axis [a, b]\n  bar [1, 2]',
    'graph TD;\n  A-->B;',
  ])
    assert.equal(reason(ok), 'drawn', ok);
});

test('colours: only plain CSS colours reach the renderer (its style attribute is not escaped)', () => {
  assert.equal(cssColour('#1f1f1f'), '#1f1f1f');
  assert.equal(cssColour(' rgb(31, 31, 31) '), 'rgb(31, 31, 31)');
  assert.equal(cssColour('red;background:url(https://evil.example)'), undefined);
  assert.equal(cssColour('#fff" onload="x'), undefined);
  assert.equal(cssColour('transparent'), undefined);
  const drawn = drawMermaid(render, 'graph TD\n  A --> B', { bg: 'x";y', fg: '#000', accent: 'url(https://e.x)' });
  assert.match(drawn.svg, /--bg:#ffffff;--fg:#000/);
  assert.doesNotMatch(drawn.svg, /e\.x/);
});
