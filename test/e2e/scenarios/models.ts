// Models as a user meets them in code-server, which has no VS Code language model: the picker says
// none is installed (an entry that cannot be chosen). With sextant.plannerModel naming a second
// provider, a Plan-mode request goes to that model and its answer names it; the approved plan runs on
// the chat's model with the reasoning level picked for it. The scenario restores the settings it changed.
import assert from 'node:assert/strict';
import type { E2E } from '../harness/e2e';
import { poll, waitUntil } from '../harness/workbench';

const CHANGED = 'providers: settings changed';

const PLAN = {
  goal: 'Say goodbye as well as hello.',
  steps: [{ title: 'Add a farewell to src/greet.js' }],
  files: [{ path: 'src/greet.js', change: 'A farewell function.' }],
  risks: [],
  verify: ['node src/greet.js'],
};

interface Body {
  model?: string;
  reasoning_effort?: string;
}

export function modelScenarios(e2e: E2E): void {
  e2e.scenario(
    'Models: no VS Code language model is said so in the picker; Plan mode runs on sextant.plannerModel and the ' +
      'approved plan on the chat model with its reasoning level',
    async ({ wb, fake }) => {
      await wb.openSextantView();
      await wb.runPaletteCommand('Sextant: New Chat');
      const none = wb.inWebview('option', 'VS Code · no language model installed');
      await poll('the "no language model installed" entry in the model picker', async () => (await none.count()) === 1);
      assert.equal(await none.isDisabled(), true, 'the entry cannot be chosen');
      assert.match((await none.getAttribute('title')) ?? '', /Install GitHub Copilot Chat/);

      const original = wb.readUserSettings();
      const providers = original['sextant.providers'] as Array<Record<string, unknown>>;
      const fakeEntry = providers[0] as Record<string, unknown>;
      const planner = { ...fakeEntry, name: 'planner', models: ['planner-model'] };
      await wb.setUserSettings(
        {
          'sextant.providers': [{ ...fakeEntry, reasoning: true }, planner],
          'sextant.plannerModel': 'planner/planner-model',
        },
        CHANGED,
      );
      try {
        await wb.openSextantView();
        await wb.runPaletteCommand('Sextant: New Chat');
        // The picker offers the reasoning level for the chat's model now that its provider takes one.
        const reasoning = wb.inWebview('combobox', 'Reasoning');
        await poll('the reasoning option', async () => (await reasoning.count()) === 1);
        await reasoning.selectOption('high');

        await waitUntil('the Plan mode radio', () => wb.inWebview('radio', 'Plan').check({ timeout: 15_000 }));
        fake.enqueue({ toolCalls: [{ name: 'submit_plan', arguments: PLAN }] });
        const before = fake.requests.length;
        await wb.typeMessage('Plan a farewell');
        const card = wb.inWebview('region', 'Plan');
        await poll('the plan card', async () => (await card.count()) === 1, 30_000);
        const planBody = fake.requests[before]?.body as Body;
        assert.equal(planBody.model, 'planner-model', 'the plan request went to the planner model');
        assert.equal(planBody.reasoning_effort, undefined, 'the planner model has no reasoning level set');
        await poll('the plan answer naming the planner model', async () =>
          (await wb.articles('Sextant').last().innerText()).includes('planner/planner-model'),
        );

        fake.enqueue({ text: 'Farewell added.' });
        await wb.clickInWebview('button', 'Approve plan');
        await poll('the execution request', async () => fake.requests.length === before + 2, 30_000);
        const execBody = fake.requests[before + 1]?.body as Body;
        assert.equal(execBody.model, 'fake-model', 'the approved plan ran on the chat model');
        assert.equal(execBody.reasoning_effort, 'high');
        await poll('the execution answer naming the chat model', async () => {
          const text = await wb.articles('Sextant').last().innerText();
          return text.includes('Farewell added') && text.includes('fake/fake-model');
        });
        await reasoning.selectOption('off');
      } finally {
        await wb.setUserSettings({ 'sextant.providers': providers, 'sextant.plannerModel': undefined }, CHANGED);
        await wb.openSextantView();
        await waitUntil('the Chat mode radio', () => wb.inWebview('radio', 'Chat').check({ timeout: 15_000 }));
        await wb.runPaletteCommand('Sextant: New Chat');
      }
    },
    { timeoutMs: 150_000 },
  );
}
