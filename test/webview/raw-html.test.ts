// Raw HTML in an answer is shown as the text the model wrote; only a few attribute-free
// formatting tags render, and only when closed. Nothing the model writes can hide, swallow or
// restyle the rest of an answer, and a streamed answer ends exactly as a one-shot render.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';
import { RequestScript, message, snapshot, snapshotMessage } from './fixtures';

const env = useViewEnvironment();

/** Texts that used to swallow everything after them, each followed by a visible marker. */
const SWALLOWERS: Array<[string, string]> = [
  ['comment', 'A comment starts with <!-- and never ends here'],
  ['comment at line start', '<!-- unclosed comment'],
  ['style', '<style>\nbody { display: none }'],
  ['style inline', 'Put rules in a <style> element.'],
  ['title', 'The <title> element names the page.'],
  ['math style', '<math><style>'],
  ['textarea', '<textarea>'],
  ['xmp', '<xmp>'],
  ['plaintext', '<plaintext>'],
  ['noscript', '<noscript>'],
  ['script', '<script>'],
  ['template', '<template>'],
  ['iframe', '<iframe>'],
  ['select', '<select><option>a'],
  ['table', '<table><tr><td>cell'],
  ['unclosed details', '<details><summary>More'],
  ['unclosed kbd', 'Press <kbd>Ctrl'],
  ['unclosed b', 'This is <b>bold'],
  ['div with style', '<div style="display:none">'],
  ['raw pre', '<pre>'],
];

async function answerText(view: ViewHarness): Promise<string> {
  return (await view.page.getByRole('article', { name: 'Sextant' }).last().innerText()) ?? '';
}

async function markdownHtml(view: ViewHarness): Promise<string> {
  return view.page.evaluate(() => [...document.querySelectorAll('sx-markdown')].at(-1)?.innerHTML ?? '');
}

async function renderOnce(view: ViewHarness, text: string): Promise<void> {
  await deliver(view, snapshotMessage(snapshot({ messages: [message('user', 'q'), message('assistant', text)] })));
}

async function renderStreamed(view: ViewHarness, text: string, id: string): Promise<void> {
  await deliver(view, snapshotMessage(snapshot({ messages: [] })));
  const r = new RequestScript(id);
  const pieces = 4;
  const size = Math.ceil(text.length / pieces);
  await deliver(view, r.events(r.started('q')));
  for (let i = 0; i < pieces; i++) {
    await deliver(view, r.events({ type: 'text_delta', text: text.slice(i * size, (i + 1) * size) }));
  }
  await deliver(view, r.events({ type: 'complete' }));
}

describe('raw HTML in model output', () => {
  it('an unclosed container never hides what follows it, final or streamed', async () => {
    const view = await env.open();
    try {
      for (const [name, raw] of SWALLOWERS) {
        const marker = `MARKER-${name.replace(/\W+/g, '-').toUpperCase()}`;
        const text = `Intro line.\n\n${raw}\n\n${marker} is **still here**.\n\n- and a list item\n`;
        await renderOnce(view, text);
        const once = await answerText(view);
        assert.ok(once.includes(marker), `${name}: the marker after it is visible`);
        assert.ok(once.includes('and a list item'), `${name}: the list after it is visible`);
        const html = await markdownHtml(view);
        assert.match(html, /<strong>still here<\/strong>/, `${name}: Markdown after it still renders`);
        await renderStreamed(view, text, `s-${name}`);
        assert.ok((await answerText(view)).includes(marker), `${name}: visible after streaming`);
        assert.equal(await markdownHtml(view), html, `${name}: the streamed answer ends as the one-shot render`);
      }
    } finally {
      await view.close();
    }
  });

  it('shows the raw markup as the text the model wrote', async () => {
    const view = await env.open();
    try {
      await renderOnce(view, 'Use <style>p { color: red }</style> or <span class="x" onclick="f()">hi</span>.');
      const text = await answerText(view);
      assert.ok(text.includes('<style>p { color: red }</style>'), text);
      assert.ok(text.includes('<span class="x" onclick="f()">hi</span>'), text);
      const counts = await view.page.evaluate(() => ({
        style: document.querySelectorAll('sx-markdown style').length,
        span: document.querySelectorAll('sx-markdown span.x').length,
      }));
      assert.deepEqual(counts, { style: 0, span: 0 });
    } finally {
      await view.close();
    }
  });

  it('renders the allow-listed formatting tags when bare and closed', async () => {
    const view = await env.open();
    try {
      const text = [
        'Press <kbd>Ctrl</kbd>+<KBD>C</KBD>, H<sub>2</sub>O, x<sup>2</sup>, ' +
          '<b>bold</b>, <mark>marked</mark>.<br>Next line',
        '',
        '<details>',
        '<summary>More detail</summary>',
        '',
        'Inside the **details**.',
        '',
        '</details>',
        '',
        'After the details.',
      ].join('\n');
      await renderOnce(view, text);
      const found = await view.page.evaluate(() => {
        const md = [...document.querySelectorAll('sx-markdown')].at(-1) as Element;
        const tags = ['kbd', 'sub', 'sup', 'b', 'mark', 'br', 'details', 'summary'];
        return Object.fromEntries(tags.map((t) => [t, md.querySelectorAll(t).length]));
      });
      assert.deepEqual(found, { kbd: 2, sub: 1, sup: 1, b: 1, mark: 1, br: 1, details: 1, summary: 1 });
      const inside = await view.page.evaluate(
        () => document.querySelector('sx-markdown details')?.querySelector('strong')?.textContent,
      );
      assert.equal(inside, 'details', 'Markdown inside details renders');
      const after = await view.page.evaluate(() =>
        [...document.querySelectorAll('sx-markdown p')].some(
          (p) => p.textContent === 'After the details.' && !p.closest('details'),
        ),
      );
      assert.ok(after, 'text after </details> is outside it');
    } finally {
      await view.close();
    }
  });

  it('shows allow-listed tags with attributes, mismatched or unclosed, as text', async () => {
    const view = await env.open();
    try {
      await renderOnce(view, '<kbd class="approve">x</kbd> <b>one</i> <sub>open\n\n<sup>a</sup></sup> end');
      const result = await view.page.evaluate(() => {
        const md = [...document.querySelectorAll('sx-markdown')].at(-1) as HTMLElement;
        return {
          kbd: md.querySelectorAll('kbd').length,
          b: md.querySelectorAll('b').length,
          sup: md.querySelectorAll('sup').length,
          text: md.innerText,
        };
      });
      assert.equal(result.kbd, 0);
      assert.equal(result.b, 0);
      assert.equal(result.sup, 1, 'the one closed pair renders; the stray </sup> shows as text');
      assert.ok(result.text.includes('<kbd class="approve">x</kbd>'));
      assert.ok(result.text.includes('<b>one</i>'));
      assert.ok(result.text.includes('<sub>open'));
      assert.ok(result.text.includes('a</sup> end'));
    } finally {
      await view.close();
    }
  });

  it('Markdown still renders: code, tables, links, images as links', async () => {
    const view = await env.open();
    try {
      const text = [
        '# Title',
        '',
        '```html',
        '<style>body{}</style>',
        '```',
        '',
        '| a | b |',
        '|---|---|',
        '| `<td>` | [link](https://example.com) |',
        '',
        '![diagram](https://example.com/d.png)',
      ].join('\n');
      await renderOnce(view, text);
      const r = await view.page.evaluate(() => {
        const md = [...document.querySelectorAll('sx-markdown')].at(-1) as Element;
        return {
          h1: md.querySelector('h1')?.textContent,
          code: md.querySelector('pre code')?.textContent,
          cells: md.querySelectorAll('td').length,
          link: md.querySelector('td a')?.getAttribute('href'),
          image: md.querySelector('a.image-link')?.textContent,
          img: md.querySelectorAll('img').length,
        };
      });
      assert.deepEqual(r, {
        h1: 'Title',
        code: '<style>body{}</style>',
        cells: 2,
        link: 'https://example.com',
        image: 'Image: diagram',
        img: 0,
      });
    } finally {
      await view.close();
    }
  });
});
