// Usage, cost and budgets as a user meets them: with a price on the provider entry, the session's cost
// appears in the chat header after a turn and each answer shows its tokens and cost; with
// sextant.budget.maxCostUsd set, an Agent run stops at the cap with a notice naming it and a Continue
// button that goes on. The scenario restores the settings it changed.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT, type E2E } from '../harness/e2e';
import { poll, waitUntil } from '../harness/workbench';

const CHANGED = 'providers: settings changed';

export function costScenarios(e2e: E2E): void {
  e2e.scenario(
    'Cost: the header shows the session cost after a turn; an Agent run stops at sextant.budget.maxCostUsd and ' +
      'Continue goes on',
    async ({ wb, fake }) => {
      const original = wb.readUserSettings();
      const providers = original['sextant.providers'] as Array<Record<string, unknown>>;
      // $3 / $15 per million tokens, cached input $0.30.
      const priced = providers.map((p) => ({ ...p, price: { input: 3, output: 15, cachedInput: 0.3 } }));
      // The view first: the runtime (which logs the settings change) starts with it.
      await wb.openSextantView();
      await wb.setUserSettings({ 'sextant.providers': priced, 'sextant.budget.maxCostUsd': 0.3 }, CHANGED);
      try {
        await wb.openSextantView();
        await wb.runPaletteCommand('Sextant: New Chat');
        const chat = wb.inWebview('radio', 'Chat');
        await waitUntil('the Chat mode radio', () => chat.check({ timeout: 15_000 }));

        // One turn: 1,200 in and 300 out = $0.0036 + $0.0045.
        fake.enqueue({ text: 'Sextant reads the code first.', usage: { inputTokens: 1200, outputTokens: 300 } });
        await wb.typeMessage('How do you start?');
        const header = wb.inWebview('status', 'Session usage');
        await poll(
          'the session cost in the header',
          async () => (await header.count()) === 1 && /\$0\.008/.test(await header.innerText()),
        );
        await poll('the answer’s usage line', async () =>
          (await wb.articles('Sextant').last().innerText()).includes('1.2k in · 300 out · $0.008'),
        );

        // An Agent run: each step costs $0.03 + $0.012 + $0.06 = $0.102; after two ($0.204) a third would pass $0.30.
        const agent = wb.inWebview('radio', 'Agent');
        await waitUntil('the Agent mode radio', () => agent.check({ timeout: 15_000 }));
        const usage = { inputTokens: 50_000, cachedTokens: 40_000, outputTokens: 4000 };
        fake.enqueue(
          {
            text: 'Reading the greeting.',
            toolCalls: [{ name: 'read_file', arguments: { file_path: 'src/greet.js' } }],
            usage,
          },
          { text: 'And the readme.', toolCalls: [{ name: 'read_file', arguments: { file_path: 'README.md' } }], usage },
          { text: 'Never sent: the budget stops the run first.' },
        );
        const requestsBefore = fake.requests.length;
        await wb.typeMessage('Review the project');
        const answer = wb.articles('Sextant').last();
        await poll(
          'the budget notice naming the cap',
          async () => (await answer.innerText()).includes('sextant.budget.maxCostUsd'),
          30_000,
        );
        assert.equal(fake.requests.length - requestsBefore, 2, 'no third model call after the cap');
        await poll('the session cost in the header after the run', async () =>
          /\$0\.212/.test(await header.innerText()),
        );
        const cont = wb.inWebview('button', 'Continue');
        await poll('the Continue button', async () => (await cont.count()) === 1);
        const shot = await wb.screenshot('cost-budget');
        await wb.docsScreenshot(shot, 'screenshot-cost', join(ROOT, 'docs'));

        // Continue: a new run that goes on from the kept history.
        fake.reset();
        fake.enqueue({ text: 'Review finished: all good.', usage: { inputTokens: 1000, outputTokens: 100 } });
        await wb.clickInWebview('button', 'Continue');
        await poll('the continued answer', async () =>
          (await wb.articles('Sextant').last().innerText()).includes('Review finished'),
        );
        const body = JSON.stringify(fake.requests[0]?.body);
        assert.ok(body.includes('"continue"'), 'Continue sent "continue"');
        assert.ok(body.includes('README.md'), 'the history kept the runs’s tool calls');
      } finally {
        await wb.setUserSettings({ 'sextant.providers': providers, 'sextant.budget.maxCostUsd': undefined }, CHANGED);
        const chat = wb.inWebview('radio', 'Chat');
        await waitUntil('the Chat mode radio', () => chat.check({ timeout: 15_000 }));
      }
    },
  );
}
