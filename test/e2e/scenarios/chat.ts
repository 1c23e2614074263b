// Chatting as a user: streamed Markdown answers, the mode switch, Stop.
import assert from 'node:assert/strict';
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
  e2e.scenario(
    'opens the Sextant view from the activity bar and renders a streamed Markdown answer',
    async ({ wb, fake, figure }) => {
      fake.enqueue({ text: ANSWER, chunkDelayMs: 20 });
      await wb.openSextantView();
      // The first use of a fresh window: Enter in the composer → the request at the model's server.
      await wb.typeMessage('What does a sextant measure?', { send: false });
      // Two clocks: from the test's key press (includes the browser delivering the key into the nested
      // webview frame, which is the harness's, not Sextant's), and from the keydown inside the webview.
      const box = wb.inWebview('textbox', 'Message');
      await wb.armKeydownClock();
      const sentAt = performance.timeOrigin + performance.now();
      await box.press('Enter');
      const first = await fake.waitForRequests(1);
      figure('first use: Enter → request on the wire ms', Number((first[0].receivedAt - sentAt).toFixed(1)));
      const keydownAt = await wb.keydownAt();
      if (keydownAt !== undefined)
        figure(
          'first use: keydown in the view → request on the wire ms',
          Number((first[0].receivedAt - keydownAt).toFixed(1)),
        );
      const ready = /runtime ready in ([\d.]+) ms/.exec(wb.outputChannelText('Sextant'));
      if (ready) figure('first use: view opened → runtime ready ms', Number(ready[1]));

      const you = wb.articles('You').last();
      await poll('the user message "What does a sextant measure?"', async () =>
        (await you.innerText()).includes('What does a sextant measure?'),
      );
      const answer = wb.articles('Sextant').last();
      await poll('the answer to arrive in full ("Fair winds.")', async () =>
        (await answer.innerText()).includes('Fair winds.'),
      );

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
      await wb.docsScreenshot(shot, 'screenshot-chat', join(ROOT, 'docs'));
    },
  );

  e2e.scenario('Shift+Tab in the composer cycles the mode', async ({ wb }) => {
    await wb.openSextantView();
    const group = wb.inWebview('radiogroup', 'Mode');
    await poll('the "Mode" radio group', () => group.isVisible());
    const modes = ['Chat', 'Plan', 'Research', 'Agent'];
    // Radios are named by their labels; read which one is checked, and which are offered.
    const checked = async (): Promise<string> => {
      const on: string[] = [];
      for (const m of modes) if (await group.getByRole('radio', { name: m, exact: true }).isChecked()) on.push(m);
      return on.length === 1 ? on[0] : '';
    };
    const start = await poll('exactly one checked mode', checked);
    const enabled: string[] = [];
    for (const m of modes) if (await group.getByRole('radio', { name: m, exact: true }).isEnabled()) enabled.push(m);
    assert.ok(
      enabled.length >= 2 && enabled.includes(start),
      `enabled modes: ${enabled.join(', ')}; checked: ${start}`,
    );

    const box = wb.inWebview('textbox', 'Message');
    await box.click();
    await box.press('Shift+Tab');
    // Disabled modes (not shipped yet) are skipped.
    const next = enabled[(enabled.indexOf(start) + 1) % enabled.length];
    await poll(`mode "${next}" after Shift+Tab from "${start}"`, async () => (await checked()) === next);
    // The composer keeps the focus, so Shift+Tab can be pressed again until the cycle closes.
    for (let i = 1; i < enabled.length; i++) await box.press('Shift+Tab');
    await poll(
      `mode back to "${start}" after ${enabled.length} Shift+Tab presses`,
      async () => (await checked()) === start,
    );
  });

  e2e.scenario('Stop ends a long stream and the partial answer stays, marked stopped', async ({ wb, fake }) => {
    // The fake sends these words and then keeps the response open: the text on screen while the
    // request is still in flight proves it is streamed, and only Stop can end it.
    // A long answer, slowly: the first words are on screen long before the model would finish.
    const words = ['Partial answer: alpha beta gamma ', ...Array.from({ length: 2000 }, (_, i) => `word${i} `)];
    fake.enqueue({ text: words, chunkDelayMs: 25 });
    await wb.openSextantView();
    const before = await wb.articles('Sextant').count();
    const requestsBefore = fake.requests.length;
    await wb.typeMessage('Write a very long essay');
    const answer = wb.articles('Sextant').nth(before);
    await poll('the partial answer "…gamma" while the response is still open', async () =>
      (await answer.innerText()).includes('gamma'),
    );
    const req = (await fake.waitForRequests(requestsBefore + 1))[requestsBefore];
    assert.equal(req.outcome, undefined, 'the response should still be in flight');

    await wb.clickInWebview('button', 'Stop');
    // The state Stop must reach: the HTTP request to the model closed by the client.
    const outcome = await poll('the request to the model to close after Stop', async () => req.outcome);
    assert.equal(outcome, 'client-closed', 'Stop did not close the HTTP request to the model');

    await poll('the "Stop" button to go away', async () => (await wb.inWebview('button', 'Stop').count()) === 0);
    const text = await answer.innerText();
    assert.match(text, /alpha beta gamma/, 'the partial answer was not kept');
    assert.match(text, /stopped/i, 'the partial answer is not marked as stopped');
    assert.ok(!text.includes('word1999'), 'the answer ran to its end: Stop did not stop it');
  });
}
