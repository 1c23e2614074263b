// Memory and managed settings as a user meets them in the real editor (issue 39):
// - the agent proposes a memory (the `remember` tool); the user edits it on its card and keeps it; the
//   edited text — not the proposed one — is in the system prompt of the next request;
// - an administrator's machine-wide file (the test-only SEXTANT_MANAGED_SETTINGS_FILE the harness points
//   code-server at) denies a provider and requires the box; the user's own settings pick that provider's
//   model and turn the box off, and neither takes: that model is not offered and the chat answers on an
//   allowed one (the denied server gets no request), the header still says Boxed and a request to run
//   outside the box is refused.
// Each scenario removes what it wrote (the memory file; the managed file and the settings).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectBackend } from '../../../extension/platform/sandbox/detect';
import { startFakeLlm } from '../../fixtures/fake-llm';
import { E2E_KEY_ENV, type E2E } from '../harness/e2e';
import { poll, waitUntil, type Workbench } from '../harness/workbench';

const PROVIDERS_CHANGED = 'providers: settings changed';
const MANAGED_NOTED = 'managed settings: sextant.sandbox.mode is managed';

/** The system prompt of an OpenAI-format request (its system messages' text). */
const systemOf = (body: unknown): string => {
  const b = body as { messages?: Array<{ role: string; content: unknown }> };
  return JSON.parse(JSON.stringify((b.messages ?? []).filter((m) => m.role === 'system').map((m) => m.content)))
    .flat(3)
    .map((x: unknown) => (typeof x === 'string' ? x : ((x as { text?: string }).text ?? '')))
    .join('\n');
};

async function startAgentChat(wb: Workbench): Promise<void> {
  await wb.openSextantView();
  await wb.runPaletteCommand('Sextant: New Chat');
  const agent = wb.inWebview('radio', 'Agent');
  await waitUntil('the Agent mode radio', () => agent.check({ timeout: 15_000 }));
}

export function memoryScenarios(e2e: E2E): void {
  e2e.scenario(
    'a memory proposed, edited, accepted, and present in the next request\u2019s prompt',
    async ({ wb, fake, workspace }) => {
      const proposed = 'Tests need make db-proposed before npm test.';
      const edited = 'Tests need make db-edited-by-user before npm test.';
      const file = join(workspace, '.sextant', 'memory.md');
      const hadFolder = existsSync(join(workspace, '.sextant'));
      try {
        await startAgentChat(wb);
        fake.enqueue(
          {
            toolCalls: [
              { name: 'remember', arguments: { memory: proposed, reason: 'the tests failed without the database' } },
            ],
          },
          { text: 'Noted for later chats.' },
        );
        await wb.typeMessage('Remember how the tests run');
        const card = wb.inWebview('group', 'Memory');
        await poll('the memory card', async () => (await card.count()) === 1, 30_000);
        assert.match(await card.innerText(), /Tests need make db-proposed before npm test\./);
        await wb.clickInWebview('button', 'Edit memory');
        const box = wb.inWebview('textbox', 'Memory text');
        await waitUntil('the memory text box', () => box.fill(edited, { timeout: 15_000 }));
        await wb.clickInWebview('button', 'Keep memory');
        await poll('the answer', async () =>
          (await wb.articles('Sextant').last().innerText()).includes('Noted for later chats.'),
        );
        const kept = readFileSync(file, 'utf8');
        assert.ok(kept.includes(edited), `the edited memory is in .sextant/memory.md:\n${kept}`);
        assert.ok(!kept.includes(proposed), 'the proposed text was not kept');

        const before = fake.requests.length;
        fake.enqueue({ text: 'They need the database first.' });
        await wb.typeMessage('What do the tests need?');
        await poll('the next answer', async () =>
          (await wb.articles('Sextant').last().innerText()).includes('They need the database first.'),
        );
        const req = fake.requests.slice(before).find((r) => r.api === 'openai');
        assert.ok(req, 'a model request was made');
        const system = systemOf(req.body);
        assert.ok(system.includes(edited), 'the kept (edited) memory is in the system prompt');
        assert.ok(!system.includes(proposed), 'the proposed text is not in the system prompt');
      } finally {
        rmSync(file, { force: true });
        const folder = join(workspace, '.sextant');
        if (!hadFolder && existsSync(folder) && readdirSync(folder).length === 0) rmdirSync(folder);
      }
    },
  );

  const detected = detectBackend();
  if (!detected.ok || detected.backend !== 'bubblewrap') {
    console.log(`# managed settings scenario skipped: ${detected.ok ? detected.backend : detected.reason}`);
    return;
  }

  e2e.scenario(
    'a managed setting (machine-wide file) denies a provider and requires the box: user settings undo neither',
    async ({ wb, fake, workspace, managedSettingsFile }) => {
      const other = await startFakeLlm();
      const original = wb.readUserSettings();
      // "localhost", not 127.0.0.1: a denied provider also denies every provider reaching its host, and
      // the allowed "fake" provider is at 127.0.0.1.
      const otherUrl = `${other.baseUrl.replace('127.0.0.1', 'localhost')}/v1`;
      try {
        writeFileSync(
          managedSettingsFile,
          JSON.stringify({ providers: { deny: ['other'] }, sandbox: { require: true } }, null, 2),
        );
        // The user's own settings try to undo both: the denied provider's model, and the box off.
        await wb.setUserSettings(
          {
            'sextant.providers': [
              ...(original['sextant.providers'] as unknown[]),
              { name: 'other', kind: 'openai', baseUrl: otherUrl, models: ['m'], apiKeyEnv: E2E_KEY_ENV },
            ],
            'sextant.defaultModel': 'other/m',
            'sextant.sandbox.mode': 'off',
          },
          MANAGED_NOTED,
        );
        await poll('the Sextant output to say the user\u2019s "off" is not used', async () => {
          const log = wb.outputChannelText('Sextant');
          return log.includes('sextant.sandbox.mode "off" is not used') && log.includes('Providers denied: other.');
        });

        // The denied model is neither offered nor used: the chat answers on an allowed one.
        await startAgentChat(wb);
        fake.enqueue({ text: 'Answered by an allowed model.' });
        await wb.typeMessage('Use the model I picked');
        await poll('the answer', async () =>
          (await wb.articles('Sextant').last().innerText()).includes('Answered by an allowed model.'),
        );
        assert.match(await wb.articles('Sextant').last().innerText(), /fake\/fake-model/);
        const offered = await wb.inWebview('combobox', 'Model').locator('option').allInnerTexts();
        assert.ok(!offered.some((o) => o.includes('other')), `the denied provider is not offered: ${offered}`);
        assert.equal(other.requests.length, 0, 'the denied provider got no request');

        // The box: still required although the user turned it off.
        const status = wb.inWebview('status', 'Sandbox');
        await poll('Boxed in the header', async () => (await status.innerText()) === 'Boxed');
        await wb.inWebview('combobox', 'Model').selectOption('fake/fake-model');
        fake.enqueue(
          {
            toolCalls: [
              {
                name: 'bash',
                arguments: { command: 'echo escaped > escaped.txt', outside_box: 'it needs the host network' },
              },
            ],
          },
          { text: 'The administrator keeps commands in the box.' },
        );
        await wb.typeMessage('Write escaped.txt outside the box');
        await poll(
          'the final answer',
          async () =>
            (await wb.articles('Sextant').last().innerText()).includes('The administrator keeps commands in the box.'),
          60_000,
        );
        assert.match(
          await wb.inWebview('group', 'Tool: bash').last().innerText(),
          /your administrator requires the sandbox \(managed settings\): commands never run outside it/,
        );
        assert.equal(await wb.inWebview('group', 'Approval: bash').count(), 0, 'no card offers to run it anyway');
        assert.equal(existsSync(join(workspace, 'escaped.txt')), false, 'the command did not run');
      } finally {
        rmSync(managedSettingsFile, { force: true });
        rmSync(join(workspace, 'escaped.txt'), { force: true });
        await wb.setUserSettings(
          {
            'sextant.providers': original['sextant.providers'],
            'sextant.defaultModel': original['sextant.defaultModel'],
            'sextant.sandbox.mode': original['sextant.sandbox.mode'],
          },
          PROVIDERS_CHANGED,
        );
        await other.close();
      }
    },
    { timeoutMs: 150_000 },
  );
}
