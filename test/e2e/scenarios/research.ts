// Research mode in a real VS Code, end to end: a phrase selected in the editor → "Sextant: Research
// Selection" → the chat switches to Research, the "Research progress" bar runs while a fake Exa
// (127.0.0.1) answers the searches and the local web corpus serves the pages → a verified report with
// its "Sources" list → "Export Report…" writes a Markdown file with the source list into the
// workspace. The model (planner, writer, claim checker) is the fake LLM; nothing touches the internet.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, type E2E } from '../harness/e2e';
import { poll, waitUntil } from '../harness/workbench';
import { startWebCorpus } from '../../fixtures/research/web-corpus';
import { startFakeExa } from '../../fixtures/research/fake-exa';
import type { RecordedRequest } from '../../fixtures/fake-llm';
import { clearSearchKey, setSearchKey } from './research-search';

const CHANGED = 'web search: settings changed';
const SEARCH_KEY = 'exa-e2e-research-key-52b9f10c';

const bodyOf = (r: RecordedRequest) => JSON.stringify(r.body);

export function researchScenarios(e2e: E2E): void {
  e2e.scenario(
    'Research Selection: progress, a verified report with its Sources, and Export Report writes it to the workspace',
    async ({ wb, page, fake, workspace }) => {
      const web = await startWebCorpus();
      const tidal = web.url('/pages/tidal-energy.html');
      const exa = await startFakeExa({
        key: SEARCH_KEY,
        docs: [
          { title: 'Tidal turbines pass their first winter', url: tidal, snippet: 'Tidal turbines energy output.' },
          { title: 'Feeding a sourdough starter', url: web.url('/pages/sourdough-guide.html'), snippet: 'Sourdough.' },
        ],
      });
      fake.onRequest((r) => {
        const b = bodyOf(r);
        if (b.includes('You plan web research'))
          return {
            text: JSON.stringify({
              question: 'How much energy did the tidal turbines produce?',
              subQuestions: ['How much energy did the tidal turbines produce in their first winter?'],
              queries: [{ query: 'tidal turbines energy' }],
              expectedOutput: 'A short cited answer.',
            }),
          };
        if (b.includes('You review web research in progress')) return { text: '{"enough": true, "queries": []}' };
        if (b.includes('You write a research report'))
          return {
            text:
              '# Tidal turbines in their first winter\n\n## Summary\n\nThe tidal turbines generated 11.4 ' +
              'gigawatt-hours [1]. They also baked bread [2].\n',
            chunkDelayMs: 150,
          };
        if (b.includes('You check one claim')) return { text: '{"verdict":"supported","reason":"same figure"}' };
        return undefined;
      });
      try {
        await wb.openSextantView();
        await wb.setUserSettings(
          {
            'sextant.research.searchProviders': ['exa'],
            'sextant.research.endpoints': { exa: exa.baseUrl },
            'sextant.web.allowPrivateHosts': ['127.0.0.1'],
            'sextant.research.minSearches': 1,
            'sextant.research.maxSearches': 2,
          },
          CHANGED,
        );
        await setSearchKey(wb, page, 'Exa', SEARCH_KEY);
        await wb.runPaletteCommand('Sextant: New Chat');

        // The topic is a phrase selected in an editor.
        await wb.writeWorkspaceFile('topic.md', 'tidal turbines energy\n');
        await wb.openFile('topic.md');
        await wb.selectAllInEditor('tidal turbines energy');
        await wb.runPaletteCommand('Sextant: Research Selection', { fromEditor: true });

        const bar = wb.inWebview('progressbar', 'Research progress');
        await poll('the "Research progress" bar', async () => (await bar.count()) > 0, 60_000);
        const report = wb.inWebview('region', 'Report');
        await poll('the report card', async () => (await report.count()) === 1, 90_000);
        assert.equal(await wb.inWebview('radio', 'Research').isChecked(), true, 'the chat is in Research mode');
        assert.match(await wb.articles('You').last().innerText(), /tidal turbines energy/);

        // Sources: only pages read in this run; the invented [2] is gone and said so.
        const sources = report.getByRole('list', { name: 'Sources' });
        assert.equal(await sources.getByRole('listitem').count(), 1);
        assert.match(await sources.innerText(), /Tidal turbines pass their first winter/);
        const text = await report.innerText();
        assert.match(text, /generated 11\.4 gigawatt-hours \[1\]/);
        assert.match(text, /cited a source that was not fetched/);
        assert.match(text, /1 of 1 claims verified/);
        assert.equal(exa.requests[0]?.headers['x-api-key'], SEARCH_KEY);
        assert.ok(
          web.requests.some((r) => r.path === '/pages/tidal-energy.html'),
          'the page was read',
        );
        const writer = fake.requests.find((r) => bodyOf(r).includes('You write a research report'));
        assert.match(bodyOf(writer as RecordedRequest), /generated 11\.4 gigawatt-hours/);

        // Export Report… → Markdown → the default path in the workspace.
        const dir = join(workspace, '.sextant', 'exports');
        await wb.runPaletteCommand('Sextant: Export Report…', { opensInput: true });
        const markdown = page.locator('.quick-input-list .monaco-list-row[aria-label^="Markdown"]').first();
        await waitUntil('the export format picker', () => markdown.click({ timeout: 10_000 }));
        const input = page.locator('.quick-input-widget .quick-input-box input');
        await poll('the save dialog with the default path', async () =>
          (await input.inputValue()).includes('.sextant/exports/'),
        );
        await input.press('Enter');
        const exported = await poll('the exported report on disk', async () => {
          const file = existsSync(dir)
            ? readdirSync(dir).find((f) => f.startsWith('Tidal turbines') && f.endsWith('.md'))
            : undefined;
          const content = file ? readFileSync(join(dir, file), 'utf8') : '';
          return content.includes('## Verification') ? content : undefined;
        });
        assert.match(
          exported,
          /## Sources\n\n1\. \[Tidal turbines pass their first winter\]\(http:\/\/127\.0\.0\.1:\d+/,
        );
        assert.match(exported, /accessed \d{4}-\d{2}-\d{2}/);
        assert.ok(!exported.includes(SEARCH_KEY), 'the search key leaked into the export');
        const shot = await wb.screenshot('research-report');
        await wb.docsScreenshot(shot, 'screenshot-research', join(ROOT, 'docs'));
      } finally {
        fake.onRequest(undefined);
        // The export's save dialog and notification leave VS Code in a state where settings.json can open
        // as a floating editor; with every editor closed it opens in the editor group as usual.
        await page.keyboard.press('Escape');
        await wb.runPaletteCommand('View: Close All Editors');
        await clearSearchKey(wb, page, 'Exa');
        await wb.setUserSettings(
          {
            'sextant.research.searchProviders': undefined,
            'sextant.research.endpoints': undefined,
            'sextant.web.allowPrivateHosts': undefined,
            'sextant.research.minSearches': undefined,
            'sextant.research.maxSearches': undefined,
          },
          CHANGED,
        );
        await exa.close();
        await web.close();
      }
    },
    { timeoutMs: 240_000 },
  );
}
