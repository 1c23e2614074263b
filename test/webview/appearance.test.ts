// Code and changes as they look in the editor: a fenced block with a language is highlighted (token
// spans from the lazily loaded highlighter, coloured by the theme's --vscode-* variables), and a
// unified diff in a tool card, an approval card or a plan step colours its added and removed lines
// with the theme's diff colours. With SEXTANT_DOCS_SCREENSHOT=1 it also writes
// docs/screenshot-theme-{light,dark,high-contrast}.webp.
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { pngToWebp } from '../fixtures/chromium';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';
import { RequestScript, message, snapshot, snapshotMessage } from './fixtures';
import { EDIT_DIFF, agentScene, chatScene, finishedEdit, planScene } from './scenes';
import { DARK, HIGH_CONTRAST, LIGHT, THEMES, type Theme } from './themes';

const env = useViewEnvironment();
let view: ViewHarness;
let chunkRequests: string[];

beforeEach(async () => {
  view = await env.open();
  chunkRequests = [];
  view.page.on('request', (r) => {
    if (r.url().includes('/webview-chunks/')) chunkRequests.push(r.url());
  });
});
afterEach(async () => {
  assert.deepEqual(await view.violations(), []);
  assert.deepEqual(view.pageErrors, []);
  await view.close();
});

/** Sets the theme's colours the way VS Code does: variables on the root, a class on the body. */
async function useTheme(page: Page, theme: Theme): Promise<void> {
  await page.evaluate((t) => {
    document.body.classList.remove('vscode-dark', 'vscode-light', 'vscode-high-contrast');
    document.body.classList.add(t.bodyClass);
    for (const [k, v] of Object.entries(t.colors)) document.documentElement.style.setProperty(`--vscode-${k}`, v);
  }, theme);
}

const style = (page: Page, selector: string, prop: 'color' | 'backgroundColor' | 'outlineColor') =>
  page
    .locator(selector)
    .first()
    .evaluate((el, p) => getComputedStyle(el)[p], prop);

function rgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

describe('highlighted code', () => {
  it('a block with a language gets token spans in the theme colours; the highlighter loads on first need', async () => {
    await deliver(view, snapshotMessage(snapshot({ messages: [message('assistant', 'No code here.')] })));
    await view.page.getByText('No code here.').waitFor();
    assert.deepEqual(chunkRequests, [], 'the highlighter loaded before any code block needed it');

    await chatScene(view);
    assert.ok(
      chunkRequests.some((u) => /webview-chunks\/highlight-/.test(u)),
      'highlighter chunk not loaded',
    );
    const code = view.page.locator('pre > code.language-ts[data-highlighted="yes"]');
    assert.ok((await code.locator('.hljs-keyword').count()) >= 5, 'keywords are not marked');
    assert.ok((await code.locator('.hljs-string').count()) >= 2, 'strings are not marked');
    assert.ok((await code.locator('.hljs-comment').count()) >= 1, 'the comment is not marked');
    // The text is unchanged (copying the block still gives the code).
    assert.match((await code.textContent()) ?? '', /export async function countLines\(path: string\)/);

    for (const theme of [DARK, LIGHT, HIGH_CONTRAST]) {
      await useTheme(view.page, theme);
      assert.equal(await style(view.page, '.hljs-keyword', 'color'), rgb(theme.colors['debugTokenExpression-name']));
      assert.equal(await style(view.page, '.hljs-string', 'color'), rgb(theme.colors['debugTokenExpression-string']));
    }
  });

  it('unknown languages stay plain, and markup inside code is text', async () => {
    const r = new RequestScript('r-code');
    await deliver(view, snapshotMessage(snapshot()));
    const text =
      '```nosuchlang\nfoo bar\n```\n\n' +
      '```html\n<img src=x onerror="window.__pwned=1"><b>bold</b>\n```\n\n' +
      '```ts\nlet a = 1;\n```';
    await deliver(view, r.events(r.started('code'), { type: 'text_delta', text }, { type: 'complete' }));
    await view.page.locator('code.language-ts[data-highlighted="yes"]').waitFor();
    await view.page.locator('code.language-html[data-highlighted="yes"]').waitFor();
    const plain = view.page.locator('code.language-nosuchlang');
    assert.equal(await plain.locator('span').count(), 0);
    assert.equal(await view.page.locator('.md-chunk img, .md-chunk b').count(), 0, 'markup in code was rendered');
    assert.ok((await view.page.locator('code.language-html .hljs-tag').count()) >= 2);
  });
});

describe('coloured diffs', () => {
  it("a finished edit's tool card and the approval card colour added and removed lines in diff colours", async () => {
    await agentScene(view);
    await useTheme(view.page, DARK);
    const card = view.page.getByRole('group', { name: 'Tool: edit_file' });
    assert.equal(await card.locator('.tool-preview .diff-add').textContent(), '+let total = 1;');
    assert.equal(await card.locator('.tool-preview .diff-del').textContent(), '-let total = 0;');
    assert.equal(await card.locator('.tool-preview .diff-hunk').count(), 1);
    const added = DARK.colors['diffEditor-insertedLineBackground'];
    const removed = DARK.colors['diffEditor-removedLineBackground'];
    assert.equal(await style(view.page, '.tool-preview .diff-add', 'backgroundColor'), added);
    assert.equal(await style(view.page, '.tool-preview .diff-del', 'backgroundColor'), removed);
    assert.equal(await style(view.page, '.approval-diff .diff-add', 'backgroundColor'), added);
    // A command's output is not a diff: no colouring.
    assert.equal(await view.page.getByRole('group', { name: 'Tool: bash' }).locator('.diff-line').count(), 0);
    // High contrast themes draw borders instead of tints.
    await useTheme(view.page, HIGH_CONTRAST);
    assert.equal(
      await style(view.page, '.tool-preview .diff-add', 'outlineColor'),
      rgb(HIGH_CONTRAST.colors['diffEditor-insertedTextBorder']),
    );
  });

  it('a plan step that carries a diff shows it coloured', async () => {
    await planScene(view);
    const step = view.page.locator('.plan-steps .plan-step-detail.diff');
    assert.equal(await step.locator('.diff-add').textContent(), '+let total = 1;');
    assert.equal(await step.locator('.diff-del').textContent(), '-let total = 0;');
    assert.ok(EDIT_DIFF.includes('+let total = 1;'));
  });
});

describe('themes', () => {
  it('screenshots in light, dark and high contrast (SEXTANT_DOCS_SCREENSHOT=1)', async (t) => {
    if (!process.env.SEXTANT_DOCS_SCREENSHOT) {
      t.skip('set SEXTANT_DOCS_SCREENSHOT=1 to refresh docs/screenshot-theme-*.webp');
      return;
    }
    await chatScene(view);
    const r = new RequestScript('r-edit');
    await deliver(
      view,
      r.events(
        r.started('Make the total start at one', 'agent'),
        finishedEdit('e1'),
        { type: 'text_delta', text: 'Done: `total` now starts at 1.' },
        { type: 'complete' },
      ),
    );
    await view.page.getByText('now starts at 1.').waitFor();
    for (const theme of THEMES) {
      await useTheme(view.page, theme);
      await view.page.evaluate(() => {
        const s = document.querySelector('.scroll-area');
        if (s) s.scrollTop = s.scrollHeight;
      });
      const png = await view.page.screenshot();
      writeFileSync(
        join(process.cwd(), 'docs', `screenshot-theme-${theme.name}.webp`),
        await pngToWebp(view.page, png),
      );
    }
  });
});
