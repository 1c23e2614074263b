// The sandbox as a user meets it in the real editor (Linux: bubblewrap): a command runs boxed — its
// own output file is written and its output reaches the model — while its write to a protected path
// is refused; the card at the edge names the rule and offers a run outside the box. An escape request
// asks even in sandbox mode auto with an allow rule covering the command, and offers no Always allow.
// Skipped (with the reason) where no bubblewrap box works.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectBackend } from '../../../extension/platform/sandbox/detect';
import type { E2E } from '../harness/e2e';
import { poll, waitUntil, type Workbench } from '../harness/workbench';

const CHANGED = 'permissions: settings changed';

async function startAgentChat(wb: Workbench): Promise<void> {
  await wb.openSextantView();
  await wb.runPaletteCommand('Sextant: New Chat');
  const agent = wb.inWebview('radio', 'Agent');
  await waitUntil('the Agent mode radio', () => agent.check({ timeout: 15_000 }));
}

export function sandboxScenarios(e2e: E2E): void {
  const detected = detectBackend();
  if (!detected.ok || detected.backend !== 'bubblewrap') {
    console.log(`# sandbox scenarios skipped: ${detected.ok ? detected.backend : detected.reason}`);
    return;
  }

  e2e.scenario(
    'a command runs in the box: its own work succeeds, a protected write is refused and named',
    async ({ wb, fake, workspace }) => {
      await startAgentChat(wb);
      const status = wb.inWebview('status', 'Sandbox');
      await poll('the sandbox status in the header', async () => /Boxed/.test(await status.innerText()));
      const before = fake.requests.length;
      fake.enqueue(
        {
          toolCalls: [
            {
              name: 'bash',
              arguments: { command: 'echo boxed-ok > boxed.txt; cat boxed.txt; echo {} > .vscode/tasks.json' },
            },
          ],
        },
        { text: 'The box kept .vscode read-only.' },
      );
      await wb.typeMessage('Write a file and a task');
      const card = wb.inWebview('group', 'Approval: bash');
      await poll('the approval card', async () => (await card.count()) === 1, 30_000);
      await wb.clickInWebview('button', 'Approve');
      // The edge: the box refused the write; the card names the rule and offers a run outside.
      await poll(
        'the edge card',
        async () => (await card.count()) === 1 && (await card.innerText()).includes('Run once outside the box'),
        30_000,
      );
      assert.match(await card.innerText(), /\.vscode\/ stays read-only in the sandbox/);
      await wb.clickInWebview('button', 'Keep the result');
      await poll('the final answer', async () =>
        (await wb.articles('Sextant').last().innerText()).includes('kept .vscode read-only'),
      );
      const told = JSON.stringify(fake.requests[before + 1]?.body ?? {});
      assert.match(told, /boxed-ok/, 'the output reached the model');
      assert.match(told, /\[sandbox\] refused \.vscode\/tasks\.json/, 'the model was told which rule refused it');
      assert.equal(readFileSync(join(workspace, 'boxed.txt'), 'utf8'), 'boxed-ok\n');
      assert.equal(existsSync(join(workspace, '.vscode', 'tasks.json')), false);
    },
  );

  e2e.scenario(
    'an escape request asks in sandbox mode auto although a rule allows the command',
    async ({ wb, fake }) => {
      await wb.setUserSettings(
        { 'sextant.sandbox.mode': 'auto', 'sextant.permissions.allow': ['bash(echo *)'] },
        CHANGED,
      );
      try {
        await startAgentChat(wb);
        await poll('auto in the header', async () => /auto/.test(await wb.inWebview('status', 'Sandbox').innerText()));
        fake.enqueue(
          { toolCalls: [{ name: 'bash', arguments: { command: 'echo inside' } }] },
          {
            toolCalls: [
              { name: 'bash', arguments: { command: 'echo outside', outside_box: 'it must reach the host network' } },
            ],
          },
          { text: 'Stayed in the box.' },
        );
        await wb.typeMessage('Echo twice');
        const card = wb.inWebview('group', 'Approval: bash');
        await poll('the escape card', async () => (await card.count()) === 1, 30_000);
        const text = await card.innerText();
        assert.match(text, /echo outside/);
        assert.match(text, /outside the sandbox .*always asks/);
        assert.equal(await card.getByRole('button', { name: 'Always allow' }).count(), 0, 'no Always allow');
        assert.equal(await wb.inWebview('group', 'Tool: bash').count(), 2, 'the boxed command ran unasked');
        await wb.clickInWebview('button', 'Deny');
        await poll('the final answer', async () =>
          (await wb.articles('Sextant').last().innerText()).includes('Stayed in the box'),
        );
      } finally {
        await wb.setUserSettings(
          { 'sextant.sandbox.mode': undefined, 'sextant.permissions.allow': undefined },
          CHANGED,
        );
      }
    },
  );
}
