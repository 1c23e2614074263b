// Permission rules as a user meets them in the real editor: a deny rule in user settings blocks a
// command (the model is told, nothing asks); "Always allow" saves a narrow rule into user settings,
// the identical command then runs unasked while a chained variant asks; a write to .git/config asks
// even in "allow" mode. Each scenario restores the settings it changed.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { E2E } from '../harness/e2e';
import { poll, waitUntil, type Workbench } from '../harness/workbench';

const CHANGED = 'permissions: settings changed';

/** Changes user settings in the settings.json editor and waits until the policy is invalidated. */
function setUserSettings(wb: Workbench, patch: Record<string, unknown>): Promise<void> {
  return wb.setUserSettings(patch, CHANGED);
}

async function startAgentChat(wb: Workbench): Promise<void> {
  await wb.openSextantView();
  await wb.runPaletteCommand('Sextant: New Chat');
  const agent = wb.inWebview('radio', 'Agent');
  await waitUntil('the Agent mode radio', () => agent.check({ timeout: 15_000 }));
}

function bash(command: string) {
  return { toolCalls: [{ name: 'bash', arguments: { command } }] };
}

export function trustPermissionScenarios(e2e: E2E): void {
  e2e.scenario(
    'a deny rule in user settings blocks a command without asking; the model is told',
    async ({ wb, fake }) => {
      await setUserSettings(wb, { 'sextant.permissions.deny': ['bash(rm *)'] });
      try {
        await startAgentChat(wb);
        const before = fake.requests.length;
        fake.enqueue(bash('rm -rf build'), { text: 'I will not delete it, then.' });
        await wb.typeMessage('Delete the build folder');
        await poll('the final answer', async () =>
          (await wb.articles('Sextant').last().innerText()).includes('I will not delete it'),
        );
        assert.equal(await wb.inWebview('group', 'Approval: bash').count(), 0, 'a denied command asked');
        const told = JSON.stringify(fake.requests[before + 1]?.body ?? {});
        assert.match(told, /Blocked, not run/, 'the model was not told');
        assert.match(told, /bash\(rm \*\)/, 'the model was not told which rule');
      } finally {
        await setUserSettings(wb, { 'sextant.permissions.deny': undefined });
      }
    },
  );

  e2e.scenario(
    'Always allow writes a narrow rule; the same command then runs unasked and a chained variant asks',
    async ({ wb, fake }) => {
      try {
        await startAgentChat(wb);
        fake.enqueue(
          bash('git status --short'),
          bash('git status --short'),
          bash('git status --short; touch chained.txt'),
          {
            text: 'Checked the status twice.',
          },
        );
        await wb.typeMessage('Check git status');
        const card = wb.inWebview('group', 'Approval: bash');
        await poll('the first approval card', async () => (await card.count()) === 1, 30_000);
        assert.match(await card.innerText(), /adds bash\(git status\*\) to your settings/);
        await wb.clickInWebview('button', 'Always allow');
        await poll('the rule in user settings', async () => {
          const allow = wb.readUserSettings()['sextant.permissions.allow'];
          return Array.isArray(allow) && allow.includes('bash(git status*)');
        });
        // The second, identical command runs without a card; the chained third one asks.
        await poll(
          'the approval card for the chained command',
          async () => (await card.count()) === 1 && (await card.innerText()).includes('touch chained.txt'),
          30_000,
        );
        const runs = await wb.inWebview('group', 'Tool: bash').count();
        assert.equal(runs, 3, 'three bash cards: two run, one waiting');
        await wb.clickInWebview('button', 'Deny');
        await poll('the final answer', async () =>
          (await wb.articles('Sextant').last().innerText()).includes('Checked the status'),
        );
      } finally {
        await setUserSettings(wb, { 'sextant.permissions.allow': undefined });
      }
    },
  );

  e2e.scenario(
    'a write to .git/config asks even in allow mode, while an ordinary write does not',
    async ({ wb, fake }) => {
      await setUserSettings(wb, { 'sextant.permissions.defaultMode': 'allow' });
      try {
        await startAgentChat(wb);
        fake.enqueue(
          { toolCalls: [{ name: 'write_file', arguments: { file_path: 'notes/allowed.txt', content: 'fine\n' } }] },
          {
            toolCalls: [
              {
                name: 'write_file',
                arguments: { file_path: '.git/config', content: '[core]\n\tfsmonitor = "touch /tmp/pwned"\n' },
              },
            ],
          },
          { text: 'Left git alone.' },
        );
        await wb.typeMessage('Write a note and configure git');
        const card = wb.inWebview('group', 'Approval: write_file');
        await poll('the approval card for .git/config', async () => (await card.count()) === 1, 30_000);
        assert.ok(existsSync(join(wb.paths.workspace, 'notes', 'allowed.txt')), 'the ordinary write ran unasked');
        const text = await card.innerText();
        assert.match(text, /\.git\/config/);
        assert.match(text, /\.git/);
        assert.equal(await card.getByRole('button', { name: 'Always allow' }).count(), 0);
        await wb.clickInWebview('button', 'Deny');
        await poll('the final answer', async () =>
          (await wb.articles('Sextant').last().innerText()).includes('Left git alone'),
        );
        assert.ok(!existsSync(join(wb.paths.workspace, '.git', 'config')), '.git/config was written');
      } finally {
        await setUserSettings(wb, { 'sextant.permissions.defaultMode': undefined });
      }
    },
  );
}
