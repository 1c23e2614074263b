// Research over the workspace's own documents, end to end: Research mode with the "Workspace" scope →
// "Sextant: Research…" from the palette → a report citing two Markdown files of the workspace by path and
// lines, with no web search and no search key → a citation `[n]` in the report and an entry of its Sources
// list open the cited file with the cited lines selected. The model (planner, writer, claim checker) is
// the fake LLM; nothing touches the internet.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { E2E } from '../harness/e2e';
import { poll, waitUntil } from '../harness/workbench';
import type { RecordedRequest } from '../../fixtures/fake-llm';

const RETRIES = [
  '# Retries',
  '',
  'Our HTTP client retries idempotent requests at most three times.',
  'Each retry waits twice as long as the one before, starting at 200 milliseconds.',
  '',
].join('\n');
const TIMEOUTS = ['# Timeouts', '', 'Every request has a deadline of 30 seconds, retries included.', ''].join('\n');

const bodyOf = (r: RecordedRequest) => JSON.stringify(r.body);
/** The number the run gave a workspace file among the writer's sources ("Source [2]: docs/x.md (lines …)"). */
const sourceNumber = (body: string, file: string, fallback: number) =>
  Number(new RegExp(`Source \\[(\\d+)\\]: ${file.replace(/[./]/g, '\\$&')}`).exec(body)?.[1] ?? fallback);

export function researchWorkspaceScenarios(e2e: E2E): void {
  e2e.scenario(
    'Research with the Workspace scope from the palette: a report citing workspace files by lines; ' +
      'a citation opens the file there',
    async ({ wb, page, fake, workspace }) => {
      wb.writeWorkspaceFile('notes-rs/retries.md', RETRIES);
      wb.writeWorkspaceFile('notes-rs/timeouts.md', TIMEOUTS);
      fake.onRequest((r) => {
        const b = bodyOf(r);
        if (b.includes('You plan web research'))
          return {
            text: JSON.stringify({
              question: 'How does our client retry, and what deadline applies?',
              subQuestions: ['What do our design docs say about retries and deadlines?'],
              queries: [{ query: 'retries deadline' }],
              expectedOutput: 'A short cited answer.',
              files: ['notes-rs/retries.md', 'notes-rs/timeouts.md'],
            }),
          };
        if (b.includes('You review web research in progress')) return { text: '{"enough": true, "queries": []}' };
        if (b.includes('You write a research report')) {
          const retries = sourceNumber(b, 'notes-rs/retries.md', 1);
          const timeouts = sourceNumber(b, 'notes-rs/timeouts.md', 2);
          return {
            text:
              '# Retries and deadlines\n\n## Summary\n\nOur HTTP client retries idempotent requests at most three ' +
              `times [${retries}]. Every request has a deadline of 30 seconds, retries included [${timeouts}].\n`,
          };
        }
        if (b.includes('You check one claim')) return { text: '{"verdict":"supported","reason":"same words"}' };
        if (b.includes('You are one of several researchers') || b.includes('must be clarified')) return { text: '{}' };
        return undefined;
      });
      try {
        await wb.openSextantView();
        await wb.setUserSettings({ 'sextant.research.clarify': 'never' }, 'web search: settings changed');
        await wb.runPaletteCommand('Sextant: New Chat');
        // The scope picker is under the composer in Research mode; the palette's Research… uses the choice.
        await wb.inWebview('radio', 'Research').click();
        const scope = wb.webviewFrame().getByRole('radiogroup', { name: 'Research scope' });
        await waitUntil('the "Research scope" radio group', () => scope.waitFor({ state: 'visible', timeout: 10_000 }));
        await scope.getByRole('radio', { name: 'Workspace' }).check();
        await poll('the Workspace scope chosen', () => scope.getByRole('radio', { name: 'Workspace' }).isChecked());

        await wb.runPaletteCommand('Sextant: Research…', { opensInput: true });
        const input = page.locator('.quick-input-widget .quick-input-box input');
        await waitUntil('the question box', () => input.waitFor({ state: 'visible', timeout: 10_000 }));
        await input.fill('What do our docs say about retries and deadlines?');
        await input.press('Enter');

        const report = wb.inWebview('region', 'Report');
        await poll('the report card', async () => (await report.count()) === 1, 90_000);
        const text = await report.innerText();
        assert.match(text, /Scope: Workspace/);
        assert.match(text, /2 of 2 claims verified/);
        const sources = report.getByRole('list', { name: 'Sources' });
        const entries = sources.getByRole('link');
        assert.equal(await entries.count(), 2);
        const listed = await sources.innerText();
        const range = /notes-rs\/retries\.md:(\d+)–(\d+)/.exec(listed);
        assert.ok(range, `the Sources list names notes-rs/retries.md with its lines: ${listed}`);
        const [start, end] = [Number(range[1]), Number(range[2])];
        assert.ok(start >= 1 && end >= start && end <= RETRIES.split('\n').length, `${start}–${end} within the file`);
        assert.ok(!fake.requests.some((r) => /api\.exa\.ai|tavily|brave/i.test(r.path)), 'no web search');

        // The citation [n] of the first claim, in the report's text, opens the file at the passage it rests on.
        const writer = fake.requests.find((r) => bodyOf(r).includes('You write a research report'));
        const n = sourceNumber(bodyOf(writer as RecordedRequest), 'notes-rs/retries.md', 1);
        await report
          .locator('.report-body')
          .getByRole('link', { name: `[${n}]`, exact: true })
          .first()
          .click();
        const tab = page.locator('.tabs-container .tab.active', { hasText: 'retries.md' });
        await waitUntil('retries.md open in the editor', () => tab.waitFor({ state: 'visible', timeout: 15_000 }));
        // The status bar: text selected — the passage the claim rests on — ending within the cited lines.
        const cursor = page.locator('.statusbar-item', { hasText: /Ln \d+, Col \d+ \(\d+ selected\)/ });
        await poll(`a selection ending within lines ${start}–${end}`, async () => {
          const text =
            (await cursor
              .first()
              .innerText()
              .catch(() => '')) ?? '';
          const line = Number(/Ln (\d+)/.exec(text)?.[1]);
          return line >= start && line <= end;
        });

        // The Sources entry of the other file opens it too.
        await wb.runPaletteCommand('View: Close All Editors');
        await sources.getByRole('link', { name: /notes-rs\/timeouts\.md/ }).click();
        const other = page.locator('.tabs-container .tab.active', { hasText: 'timeouts.md' });
        await waitUntil('timeouts.md open in the editor', () => other.waitFor({ state: 'visible', timeout: 15_000 }));
      } finally {
        fake.onRequest(undefined);
        await page.keyboard.press('Escape');
        await wb.runPaletteCommand('View: Close All Editors');
        // The scope is kept per workspace: later scenarios expect the Web scope and a Chat-mode new chat.
        const web = wb.webviewFrame().getByRole('radio', { name: 'Web' });
        if (await web.count()) await web.check();
        await wb.runPaletteCommand('Sextant: New Chat');
        await wb.setUserSettings({ 'sextant.research.clarify': undefined }, 'web search: settings changed');
        rmSync(join(workspace, 'notes-rs'), { recursive: true, force: true });
      }
    },
    { timeoutMs: 240_000 },
  );
}
