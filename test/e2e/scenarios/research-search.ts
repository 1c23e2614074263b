// Web search in a real VS Code: a search key set with "Sextant: Set Search API Key" for an endpoint
// override in user settings (a fake Exa API on 127.0.0.1), web_search asked for by the model in Agent
// mode, approved on its card, answered by the fake with the key in `x-api-key` — and the key nowhere
// in the chat, the model's requests or the output channel. Restores the settings and the key after.
import assert from 'node:assert/strict';
import type { E2E } from '../harness/e2e';
import type { Page } from 'playwright-core';
import { poll, waitUntil, type Workbench } from '../harness/workbench';
import { startFakeExa } from '../../fixtures/research/fake-exa';

const CHANGED = 'web search: settings changed';
const SEARCH_KEY = 'exa-e2e-stored-key-7d41c2e9a0';

/** "Sextant: Set Search API Key": pick the provider, type the key, wait for a new "saved" toast. */
export async function setSearchKey(wb: Workbench, _page: Page, label: string, key: string): Promise<void> {
  await wb.enterSecret('Sextant: Set Search API Key', label, key, `${label} search key saved`);
}

/** "Sextant: Clear Search API Key" for one provider (best effort: used in cleanups). */
export async function clearSearchKey(wb: Workbench, page: Page, label: string): Promise<void> {
  await wb.runPaletteCommand('Sextant: Clear Search API Key', { opensInput: true }).catch(() => undefined);
  const row = page.locator(`.quick-input-list .monaco-list-row[aria-label^="${label}"]`).first();
  await row.click({ timeout: 5_000 }).catch(() => page.keyboard.press('Escape'));
}

export function researchSearchScenarios(e2e: E2E): void {
  e2e.scenario(
    'Agent mode: web_search asks, then searches the configured provider with the key set by the command',
    async ({ wb, page, fake }) => {
      const exa = await startFakeExa({ key: SEARCH_KEY });
      await wb.openSextantView();
      try {
        await wb.setUserSettings(
          { 'sextant.research.searchProviders': ['exa'], 'sextant.research.endpoints': { exa: exa.baseUrl } },
          CHANGED,
        );
        await setSearchKey(wb, page, 'Exa', SEARCH_KEY);

        await wb.runPaletteCommand('Sextant: New Chat');
        await waitUntil('the Agent mode radio', () => wb.inWebview('radio', 'Agent').check({ timeout: 15_000 }));
        const args = { query: 'javascript flatten array', allowed_domains: ['developer.mozilla.org'] };
        fake.enqueue({ toolCalls: [{ name: 'web_search', arguments: args }] }, { text: 'MDN documents flat().' });
        await wb.typeMessage('How do I flatten an array in JavaScript? Search the web.');

        const approval = wb.inWebview('group', 'Approval: web_search');
        await poll(
          'the approval card for web_search',
          async () =>
            (await approval.count()) === 1 && (await approval.innerText()).includes('javascript flatten array'),
          30_000,
        );
        assert.equal(exa.requests.length, 0, 'the search ran before it was approved');
        await wb.clickInWebview('button', 'Approve');
        await poll('the final answer', async () =>
          (await wb.articles('Sextant').last().innerText()).includes('MDN documents flat()'),
        );

        assert.equal(exa.requests.length, 1);
        assert.equal(exa.requests[0].headers['x-api-key'], SEARCH_KEY, 'the stored key did not reach the provider');
        assert.deepEqual((exa.requests[0].body as { includeDomains?: string[] }).includeDomains, [
          'developer.mozilla.org',
        ]);
        const card = await wb
          .webviewFrame()
          .getByRole('group', { name: /^Tool: web_search/ })
          .last()
          .innerText();
        assert.match(card, /1 result from Exa/, `the tool card: ${card}`);
        const toModel = JSON.stringify(fake.requests.filter((r) => r.api === 'openai').at(-1)?.body ?? {});
        assert.match(toModel, /Array\.prototype\.flat\(\)/, 'the model did not get the results');
        assert.ok(!toModel.includes(SEARCH_KEY), 'the search key reached the model');
        const chat = await wb.webviewFrame().locator('body').innerText();
        assert.ok(!chat.includes(SEARCH_KEY), 'the search key is shown in the chat');
        assert.ok(!wb.outputChannelText('Sextant').includes(SEARCH_KEY), 'the output channel shows the search key');
      } finally {
        await clearSearchKey(wb, page, 'Exa');
        await wb.setUserSettings(
          { 'sextant.research.searchProviders': undefined, 'sextant.research.endpoints': undefined },
          CHANGED,
        );
        await exa.close();
      }
    },
    { timeoutMs: 120_000 },
  );
}
