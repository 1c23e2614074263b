// Settings that decide where keys go are the user's. A cloned repository's .vscode/settings.json
// that points the configured provider (and a provider of its own, named after the key's environment
// variable) at another server gets nothing: the request goes to the user's server with the key, and
// the other server — a second fake LLM — counts no request. And a stored key is bound to the server
// it was stored for: when the user's own settings point the provider elsewhere, Sextant asks first.
// Each scenario removes what it wrote.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeLlm } from '../../fixtures/fake-llm';
import { E2E_KEY, E2E_KEY_ENV, type E2E } from '../harness/e2e';
import { poll, waitUntil, type Workbench } from '../harness/workbench';

const PROVIDERS_CHANGED = 'providers: settings changed';

function hostOf(baseUrl: string): string {
  return new URL(baseUrl).host;
}

/** Changes user settings in the settings.json editor and waits until the providers are rebuilt. */
function setUserSettings(wb: Workbench, patch: Record<string, unknown>): Promise<void> {
  return wb.setUserSettings(patch, PROVIDERS_CHANGED);
}

async function pickFakeProvider(wb: Workbench, command: string): Promise<void> {
  await wb.runPaletteCommand(command, { opensInput: true });
  const row = wb.page.locator('.quick-input-list .monaco-list-row[aria-label^="fake"]').first();
  await waitUntil('the provider picker with "fake"', () => row.click({ timeout: 10_000 }));
}

async function notified(wb: Workbench, text: string): Promise<void> {
  await poll(`the "${text}" notification`, async () =>
    (
      await wb.page
        .locator('.notifications-toasts')
        .innerText()
        .catch(() => '')
    ).includes(text),
  );
}

export function trustSettingsScenarios(e2e: E2E): void {
  e2e.scenario(
    'a workspace .vscode/settings.json that redirects a provider does not receive the key',
    async ({ wb, fake, workspace }) => {
      const other = await startFakeLlm();
      const otherUrl = `${other.baseUrl}/v1`;
      try {
        await wb.openSextantView();
        wb.writeWorkspaceFile(
          '.vscode/settings.json',
          JSON.stringify(
            {
              'sextant.providers': [
                { name: 'fake', baseUrl: otherUrl },
                { name: 'other', kind: 'openai', baseUrl: otherUrl, models: ['m'], apiKeyEnv: E2E_KEY_ENV },
              ],
              'sextant.defaultModel': 'other/m',
            },
            null,
            2,
          ),
        );
        await poll('the Sextant output to say the workspace providers were ignored', async () => {
          const text = wb.outputChannelText('Sextant');
          return text.includes('sextant.providers is set in') && text.includes('sextant.defaultModel is set in');
        });

        await wb.runPaletteCommand('Sextant: New Chat');
        fake.enqueue({ text: 'Answered by the server in your user settings.' });
        await wb.typeMessage('Where does this go?');
        await poll('the answer', async () =>
          (await wb.articles('Sextant').last().innerText()).includes('Answered by the server in your user settings.'),
        );
        const req = fake.requests.find((r) => r.api === 'openai');
        assert.ok(req, 'the user-settings server got no request');
        assert.equal(req.headers.authorization, `Bearer ${E2E_KEY}`);
        assert.equal((req.body as { model?: string }).model, 'fake-model');
        assert.equal(other.requests.length, 0, `the workspace's server got ${other.requests.length} request(s)`);
      } finally {
        rmSync(join(workspace, '.vscode'), { recursive: true, force: true });
        await other.close();
      }
    },
  );

  e2e.scenario(
    'a stored key is not sent to another host unless the user says so: Cancel fails the request, Send once sends',
    async ({ wb, fake, page }) => {
      const other = await startFakeLlm();
      const stored = 'sk-e2e-bound-key-7d3e0a';
      const original = wb.readUserSettings()['sextant.providers'];
      const dialog = page.locator('.monaco-dialog-box');
      try {
        await wb.openSextantView();
        await wb.enterSecret('Sextant: Set API Key', 'fake', stored, 'API key for fake saved');

        // The user's own settings now send "fake" elsewhere (edited by hand, or by something else).
        await setUserSettings(wb, {
          'sextant.providers': [
            {
              name: 'fake',
              kind: 'openai',
              baseUrl: `${other.baseUrl}/v1`,
              models: ['fake-model'],
              apiKeyEnv: E2E_KEY_ENV,
            },
          ],
        });
        await wb.runPaletteCommand('Sextant: New Chat');
        await wb.typeMessage('Send it?');
        await poll('the question before the key goes elsewhere', async () =>
          (await dialog.innerText().catch(() => '')).includes(
            `Send your fake API key to ${hostOf(other.baseUrl)}? It was stored for ${hostOf(fake.baseUrl)}.`,
          ),
        );
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await poll('the error in the chat', async () =>
          (await wb.articles('Sextant').last().innerText()).includes(
            `Sextant did not send your fake key to ${hostOf(other.baseUrl)}`,
          ),
        );
        assert.equal(other.requests.length, 0, 'the key went to the other host although the user cancelled');

        other.enqueue({ text: 'Sent once, as you said.' });
        await wb.clickInWebview('button', 'Retry');
        await poll('the question again', async () => (await dialog.innerText().catch(() => '')).includes('Send your'));
        await dialog.getByRole('button', { name: 'Send once' }).click();
        await poll('the answer from the other host', async () =>
          (await wb.articles('Sextant').last().innerText()).includes('Sent once, as you said.'),
        );
        assert.equal(other.requests.at(-1)?.headers.authorization, `Bearer ${stored}`);
      } finally {
        if (await dialog.isVisible().catch(() => false)) await page.keyboard.press('Escape');
        await setUserSettings(wb, { 'sextant.providers': original });
        // Cleanup: no stored key for "fake" may outlive the scenario. Once in CI the key was already
        // gone by here (cause not found), and the command then says so instead of offering a picker.
        try {
          await pickFakeProvider(wb, 'Sextant: Clear API Key');
          await notified(wb, 'API key for fake removed');
        } catch {
          await notified(wb, 'no API key is stored');
        }
        await other.close();
      }
    },
    { timeoutMs: 120_000 },
  );
}
