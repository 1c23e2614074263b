// The worker-thread converter's caps: a page that takes too long ends its worker (the next page gets a
// new one), HTML beyond the size cap is cut before it is parsed, a failing conversion is an error for
// that page only. A stand-in worker script plays the converter (the real bundle is run by
// bundle.test.ts), so a "slow" page is one that never answers — no timing is assumed.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HtmlWorkerConverter } from '../../../extension/core/web/fetch/html-worker-client';

const dir = mkdtempSync(join(tmpdir(), 'sextant-html-worker-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// Never answers "HANG"; throws on "FAIL"; otherwise answers with the length of the HTML it got.
const script = join(dir, 'stand-in.js');
writeFileSync(
  script,
  `const { parentPort, threadId } = require('node:worker_threads');
parentPort.on('message', (req) => {
  const html = new TextDecoder().decode(req.html);
  if (html === 'HANG') return;
  if (html === 'FAIL') return parentPort.postMessage({ id: req.id, ok: false, error: 'no article' });
  const result = { title: String(threadId), markdown: '', text: String(html.length), readable: true };
  parentPort.postMessage({ id: req.id, ok: true, result });
});`,
);

test('a page that takes too long fails alone; the next page gets a new worker', async () => {
  const c = new HtmlWorkerConverter({ file: script, timeoutMs: 1000 });
  try {
    const first = await c.htmlToMarkdown('<p>a</p>', 'https://x.test/');
    await assert.rejects(c.htmlToMarkdown('HANG', 'https://x.test/slow'), /took longer than 1\.0 s/);
    const next = await c.htmlToMarkdown('<p>b</p>', 'https://x.test/b');
    assert.notEqual(next.title, first.title, 'a new worker thread');
    await assert.rejects(c.htmlToMarkdown('FAIL', 'https://x.test/f'), /no article/);
    assert.equal(
      (await c.htmlToMarkdown('<p>c</p>', 'https://x.test/c')).title,
      next.title,
      'an error keeps the worker',
    );
  } finally {
    await c.dispose();
  }
});

test('HTML beyond the size cap is cut before it reaches the parser', async () => {
  const c = new HtmlWorkerConverter({ file: script, maxHtmlChars: 1000 });
  try {
    assert.equal((await c.htmlToMarkdown('x'.repeat(5000), 'https://x.test/')).text, '1000');
    assert.equal((await c.htmlToMarkdown('x'.repeat(10), 'https://x.test/')).text, '10');
  } finally {
    await c.dispose();
  }
});

test('closing the converter refuses the pages still waiting', async () => {
  const c = new HtmlWorkerConverter({ file: script, timeoutMs: 60_000 });
  const hanging = c.htmlToMarkdown('HANG', 'https://x.test/1');
  const waiting = c.htmlToMarkdown('<p>w</p>', 'https://x.test/2');
  const refused = [assert.rejects(hanging, /closed/), assert.rejects(waiting, /closed/)];
  await c.dispose();
  await Promise.all(refused);
});
