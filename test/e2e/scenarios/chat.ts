// Chatting as a user: streamed Markdown answers, the mode switch, Stop.
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { E2E_KEY, ROOT, type E2E } from '../harness/e2e';
import { poll } from '../harness/workbench';

const ANSWER = [
  '## The sextant\n\n',
  'A sextant measures the **angle** between two visible objects, ',
  'usually a celestial body and the horizon.\n\n',
  '- invented around `1759`\n',
  '- accurate to a fraction of a minute of arc\n\n',
  'Fair winds.',
];

export function chatScenarios(e2e: E2E): void {
  e2e.scenario('opens the Sextant view from the activity bar and renders a streamed Markdown answer', async ({ wb, fake }) => {
    fake.enqueue({ text: ANSWER, chunkDelayMs: 20 });
    await wb.openSextantView();
    await wb.typeMessage('What does a sextant measure?');

    const you = wb.articles('You').last();
    await poll('the user message "What does a sextant measure?"', async () => (await you.innerText()).includes('What does a sextant measure?'));
    const answer = wb.articles('Sextant').last();
    await poll('the answer to arrive in full ("Fair winds.")', async () => (await answer.innerText()).includes('Fair winds.'));

    // Rendered as Markdown, not shown as source.
    assert.equal(await answer.locator('strong').first().innerText(), 'angle');
    assert.equal(await answer.locator('li').count(), 2);
    assert.equal(await answer.locator('code').first().innerText(), '1759');
    assert.ok(!(await answer.innerText()).includes('**'), 'Markdown markers are visible in the answer');

    // The request reached the model configured in settings.json, with the key from the environment.
    const req = fake.requests.find((r) => r.api === 'openai');
    assert.ok(req, 'no chat-completions request reached the fake LLM');
    assert.equal(req.headers.authorization, `Bearer ${E2E_KEY}`);
    const body = req.body as { model?: string; stream?: boolean; messages?: unknown };
    assert.equal(body.model, 'fake-model');
    assert.equal(body.stream, true);
    assert.match(JSON.stringify(body.messages), /What does a sextant measure\?/);

    const shot = await wb.screenshot('chat-answer');
    if (process.env.SEXTANT_E2E_DOCS_SCREENSHOT) copyFileSync(shot, join(ROOT, 'docs', 'screenshot-chat.png'));
  });

  e2e.scenario('Shift+Tab in the composer cycles the mode', async ({ wb }) => {
    await wb.openSextantView();
    const group = wb.inWebview('radiogroup', 'Mode');
    await poll('the "Mode" radio group', () => group.isVisible());
    const checked = async (): Promise<string> => {
      const radio = group.getByRole('radio', { checked: true });
      return (await radio.count()) === 1 ? ((await radio.getAttribute('aria-label')) ?? (await radio.innerText())).trim() : '';
    };
    const modes = ['Chat', 'Plan', 'Research', 'Agent'];
    const start = await poll('exactly one checked mode', checked);
    assert.ok(modes.includes(start), `unexpected checked mode "${start}"`);

    const box = wb.inWebview('textbox', 'Message');
    await box.click();
    await box.press('Shift+Tab');
    const next = modes[(modes.indexOf(start) + 1) % modes.length];
    await poll(`mode "${next}" after Shift+Tab from "${start}"`, async () => (await checked()) === next);
    // The composer keeps the focus so Shift+Tab can be pressed again.
    for (let i = 0; i < 3; i++) await box.press('Shift+Tab');
    await poll(`mode back to "${start}" after four Shift+Tab presses`, async () => (await checked()) === start);
  });

  e2e.scenario('Stop ends a long stream and the partial answer stays, marked stopped', async ({ wb, fake }) => {
    // The fake sends these words and then keeps the response open: the text on screen while the
    // request is still in flight proves it is streamed, and only Stop can end it.
    fake.enqueue({ text: 'Partial answer: alpha beta gamma', hang: true });
    await wb.openSextantView();
    const before = await wb.articles('Sextant').count();
    await wb.typeMessage('Write a very long essay');
    const answer = wb.articles('Sextant').nth(before);
    await poll('the partial answer "…gamma" while the response is still open', async () => (await answer.innerText()).includes('gamma'));
    const [req] = await fake.waitForRequests(1);
    assert.equal(req.outcome, undefined, 'the response should still be in flight');

    await wb.clickInWebview('button', 'Stop');
    const outcome = await Promise.race([req.settled, new Promise<string>((r) => setTimeout(() => r('still open 10 s after Stop'), 10_000))]);
    assert.equal(outcome, 'client-closed', 'Stop did not close the HTTP request to the model');

    await poll('the "Stop" button to go away', async () => (await wb.inWebview('button', 'Stop').count()) === 0);
    const text = await answer.innerText();
    assert.match(text, /alpha beta gamma/, 'the partial answer was not kept');
    assert.match(text, /stopped/i, 'the partial answer is not marked as stopped');
  });
}
