// Failover as a user meets it: with sextant.fallbackModel set, a chat turn whose model keeps answering
// 500 is answered by the fallback, and the answer says so plainly above its text, naming both models;
// its header names the model that answered. The scenario restores the settings it changed.
import assert from 'node:assert/strict';
import type { E2E } from '../harness/e2e';
import { poll, waitUntil } from '../harness/workbench';

const CHANGED = 'providers: settings changed';

export function failoverScenarios(e2e: E2E): void {
  e2e.scenario(
    'Failover: the model fails with 500s; sextant.fallbackModel answers and the chat says so',
    async ({ wb, fake }) => {
      const original = wb.readUserSettings();
      const providers = original['sextant.providers'] as Array<Record<string, unknown>>;
      const primary = providers[0];
      // A second provider on the same fake server, told apart by its model name.
      const backup = { ...primary, name: 'backup', models: ['backup-model'] };
      await wb.openSextantView();
      await wb.setUserSettings(
        { 'sextant.providers': [...providers, backup], 'sextant.fallbackModel': 'backup/backup-model' },
        CHANGED,
      );
      try {
        await wb.openSextantView();
        await wb.runPaletteCommand('Sextant: New Chat');
        const chat = wb.inWebview('radio', 'Chat');
        await waitUntil('the Chat mode radio', () => chat.check({ timeout: 15_000 }));

        // The primary's request and the SDK's two retries fail; then the fallback answers.
        const error = { status: 500, headers: { 'retry-after-ms': '1' }, errorMessage: 'upstream overloaded' };
        fake.enqueue(error, error, error, { text: 'The fallback model answered this.' });
        await wb.typeMessage('Are you there?');
        const answer = wb.articles('Sextant').last();
        await poll('the fallback’s answer', async () =>
          (await answer.innerText()).includes('The fallback model answered this.'),
        );
        const shown = await answer.innerText();
        assert.match(shown, /fake\/fake-model failed \(.*500.*\); answered by fallback backup\/backup-model\./s);
        assert.ok(shown.indexOf('failed (') < shown.indexOf('The fallback model answered this.'));
        assert.equal(shown.split('The fallback model answered this.').length, 2, 'the answer is shown once');
        assert.equal((await answer.locator('.model-name').innerText()).trim(), 'backup/backup-model');
        const models = fake.requests.map((r) => (r.body as { model?: string } | undefined)?.model);
        assert.deepEqual(models.slice(-4), ['fake-model', 'fake-model', 'fake-model', 'backup-model']);
        await wb.screenshot('failover');
      } finally {
        await wb.setUserSettings({ 'sextant.providers': providers, 'sextant.fallbackModel': undefined }, CHANGED);
        const chat = wb.inWebview('radio', 'Chat');
        await waitUntil('the Chat mode radio', () => chat.check({ timeout: 15_000 }));
      }
    },
  );
}
