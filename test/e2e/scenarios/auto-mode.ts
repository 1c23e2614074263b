// Auto mode as a user meets it in the real editor: Auto picked in the header's "Permission mode"; a
// routine command (no rule covers it) runs without a card, its card saying what the reviewer answered;
// a request to run outside the box still asks — the reviewer is not even consulted. Needs a working
// bubblewrap box (commands are reviewed only while boxed); skipped with the reason elsewhere.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectBackend } from '../../../extension/platform/sandbox/detect';
import type { E2E } from '../harness/e2e';
import { poll, waitUntil } from '../harness/workbench';

const CHANGED = 'permissions: settings changed';
const isReviewer = (body: unknown) => JSON.stringify(body ?? {}).includes('You review one action');

export function autoModeScenarios(e2e: E2E): void {
  const detected = detectBackend();
  if (!detected.ok || detected.backend !== 'bubblewrap') {
    console.log(`# auto mode scenarios skipped: ${detected.ok ? detected.backend : detected.reason}`);
    return;
  }

  e2e.scenario(
    "auto mode: picked in the header, a routine command runs with the reviewer's reason, leaving the box asks",
    async ({ wb, fake, workspace }) => {
      await wb.openSextantView();
      await wb.runPaletteCommand('Sextant: New Chat');
      const agent = wb.inWebview('radio', 'Agent');
      await waitUntil('the Agent mode radio', () => agent.check({ timeout: 15_000 }));
      const picker = wb.inWebview('combobox', 'Permission mode');
      await waitUntil('the Permission mode picker', () => picker.selectOption('auto', { timeout: 15_000 }));
      try {
        await poll(
          'auto in the user settings',
          async () => wb.readUserSettings()['sextant.permissions.defaultMode'] === 'auto',
        );
        await poll('the picker shows Auto', async () => (await picker.inputValue()) === 'auto');

        // A routine command: the reviewer (the fake model) allows it; no card asks.
        const before = fake.requests.length;
        fake.enqueue(
          { toolCalls: [{ name: 'bash', arguments: { command: 'echo routine-ok > routine.txt' } }] },
          { text: '{"decision": "allow", "reason": "writes the file the user asked for, inside the project"}' },
          { text: 'Wrote routine.txt.' },
        );
        await wb.typeMessage('Write routine-ok into routine.txt');
        await poll(
          'the answer',
          async () => (await wb.articles('Sextant').last().innerText()).includes('Wrote routine'),
          60_000,
        );
        const card = wb.inWebview('group', 'Tool: bash').last();
        assert.match(await card.innerText(), /Reviewed: allowed — writes the file the user asked for/);
        assert.equal(await wb.inWebview('group', 'Approval: bash').count(), 0, 'no approval card');
        assert.equal(readFileSync(join(workspace, 'routine.txt'), 'utf8'), 'routine-ok\n');
        assert.ok(isReviewer(fake.requests[before + 1]?.body), 'the second request was the review');

        // Leaving the box: asks, and the reviewer is not asked.
        const mark = fake.requests.length;
        fake.enqueue(
          {
            toolCalls: [
              { name: 'bash', arguments: { command: 'echo outside', outside_box: 'it needs the host network' } },
            ],
          },
          { text: 'Stayed in the box.' },
        );
        await wb.typeMessage('Echo outside the box');
        const approval = wb.inWebview('group', 'Approval: bash');
        await poll('the escape card', async () => (await approval.count()) === 1, 30_000);
        assert.match(await approval.innerText(), /outside the sandbox .*always asks/);
        await wb.clickInWebview('button', 'Deny');
        await poll('the final answer', async () =>
          (await wb.articles('Sextant').last().innerText()).includes('Stayed in the box'),
        );
        assert.ok(
          fake.requests.slice(mark).every((r) => !isReviewer(r.body)),
          'the reviewer was not asked about leaving the box',
        );
      } finally {
        await wb.setUserSettings({ 'sextant.permissions.defaultMode': undefined }, CHANGED);
      }
    },
  );
}
