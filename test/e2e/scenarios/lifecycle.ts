// The view's life cycle: re-created from the host's snapshot, New Chat from the palette, activation.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { E2E_KEY, type E2E } from '../harness/e2e';
import { findFiles, poll, waitUntil } from '../harness/workbench';

export function lifecycleScenarios(e2e: E2E): void {
  e2e.scenario('switching to the Explorer and back re-creates the view with the conversation', async ({ wb, page }) => {
    await wb.openSextantView();
    const texts = async (): Promise<string[]> => wb.webviewFrame().getByRole('article').allInnerTexts();
    const shown = await texts();
    assert.ok(shown.length >= 2, 'the earlier scenarios should have left a conversation on screen');

    await wb.showExplorer();
    // Without retainContextWhenHidden VS Code disposes the hidden webview: its iframe goes away.
    await poll(
      'the Sextant webview to be disposed while the Explorer is shown',
      async () => (await page.locator('iframe.webview[src*="extensionId=sextant.sextant"]').count()) === 0,
    );

    await wb.openSextantView();
    await poll(
      'the same conversation to be shown again',
      async () => JSON.stringify(await texts()) === JSON.stringify(shown),
    );
  });

  e2e.scenario('"Sextant: New Chat" from the command palette starts an empty conversation', async ({ wb, fake }) => {
    await wb.openSextantView();
    assert.ok((await wb.webviewFrame().getByRole('article').count()) > 0, 'expected a conversation before New Chat');
    await wb.runPaletteCommand('Sextant: New Chat');
    await poll('no messages after New Chat', async () => (await wb.webviewFrame().getByRole('article').count()) === 0);

    fake.enqueue({ text: 'A fresh start.' });
    await wb.typeMessage('Hello again');
    await poll('an answer in the new chat', async () =>
      (await wb.articles('Sextant').last().innerText()).includes('A fresh start.'),
    );
    const body = fake.requests[0]?.body as { messages?: Array<{ role: string; content: unknown }> } | undefined;
    const userTurns = (body?.messages ?? []).filter((m) => m.role === 'user');
    assert.equal(userTurns.length, 1, 'the new chat sent earlier turns to the model');
  });

  e2e.scenario(
    'reports its activation time in the "Sextant" output channel, and no key in any log',
    async ({ wb, figure }) => {
      const text = await poll('"Sextant activated in <ms> ms" in the Sextant output channel', async () => {
        const t = wb.outputChannelText('Sextant');
        return /Sextant activated in [\d.]+ ms/.test(t) ? t : undefined;
      });
      const ms = Number(/Sextant activated in ([\d.]+) ms/.exec(text)?.[1]);
      assert.ok(Number.isFinite(ms) && ms >= 0);
      figure('activation ms', ms);

      const logs = findFiles(wb.paths.userDataDir, (f) => f.endsWith('.log'));
      for (const f of logs) assert.ok(!readFileSync(f, 'utf8').includes(E2E_KEY), `the API key appears in ${f}`);
      assert.ok(
        !(await wb.webviewFrame().locator('body').innerText()).includes(E2E_KEY),
        'the API key is shown in the webview',
      );
    },
  );
}

export function keyScenarios(e2e: E2E): void {
  e2e.scenario(
    '"Sextant: Set API Key" stores a key that wins over the environment variable, and Clear removes it',
    async ({ wb, page, fake }) => {
      const stored = 'sk-e2e-stored-in-secretstorage-91ab';
      await wb.openSextantView();
      const fakeRow = page.locator('.quick-input-list .monaco-list-row[aria-label^="fake"]').first();
      await wb.enterSecret('Sextant: Set API Key', 'fake', stored, 'API key for fake saved');

      await wb.runPaletteCommand('Sextant: New Chat');
      fake.enqueue({ text: 'Keyed.' });
      await wb.typeMessage('Which key?');
      await poll('the answer', async () => (await wb.articles('Sextant').last().innerText()).includes('Keyed.'));
      assert.equal(
        fake.requests.at(-1)?.headers.authorization,
        `Bearer ${stored}`,
        'SecretStorage did not win over apiKeyEnv',
      );

      await wb.runPaletteCommand('Sextant: Clear API Key', { opensInput: true });
      await waitUntil('the provider picker with "fake"', () => fakeRow.click({ timeout: 10_000 }));
      fake.enqueue({ text: 'Env key again.' });
      await wb.typeMessage('And now?');
      await poll('the answer', async () =>
        (await wb.articles('Sextant').last().innerText()).includes('Env key again.'),
      );
      assert.equal(
        fake.requests.at(-1)?.headers.authorization,
        `Bearer ${E2E_KEY}`,
        'after Clear the environment key is used again',
      );
      for (const f of findFiles(wb.paths.userDataDir, (p) => p.endsWith('.log'))) {
        assert.ok(!readFileSync(f, 'utf8').includes(stored), `the stored key appears in ${f}`);
      }
    },
    { timeoutMs: 90_000 },
  );
}
