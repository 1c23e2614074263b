// History that is never lost: a reload reopens the chat, an older session resumes from the list,
// and the session exports to a workspace file.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { E2E_KEY, type E2E } from '../harness/e2e';
import { poll, waitUntil } from '../harness/workbench';

export function historyScenarios(e2e: E2E): void {
  e2e.scenario(
    'after a window reload the chat is still there',
    async ({ wb, fake }) => {
      await wb.openSextantView();
      await wb.runPaletteCommand('Sextant: New Chat');
      fake.enqueue({ text: 'Polaris sits almost exactly above the north pole.' });
      await wb.typeMessage('Which star marks north?');
      await poll('the answer', async () => (await wb.articles('Sextant').last().innerText()).includes('Polaris'));

      await wb.reloadWindow();
      await wb.openSextantView();
      await poll(
        'the conversation after the reload',
        async () => {
          const texts = await wb.webviewFrame().getByRole('article').allInnerTexts();
          return (
            texts.some((t) => t.includes('Which star marks north?')) && texts.some((t) => t.includes('Polaris sits'))
          );
        },
        30_000,
      );
    },
    { timeoutMs: 150_000 },
  );

  e2e.scenario(
    'an older session resumes from the History list',
    async ({ wb, fake }) => {
      await wb.openSextantView();
      await wb.runPaletteCommand('Sextant: New Chat');
      fake.enqueue({ text: 'Use a marine chronometer.' });
      await wb.typeMessage('How do I find longitude at sea?');
      await poll('the answer', async () => (await wb.articles('Sextant').last().innerText()).includes('chronometer'));
      await wb.runPaletteCommand('Sextant: New Chat');
      await poll('an empty chat', async () => (await wb.webviewFrame().getByRole('article').count()) === 0);

      await wb.clickInWebview('button', 'History');
      const list = wb.inWebview('list', 'History');
      await poll('the History list', () => list.isVisible());
      const entry = list.getByRole('button', { name: /longitude at sea/i }).first();
      await waitUntil('the longitude session in History', () => entry.click({ timeout: 15_000 }));
      await poll('the resumed conversation', async () => {
        const texts = await wb.webviewFrame().getByRole('article').allInnerTexts();
        return (
          texts.some((t) => t.includes('How do I find longitude at sea?')) &&
          texts.some((t) => t.includes('marine chronometer'))
        );
      });

      // The resumed session carries on with its context.
      fake.enqueue({ text: 'Compare local noon with the chronometer time.' });
      await wb.typeMessage('And then?');
      await poll('the follow-up answer', async () =>
        (await wb.articles('Sextant').last().innerText()).includes('local noon'),
      );
      const body = JSON.stringify(fake.requests.at(-1)?.body);
      assert.match(body, /longitude at sea/, 'the resumed session lost its context');
    },
    { timeoutMs: 90_000 },
  );

  e2e.scenario(
    '"Sextant: Export Session…" writes a Markdown file into the workspace',
    async ({ wb, page, workspace }) => {
      await wb.openSextantView();
      const input = page.locator('.quick-input-widget .quick-input-box input');
      const markdown = page.locator('.quick-input-list .monaco-list-row[aria-label^="Markdown"]').first();
      const dir = join(workspace, '.sextant', 'exports');
      // First the format, then VS Code's save dialog (a quick input in the browser) with our default path.
      const openSaveDialog = async () => {
        await wb.runPaletteCommand('Sextant: Export Session…', { opensInput: true });
        await waitUntil('the export format picker', () => markdown.click({ timeout: 10_000 }));
        await poll('the save dialog with the default path', async () =>
          (await input.inputValue()).includes('.sextant/exports/'),
        );
      };
      // Cancelling leaves nothing behind in the workspace.
      await openSaveDialog();
      await input.press('Escape');
      await poll('the save dialog to close', async () => !(await input.isVisible()));
      await poll('no exports folder after Cancel', async () => !existsSync(dir));

      await openSaveDialog();
      await input.press('Enter');
      // The file appears before its content is written: wait for the content, not just the name.
      const text = await poll('an exported .md file with the conversation on disk', async () => {
        const file = existsSync(dir) ? readdirSync(dir).find((f) => f.endsWith('.md')) : undefined;
        const content = file ? readFileSync(join(dir, file), 'utf8') : '';
        return content.includes('marine chronometer') ? content : undefined;
      });
      assert.match(text, /How do I find longitude at sea\?/);
      assert.match(text, /marine chronometer/);
      assert.ok(!text.includes(E2E_KEY), 'the API key leaked into the export');
    },
    { timeoutMs: 60_000 },
  );
  e2e.scenario(
    '"Sextant: Show Storage" shows where history\'s disk space goes and offers to reclaim it',
    async ({ wb, page }) => {
      await wb.openSextantView();
      const input = page.locator('.quick-input-widget .quick-input-box input');
      const row = (label: string) => page.locator(`.quick-input-list .monaco-list-row[aria-label^="${label}"]`).first();
      await wb.runPaletteCommand('Sextant: Show Storage', { opensInput: true });
      await waitUntil('the storage picker', () => row('Total').waitFor({ state: 'visible', timeout: 15_000 }));
      for (const label of ['Recent chats and search index', 'Older chats', 'Checkpoints', 'Journal', 'Deleted chats'])
        assert.ok(await row(label).isVisible(), `no "${label}" line`);
      assert.match(await row('Total').getAttribute('aria-label').then(String), /\d+ chats/);
      // The actions are further down: the filter finds them without running either.
      await input.fill('Purge deleted');
      const purge = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Purge deleted chats now' }).first();
      await waitUntil('the purge action', () => purge.waitFor({ timeout: 10_000 }));
      await input.press('Escape');
      await poll('the storage picker to close', async () => !(await input.isVisible()));
    },
    { timeoutMs: 60_000 },
  );
}
