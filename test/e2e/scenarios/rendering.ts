// How answers render in the real editor: raw HTML a model writes while explaining HTML or CSS is
// shown as text, and nothing it writes can hide the rest of the answer.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT, type E2E } from '../harness/e2e';
import { poll } from '../harness/workbench';

const ANSWER = [
  'To hide a section, wrap it in a comment: <!-- like this\n\n',
  'A stylesheet goes in a <style> element inside <head>, and the tab text comes from <title>.\n\n',
  'Math markup such as <math><style> is parsed by other rules.\n\n',
  'Press <kbd>Ctrl</kbd>+<kbd>S</kbd> to save; H<sub>2</sub>O renders too.\n\n',
  '```html\n<style>body { color: teal }</style>\n```\n\n',
  'END-OF-ANSWER: everything above stays visible.',
];

export function renderingScenarios(e2e: E2E): void {
  e2e.scenario(
    'an answer with raw HTML shows the tags as text and keeps everything after them',
    async ({ wb, fake }) => {
      fake.enqueue({ text: ANSWER, chunkDelayMs: 15 });
      await wb.openSextantView();
      await wb.typeMessage('How do I write HTML comments and styles?');
      const answer = wb.articles('Sextant').last();
      await poll('the end of the answer ("END-OF-ANSWER")', async () =>
        (await answer.innerText()).includes('END-OF-ANSWER'),
      );
      const text = await answer.innerText();
      for (const raw of ['<!-- like this', '<style>', '<title>', '<math><style>']) {
        assert.ok(text.includes(raw), `"${raw}" is shown as text`);
      }
      assert.equal(await answer.locator('kbd').count(), 2, 'bare <kbd> pairs render as keys');
      assert.equal(await answer.locator('sub').count(), 1);
      assert.equal(await answer.locator('style, title, math').count(), 0, 'no raw element reached the view');
      const shot = await wb.screenshot('raw-html-answer');
      await wb.docsScreenshot(shot, 'screenshot-raw-html', join(ROOT, 'docs'));
    },
  );
}
