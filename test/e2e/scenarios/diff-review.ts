// Diff review as a user meets it in the real editor: a proposed edit opens VS Code's diff editor
// (the file against an editable proposal) beside the chat without taking the focus, with Approve /
// Deny Change in its title bar; an edited proposal is what Approve writes, and one Undo restores the
// file; Deny from the title bar leaves the file alone and the model gets the reason; two pending
// edits each get their own diff.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT, type E2E } from '../harness/e2e';
import { poll, waitUntil, type Workbench } from '../harness/workbench';

const PROPOSAL_TAB = "Sextant's proposal";

async function startAgentChat(wb: Workbench): Promise<void> {
  await wb.openSextantView();
  await wb.runPaletteCommand('Sextant: New Chat');
  await waitUntil('the Agent mode radio', () => wb.inWebview('radio', 'Agent').check({ timeout: 15_000 }));
}

function edit(file: string, from: string, to: string) {
  return { name: 'edit_file', arguments: { file_path: file, old_string: from, new_string: to } };
}

export function diffReviewScenarios(e2e: E2E): void {
  e2e.scenario(
    'Diff review: the proposal opens in the diff editor with Approve/Deny in its title bar; the edited proposal ' +
      'is written and one Undo restores the file',
    async ({ wb, page, fake }) => {
      const original = 'Ledger\nentry one\nentry two\n';
      wb.writeWorkspaceFile('review/ledger.txt', original);
      await startAgentChat(wb);
      const before = fake.requests.length;
      fake.enqueue(
        { toolCalls: [{ name: 'read_file', arguments: { file_path: 'review/ledger.txt' } }] },
        {
          text: 'Marking entry two as checked.',
          toolCalls: [edit('review/ledger.txt', 'entry two', 'entry two (checked)')],
        },
        { text: 'The ledger is updated.' },
      );
      await wb.typeMessage('Mark entry two as checked');

      const card = wb.inWebview('group', 'Approval: edit_file');
      await poll('the approval card for edit_file', async () => (await card.count()) === 1, 30_000);
      assert.match(await card.innerText(), /review\/ledger\.txt/);
      assert.match(await card.innerText(), /\+1/);

      // The diff editor opened, titled as the proposal, with the commands in its title bar.
      const diff = page.locator('.editor-group-container.active .monaco-diff-editor').first();
      await waitUntil('the diff editor of the proposal', () => diff.waitFor({ state: 'visible', timeout: 20_000 }));
      const tab = page.locator('.tabs-container .tab', { hasText: PROPOSAL_TAB }).first();
      await waitUntil('the proposal tab', () => tab.waitFor({ state: 'visible', timeout: 10_000 }));
      const actions = page.locator('.editor-group-container.active .editor-actions');
      const approve = actions.locator('[aria-label^="Approve Change"]').first();
      const deny = actions.locator('[aria-label^="Deny Change"]').first();
      await waitUntil('"Approve Change" in the title bar', () =>
        approve.waitFor({ state: 'visible', timeout: 10_000 }),
      );
      await waitUntil('"Deny Change" in the title bar', () => deny.waitFor({ state: 'visible', timeout: 10_000 }));
      // Opening it did not take the focus from the chat (sextant.review.focusDiff is off).
      assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'IFRAME', 'the diff took the focus');
      assert.equal(wb.readWorkspaceFile('review/ledger.txt'), original, 'the file changed before approval');

      // The user adds a line to the proposal; the card says so.
      const modified = diff.locator('.editor.modified .view-lines').first();
      await waitUntil('the proposal side of the diff', () => modified.click({ timeout: 10_000 }));
      await page.keyboard.press('ControlOrMeta+End');
      await page.keyboard.insertText('signed: the reviewer\n');
      await poll('the card to say the proposal was edited', async () =>
        (await card.innerText()).includes('You edited the proposal'),
      );
      // The diff editor recomputes the diff a moment later: the user's line shows as inserted too.
      await poll(
        'the diff to mark the added line',
        async () => (await diff.locator('.editor.modified .view-overlays .line-insert').count()) >= 2,
      );
      const shot = await wb.screenshot('diff-review');
      await wb.docsScreenshot(shot, 'screenshot-diff-review', join(ROOT, 'docs'));

      await approve.click();
      const expected = 'Ledger\nentry one\nentry two (checked)\nsigned: the reviewer\n';
      await poll('the edited proposal on disk', async () => wb.readWorkspaceFile('review/ledger.txt') === expected);
      await poll(
        'the diff editor to close',
        async () => (await page.locator('.tabs-container .tab', { hasText: PROPOSAL_TAB }).count()) === 0,
      );
      await poll('the final answer', async () =>
        (await wb.articles('Sextant').last().innerText()).includes('The ledger is updated'),
      );
      // The model was told the user changed its proposal, and how.
      const told = JSON.stringify(fake.requests[before + 2]?.body ?? {});
      assert.match(told, /user's edits/, 'the model was not told the proposal was edited');
      assert.match(told, /\+signed: the reviewer/, "the model was not shown the user's line");

      // One Undo in the file's editor brings back the file as it was before the change.
      await wb.openFile('review/ledger.txt');
      const editor = page.locator('.editor-group-container.active .editor-instance .monaco-editor').first();
      await waitUntil('the ledger.txt editor', () => editor.waitFor({ state: 'visible', timeout: 15_000 }));
      const editorText = async () => (await editor.innerText()).replace(/\u00a0/g, ' ');
      await poll('the editor to show the approved text', async () => (await editorText()).includes('signed: the'));
      await editor.click();
      await page.keyboard.press('ControlOrMeta+z');
      await poll('one Undo to restore the file', async () => {
        const text = await editorText();
        return !text.includes('signed: the') && !text.includes('(checked)') && text.includes('entry two');
      });
      await page.keyboard.press('ControlOrMeta+s');
      await poll('the restored file on disk', async () => wb.readWorkspaceFile('review/ledger.txt') === original);
      await wb.runPaletteCommand('View: Close Editor');
    },
    { timeoutMs: 150_000 },
  );

  e2e.scenario(
    'Diff review: Deny Change from the title bar leaves the file untouched and the model gets the reason',
    async ({ wb, page, fake }) => {
      const original = 'port: 8080\n';
      wb.writeWorkspaceFile('review/config.txt', original);
      await startAgentChat(wb);
      const before = fake.requests.length;
      fake.enqueue(
        { toolCalls: [{ name: 'read_file', arguments: { file_path: 'review/config.txt' } }] },
        { toolCalls: [edit('review/config.txt', 'port: 8080', 'port: 80')] },
        { text: 'Understood, the port stays.' },
      );
      await wb.typeMessage('Use the default HTTP port');
      await poll(
        'the approval card',
        async () => (await wb.inWebview('group', 'Approval: edit_file').count()) === 1,
        30_000,
      );
      const deny = page.locator('.editor-group-container.active .editor-actions [aria-label^="Deny Change"]').first();
      await waitUntil('"Deny Change" in the title bar', () => deny.click({ timeout: 20_000 }));
      const input = page.locator('.quick-input-widget .quick-input-box input');
      await waitUntil('the reason box', () => input.waitFor({ state: 'visible', timeout: 10_000 }));
      await input.fill('port 80 needs root here');
      await input.press('Enter');
      await poll('the final answer', async () =>
        (await wb.articles('Sextant').last().innerText()).includes('the port stays'),
      );
      assert.equal(wb.readWorkspaceFile('review/config.txt'), original, 'a denied change was written');
      assert.equal(
        await page.locator('.tabs-container .tab', { hasText: PROPOSAL_TAB }).count(),
        0,
        'the diff stayed open',
      );
      const told = JSON.stringify(fake.requests[before + 2]?.body ?? {});
      assert.match(told, /The user denied this edit_file call/);
      assert.match(told, /port 80 needs root here/, 'the reason did not reach the model');
    },
    { timeoutMs: 90_000 },
  );

  e2e.scenario(
    'Diff review: a file changed on disk under review is flagged on the card, and Approve (Ctrl+Alt+Enter) ' +
      'does not overwrite it',
    async ({ wb, page, fake }) => {
      wb.writeWorkspaceFile('review/log.txt', 'day 1: calm\n');
      await startAgentChat(wb);
      const before = fake.requests.length;
      fake.enqueue(
        { toolCalls: [{ name: 'read_file', arguments: { file_path: 'review/log.txt' } }] },
        { toolCalls: [edit('review/log.txt', 'day 1: calm', 'day 1: calm seas')] },
        { text: 'I will read it again.' },
      );
      await wb.typeMessage('Tidy the log');
      const card = wb.inWebview('group', 'Approval: edit_file');
      await poll('the approval card', async () => (await card.count()) === 1, 30_000);
      const diff = page.locator('.editor-group-container.active .monaco-diff-editor').first();
      await waitUntil('the diff editor', () => diff.waitFor({ state: 'visible', timeout: 20_000 }));
      // Another program writes the file meanwhile.
      const theirs = 'day 1: calm\nday 2: storm\n';
      wb.writeWorkspaceFile('review/log.txt', theirs);
      await poll(
        'the card to say the file changed',
        async () => /changed since the proposal/.test(await card.innerText()),
        20_000,
      );
      // Approve with the keybinding, from the proposal side of the diff.
      await waitUntil('the proposal side', () =>
        diff.locator('.editor.modified .view-lines').first().click({ timeout: 10_000 }),
      );
      await page.keyboard.press('ControlOrMeta+Alt+Enter');
      await poll('the final answer', async () =>
        (await wb.articles('Sextant').last().innerText()).includes('read it again'),
      );
      assert.equal(wb.readWorkspaceFile('review/log.txt'), theirs, 'the stale proposal was applied');
      assert.match(JSON.stringify(fake.requests[before + 2]?.body ?? {}), /Not applied: review\/log\.txt changed/);
    },
    { timeoutMs: 90_000 },
  );

  e2e.scenario(
    'Diff review: two pending edits share one batch card, each opens its own diff and is decided apart',
    async ({ wb, page, fake }) => {
      wb.writeWorkspaceFile('review/north.txt', 'heading: north\n');
      wb.writeWorkspaceFile('review/south.txt', 'heading: south\n');
      await startAgentChat(wb);
      const before = fake.requests.length;
      fake.enqueue(
        {
          toolCalls: [
            { name: 'read_file', arguments: { file_path: 'review/north.txt' } },
            { name: 'read_file', arguments: { file_path: 'review/south.txt' } },
          ],
        },
        {
          toolCalls: [
            edit('review/north.txt', 'heading: north', 'heading: NNE'),
            edit('review/south.txt', 'heading: south', 'heading: SSW'),
          ],
        },
        { text: 'One heading changed.' },
      );
      await wb.typeMessage('Adjust both headings');
      // Two edits of one step pending together share one card (batch review); each keeps its own diff.
      const batch = wb.inWebview('group', 'Review 2 edits');
      await poll('one batch card for both edits', async () => (await batch.count()) === 1, 30_000);
      const cards = wb.inWebview('group', 'Approval: edit_file');
      const tabs = page.locator('.tabs-container .tab', { hasText: PROPOSAL_TAB });
      await poll('two proposal diffs', async () => (await tabs.count()) === 2, 20_000);
      const labels = (await tabs.allInnerTexts()).join(' | ');
      assert.match(labels, /north\.txt/);
      assert.match(labels, /south\.txt/);

      // The second is approved first from the batch card; the first, left alone, is denied from its own card.
      await batch.getByRole('button', { name: 'Approve review/south.txt', exact: true }).click();
      await poll('one card left', async () => (await batch.count()) === 0 && (await cards.count()) === 1);
      assert.equal(wb.readWorkspaceFile('review/south.txt'), 'heading: south\n', 'ran before the earlier call');
      const north = cards.filter({ hasText: 'review/north.txt' });
      await north.getByRole('textbox', { name: 'Reason for denying (optional)' }).fill('north is right');
      await north.getByRole('button', { name: 'Deny', exact: true }).click();
      await poll('the final answer', async () =>
        (await wb.articles('Sextant').last().innerText()).includes('One heading changed'),
      );
      assert.equal(wb.readWorkspaceFile('review/north.txt'), 'heading: north\n');
      assert.equal(wb.readWorkspaceFile('review/south.txt'), 'heading: SSW\n');
      await poll('both diffs closed', async () => (await tabs.count()) === 0);
      assert.match(JSON.stringify(fake.requests[before + 2]?.body ?? {}), /north is right/);
    },
    { timeoutMs: 90_000 },
  );
}
