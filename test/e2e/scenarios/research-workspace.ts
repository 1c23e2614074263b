// Research over the workspace, end to end: the "Research scope" picker set to Workspace → "Sextant:
// Research…" from the palette → the run reads the workspace's files (no web search, no search key) →
// a verified report whose citation `[1]`, and its entry in the Sources list, open the cited file in the
// editor with the cited lines selected. The model (planner, clarify check, writer, claim checker) is
// the fake LLM; the file is written into the e2e workspace and removed afterwards.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { E2E } from '../harness/e2e';
import { poll, waitUntil } from '../harness/workbench';
import type { RecordedRequest } from '../../fixtures/fake-llm';

const DIR = 'research-e2e';
const FILE = `${DIR}/retry-notes.md`;
const QUESTION = 'How do our clients retry with backoff?';

/**
 * A file longer than one section (80 lines), so the run cites a window of it: filler, then the two
 * lines about retries at 104–105 (what bestWindow picks for "retry backoff"), blank lines, filler.
 */
function notes(): string {
  const filler = (k: number) => `Filler line ${k} about the quarterly office plants.`;
  const lines: string[] = [];
  for (let k = 1; k <= 100; k++) lines.push(filler(k));
  lines.push('', '', '');
  lines.push('## Retry backoff');
  lines.push('Clients retry a failed request three times with exponential backoff.');
  for (let k = 106; k <= 140; k++) lines.push('');
  for (let k = 141; k <= 200; k++) lines.push(filler(k));
  return `${lines.join('\n')}\n`;
}

const bodyOf = (r: RecordedRequest) => JSON.stringify(r.body);

export function researchWorkspaceScenarios(e2e: E2E): void {
  e2e.scenario(
    'Research scope Workspace from the palette: a report whose citation opens the cited file at the cited lines',
    async ({ wb, page, fake, workspace }) => {
      wb.writeWorkspaceFile(FILE, notes());
      fake.onRequest((r) => {
        const b = bodyOf(r);
        if (b.includes('You decide whether a research question must be clarified')) return { text: '{"clear": true}' };
        if (b.includes('You plan web research'))
          return {
            text: JSON.stringify({
              question: QUESTION,
              subQuestions: ['How do the clients retry with backoff?'],
              queries: [{ query: 'retry backoff' }],
              expectedOutput: 'A short cited answer.',
            }),
          };
        if (b.includes('You write a research report'))
          return {
            text:
              '# Client retries\n\n## Summary\n\nClients retry a failed request three times with exponential ' +
              'backoff [1].\n',
          };
        if (b.includes('You check one claim')) return { text: '{"verdict":"supported","reason":"same lines"}' };
        return undefined;
      });
      const editor = page.locator('.monaco-editor .view-lines', { hasText: /Retry.backoff/ }).first();
      const tab = page.locator('.tabs-container .tab', { hasText: 'retry-notes.md' });
      const cursor = page.locator('.statusbar-item', { hasText: /Ln \d+, Col \d+/ }).first();
      let seen = '';
      /** The cited file is open, its selection ends at the end of `line` and its view shows the cited text. */
      const citedFileShown = async (line: number, col: number) => {
        const status = (await cursor.innerText().catch(() => '')).replace(/\u00a0/g, ' ');
        seen = `tabs: ${await tab.count()}, status bar: "${status}", cited text shown: ${await editor.count()}`;
        return (await tab.count()) > 0 && status.includes(`Ln ${line}, Col ${col} (`) && (await editor.count()) > 0;
      };
      const waitForCited = (from: string) =>
        poll(
          `retry-notes.md open with lines 104–105 selected from ${from}`,
          () => citedFileShown(105, 69),
          30_000,
        ).catch((e: Error) => {
          throw new Error(`${e.message} (last seen: ${seen})`);
        });
      const scope = wb.inWebview('radiogroup', 'Research scope');
      try {
        await wb.openSextantView();
        await wb.runPaletteCommand('Sextant: New Chat');
        // The scope picker shows under the composer in Research mode; its choice is the host's.
        await wb.clickInWebview('radio', 'Research');
        const workspaceScope = scope.getByRole('radio', { name: 'Workspace' });
        await waitUntil('the "Research scope" picker', () => workspaceScope.check({ timeout: 10_000 }));
        assert.equal(await workspaceScope.isChecked(), true);

        // Sextant: Research… asks for the question in an input box.
        await wb.runPaletteCommand('Sextant: Research…', { opensInput: true });
        const input = page.locator('.quick-input-widget .quick-input-box input');
        const prompt = page.locator('.quick-input-widget', { hasText: 'What should Sextant research' });
        await waitUntil('the question box', () => prompt.waitFor({ state: 'visible', timeout: 10_000 }));
        await poll('the question typed', async () => {
          if ((await input.inputValue()) !== QUESTION) await input.fill(QUESTION);
          return (await input.inputValue()) === QUESTION;
        });
        await input.press('Enter');

        const report = wb.inWebview('region', 'Report');
        await poll('the report card', async () => (await report.count()) === 1, 90_000);
        const text = await report.innerText();
        assert.match(text, /Scope: Workspace/);
        assert.match(text, /1 of 1 claims verified/);
        const sources = report.getByRole('list', { name: 'Sources' });
        const entry = sources.getByRole('link', { name: /retry-notes\.md/ });
        assert.equal(await entry.count(), 1, 'one workspace source');
        // The cited range is where the retry lines are, not the file's top.
        assert.match(await entry.innerText(), /^research-e2e\/retry-notes\.md:104–105$/);
        // No web search ran: a workspace-only run needs no search provider.
        assert.ok(!fake.requests.some((r) => bodyOf(r).includes('You review web research in progress')));

        // [1] in the report's text opens the file with lines 104–105 selected.
        await report.getByRole('link', { name: '[1]' }).first().click();
        await waitForCited('[1]');

        // The Sources entry opens it the same way, after the editor has moved away from those lines.
        await wb.runPaletteCommand('View: Close All Editors');
        await poll('the editor closed', async () => (await tab.count()) === 0);
        await entry.click();
        await waitForCited('the Sources list');
      } finally {
        fake.onRequest(undefined);
        await page.keyboard.press('Escape');
        await wb.runPaletteCommand('View: Close All Editors');
        // The scope is kept per workspace: back to Web for the scenarios after this one.
        if ((await scope.count()) > 0) await scope.getByRole('radio', { name: 'Web' }).check({ timeout: 10_000 });
        await wb.clickInWebview('radio', 'Chat');
        rmSync(join(workspace, DIR), { recursive: true, force: true });
      }
    },
    { timeoutMs: 180_000 },
  );
}
