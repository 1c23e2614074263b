// The HTML → Markdown libraries live in their own bundle, loaded on the first HTML page: they must not
// be in extension.js (activation) or runtime.js (the runtime's start). Checks the built dist/ (the unit
// run builds it first: `node esbuild.mjs && node test/run-unit.mjs`), and that the bundle, with its
// size-saving aliases (turndown's browser build, no CSS parser), really converts a page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { ReadableHtml } from '../../../extension/core/web/fetch/html-converter';
import { HtmlWorkerConverter } from '../../../extension/core/web/fetch/html-worker-client';
import { repoFile } from '../../fixtures/node-ports';

/** Strings that survive minification: one from each library. */
const MARKERS = {
  readability: 'readability-content',
  turndown: 'turndown-root',
  linkedom: 'unable to append a node to itself',
};

function dist(name: string): string {
  const file = repoFile(`dist/${name}`);
  assert.ok(existsSync(file), `dist/${name} is missing: build first (node esbuild.mjs)`);
  return file;
}

test('linkedom, Readability and turndown are in research-html.js only', () => {
  const bundle = readFileSync(dist('research-html.js'), 'utf8');
  for (const [lib, marker] of Object.entries(MARKERS)) assert.ok(bundle.includes(marker), `${lib} in the bundle`);
  for (const startup of ['extension.js', 'runtime.js']) {
    const text = readFileSync(dist(startup), 'utf8');
    for (const [lib, marker] of Object.entries(MARKERS)) assert.ok(!text.includes(marker), `${lib} is in ${startup}`);
  }
  // The runtime reaches the bundle only through a computed require, like the provider bundles.
  assert.match(readFileSync(dist('runtime.js'), 'utf8'), /research-html\.js/);
  // Node's turndown build would bring its own DOM (domino); the alias keeps it out.
  assert.ok(!bundle.includes('@mixmark-io/domino'), 'turndown came without domino');
  console.log(`dist/research-html.js: ${(statSync(dist('research-html.js')).size / 1024).toFixed(0)} KB (this build)`);
});

const PAGE =
  '<html><head><title>T</title><style>p{color:red}</style></head><body><article><h1>Heading</h1>' +
  `<p>${'Body text that is long enough to be an article. '.repeat(20)}<a href="/x">a link</a></p>` +
  '<ul><li>one</li><li>two</li></ul></article></body></html>';

function assertConverted(r: ReadableHtml): void {
  assert.match(r.markdown, /\[a link\]\(https:\/\/example\.test\/x\)/);
  assert.match(r.markdown, /^- one\n- two$/m);
  assert.match(r.text, /Body text that is long enough/);
}

test('the built bundle converts a page', () => {
  const mod = require(dist('research-html.js')) as { htmlToMarkdown(html: string, url: string): ReadableHtml };
  assertConverted(mod.htmlToMarkdown(PAGE, 'https://example.test/a/b.html'));
});

test('the built bundle converts pages in a worker thread, as the runtime runs it', async () => {
  const converter = new HtmlWorkerConverter({ file: dist('research-html.js') });
  try {
    const [a, b] = await Promise.all([
      converter.htmlToMarkdown(PAGE, 'https://example.test/a/b.html'),
      converter.htmlToMarkdown(PAGE.replace('<h1>Heading', '<h1>Second'), 'https://example.test/a/c.html'),
    ]);
    assertConverted(a);
    assertConverted(b);
  } finally {
    await converter.dispose();
  }
});
