// Get Started: the walkthrough opens by itself on the first start (and only then), its buttons run
// Sextant's commands, and its steps tick off when the user really did the thing.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT, type E2E } from '../harness/e2e';
import { poll, type Workbench } from '../harness/workbench';

const TITLE = 'Get Started with Sextant';

function step(page: Page, id: string) {
  return page.locator(`button.getting-started-step[data-step-id$="${id}"]`);
}

async function checked(page: Page, id: string): Promise<boolean> {
  return (await step(page, id).getAttribute('aria-checked')) === 'true';
}

async function closeEditors(wb: Workbench, page: Page): Promise<void> {
  // The walkthrough is an editor; later scenarios (and their screenshots) expect an empty editor area.
  await wb.runPaletteCommand('View: Close All Editors');
  await poll('the walkthrough to close', async () => (await page.getByText(TITLE, { exact: true }).count()) === 0);
}

/** Registered first: it sees the workbench as a new user does. */
export function walkthroughFirstScenarios(e2e: E2E): void {
  e2e.scenario('first start: Get Started opens by itself and a step button runs its command', async ({ wb, page }) => {
    await wb.openSextantView();
    await poll('the Get Started walkthrough to open on the first start', async () =>
      page.getByText(TITLE, { exact: true }).first().isVisible(),
    );
    // Nothing done yet: no step is ticked off.
    for (const id of ['#chooseModel', '#firstQuestion', '#agentEdit', '#planMode', '#research', '#history'])
      assert.equal(await checked(page, id), false, `${id} ticked before anything was done`);
    const shot = await wb.screenshot('walkthrough');
    await wb.docsScreenshot(shot, 'screenshot-walkthrough', join(ROOT, 'docs'));

    // The history step's button runs "Sextant: Show History": the chat shows its History list, and the
    // step is done (its completion event is that command).
    await step(page, '#history').click();
    await page.locator('.getting-started-step.expanded, .getting-started-step[aria-expanded="true"]').first().waitFor();
    // In the editor area: the chat view's title bar has a "Show History" button of its own.
    await page.locator('.editor-group-container').getByRole('button', { name: 'Show History', exact: true }).click();
    await poll('the History view in the chat', async () =>
      wb.webviewFrame().getByRole('heading', { name: 'History' }).isVisible(),
    );
    await poll('the history step to be ticked off', () => checked(page, '#history'));
    await wb.clickInWebview('button', 'Back to chat');
    await closeEditors(wb, page);
  });
}

/** Registered last: by then the suite has answered, edited, planned and researched as a user would. */
export function walkthroughLastScenarios(e2e: E2E): void {
  e2e.scenario(
    'Sextant: Get Started reopens it; an answered question ticks its step off',
    async ({ wb, fake, page }) => {
      await wb.openSextantView();
      fake.enqueue({ text: 'Walkthrough answer.' });
      await wb.typeMessage('One question for the walkthrough');
      await poll('the answer', async () =>
        (await wb.articles('Sextant').last().innerText()).includes('Walkthrough answer.'),
      );
      await wb.runPaletteCommand('Sextant: Get Started');
      await poll('the walkthrough, opened from the palette', async () =>
        page.getByText(TITLE, { exact: true }).first().isVisible(),
      );
      // Completed on the context keys Sextant sets when an answer has streamed in full.
      await poll('"Ask your first question" to be ticked off', () => checked(page, '#firstQuestion'));
      await poll('"Choose a model" to be ticked off (the model answered)', () => checked(page, '#chooseModel'));
      await closeEditors(wb, page);
    },
  );
}
