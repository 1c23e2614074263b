// Checkpoints and rewind as a user meets them: the agent edits two files over two turns; "Rewind to
// here" on the first message previews both files, then puts both files and the conversation back
// (the message returns to the composer); Redo brings the agent's changes and the conversation back;
// editing the second message sends it from there, and the earlier branch is in History.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT, type E2E } from '../harness/e2e';
import type { Workbench } from '../harness/workbench';
import { poll, waitUntil } from '../harness/workbench';

const ONE = 'rewind-demo/one.txt';
const TWO = 'rewind-demo/two.txt';
const CMD = 'rewind-demo/by-command.txt';
const MADE = 'rewind-demo/made-by-command.txt';

async function approveEdit(wb: Workbench): Promise<void> {
  // Each edit asks (the default mode); approving applies it.
  await poll(
    'the approval card for edit_file',
    async () => (await wb.inWebview('group', 'Approval: edit_file').count()) === 1,
    30_000,
  );
  await wb.clickInWebview('button', 'Approve');
}

export function rewindScenarios(e2e: E2E): void {
  e2e.scenario(
    'Rewind to here restores two edited files and the conversation; Redo brings them back; Edit forks the chat',
    async ({ wb, fake }) => {
      wb.writeWorkspaceFile(ONE, 'one: as the user wrote it\n');
      wb.writeWorkspaceFile(TWO, 'two: as the user wrote it\n');
      await wb.openSextantView();
      await wb.runPaletteCommand('Sextant: New Chat');
      await waitUntil('the Agent mode radio', () => wb.inWebview('radio', 'Agent').check({ timeout: 15_000 }));

      const editTurn = (file: string, from: string, to: string, done: string) => [
        { toolCalls: [{ name: 'read_file', arguments: { file_path: file } }] },
        { toolCalls: [{ name: 'edit_file', arguments: { file_path: file, old_string: from, new_string: to } }] },
        { text: done },
      ];
      fake.enqueue(...editTurn(ONE, 'as the user wrote it', 'changed by the agent', 'Changed one.'));
      await wb.typeMessage('Change the first file');
      await approveEdit(wb);
      await poll('the first answer', async () =>
        (await wb.articles('Sextant').last().innerText()).includes('Changed one.'),
      );
      fake.enqueue(...editTurn(TWO, 'as the user wrote it', 'changed by the agent', 'Changed two.'));
      await wb.typeMessage('Now change the second file');
      await approveEdit(wb);
      await poll('the second answer', async () =>
        (await wb.articles('Sextant').last().innerText()).includes('Changed two.'),
      );
      assert.equal(wb.readWorkspaceFile(ONE), 'one: changed by the agent\n');
      assert.equal(wb.readWorkspaceFile(TWO), 'two: changed by the agent\n');

      // Rewind to the first message: the preview names both files.
      const first = wb.articles('You').first();
      await waitUntil('"Rewind to here" on the first message', () =>
        first.getByRole('button', { name: 'Rewind to here', exact: true }).click({ timeout: 15_000 }),
      );
      const dialog = wb.inWebview('dialog', 'Rewind preview');
      await poll('the rewind preview with both files', async () => {
        const text = (await dialog.count()) ? await dialog.innerText() : '';
        return text.includes('one.txt') && text.includes('two.txt') && text.includes('2 files will be restored');
      });
      const shot = await wb.screenshot('rewind-preview');
      await wb.docsScreenshot(shot, 'screenshot-rewind', join(ROOT, 'docs'));

      await wb.clickInWebview('button', 'Files and conversation');
      await poll(
        'both files back as the user wrote them',
        async () =>
          wb.readWorkspaceFile(ONE) === 'one: as the user wrote it\n' &&
          wb.readWorkspaceFile(TWO) === 'two: as the user wrote it\n',
      );
      await poll(
        'the conversation back to before the first message',
        async () => (await wb.articles('You').count()) === 0 && (await wb.articles('Sextant').count()) === 0,
      );
      const composer = wb.inWebview('textbox', 'Message');
      await poll(
        'the first message back in the composer',
        async () => (await composer.inputValue()) === 'Change the first file',
      );

      // Redo undoes the rewind: the agent's changes and the conversation come back.
      const notice = wb.inWebview('status', 'Rewind');
      await poll('the rewind notice', async () => (await notice.count()) === 1);
      await notice.getByRole('button', { name: 'Redo', exact: true }).click();
      await poll(
        'both files changed again',
        async () =>
          wb.readWorkspaceFile(ONE) === 'one: changed by the agent\n' &&
          wb.readWorkspaceFile(TWO) === 'two: changed by the agent\n',
      );
      await poll('the conversation back', async () => (await wb.articles('You').count()) === 2);
      await composer.fill('');

      // Edit the second message: its turn changed a file, so the view asks; keep the files.
      const second = wb.articles('You').nth(1);
      await second.getByRole('button', { name: 'Edit', exact: true }).click();
      const editor = second.getByRole('textbox', { name: 'Edit message' });
      await editor.fill('Leave the second file alone');
      fake.enqueue({ text: 'Leaving it alone.' });
      await second.getByRole('button', { name: 'Send edited message' }).click();
      await waitUntil('"Send, keep files" in the preview', () =>
        dialog.getByRole('button', { name: 'Send, keep files' }).click({ timeout: 15_000 }),
      );
      await poll('the answer to the edited message', async () =>
        (await wb.articles('Sextant').last().innerText()).includes('Leaving it alone.'),
      );
      const asked = await wb.articles('You').allInnerTexts();
      assert.equal(asked.length, 2);
      assert.ok(asked[1].includes('Leave the second file alone'), asked[1]);
      assert.equal(wb.readWorkspaceFile(TWO), 'two: changed by the agent\n', 'the files were kept');

      // The conversation before the edit is kept in History as an earlier branch, and can be opened.
      await wb.clickInWebview('button', 'History');
      const list = wb.inWebview('list', 'History');
      await poll('the History list', () => list.isVisible());
      const branch = list.getByRole('button', { name: /Change the first file \(earlier branch\)/ }).first();
      await waitUntil('the earlier branch in History', () => branch.click({ timeout: 15_000 }));
      await poll('the earlier branch with the original second message', async () => {
        const texts = await wb.articles('You').allInnerTexts();
        return texts.length === 2 && texts[1].includes('Now change the second file');
      });
    },
    { timeoutMs: 120_000 },
  );

  e2e.scenario(
    'Rewind to before a command puts back the file the command rewrote and deletes the one it created',
    async ({ wb, fake }) => {
      wb.writeWorkspaceFile(CMD, 'written by the user\n');
      await wb.openSextantView();
      await wb.runPaletteCommand('Sextant: New Chat');
      await waitUntil('the Agent mode radio', () => wb.inWebview('radio', 'Agent').check({ timeout: 15_000 }));
      const command = `printf 'rewritten by a command\\n' > ${CMD} && printf 'new\\n' > ${MADE}`;
      fake.enqueue({ toolCalls: [{ name: 'bash', arguments: { command } }] }, { text: 'The command ran.' });
      await wb.typeMessage('Rewrite the file with a command');
      await poll(
        'the approval card for bash',
        async () => (await wb.inWebview('group', 'Approval: bash').count()) === 1,
        30_000,
      );
      await wb.clickInWebview('button', 'Approve');
      await poll('the answer', async () =>
        (await wb.articles('Sextant').last().innerText()).includes('The command ran.'),
      );
      assert.equal(wb.readWorkspaceFile(CMD), 'rewritten by a command\n');
      assert.equal(wb.readWorkspaceFile(MADE), 'new\n');

      const message = wb.articles('You').first();
      await waitUntil('"Rewind to here" on the message', () =>
        message.getByRole('button', { name: 'Rewind to here', exact: true }).click({ timeout: 15_000 }),
      );
      const dialog = wb.inWebview('dialog', 'Rewind preview');
      await poll('the preview names both files the command touched', async () => {
        const text = (await dialog.count()) ? await dialog.innerText() : '';
        return text.includes('by-command.txt') && text.includes('made-by-command.txt') && text.includes('restored');
      });
      const text = await dialog.innerText();
      assert.ok(text.includes('ignored paths'), `the preview says what commands' coverage leaves out: ${text}`);
      await wb.clickInWebview('button', 'Files only');
      await poll(
        'the file back as the user wrote it',
        async () => wb.readWorkspaceFile(CMD) === 'written by the user\n',
      );
      await poll('the created file gone', async () => {
        try {
          wb.readWorkspaceFile(MADE);
          return false;
        } catch {
          return true;
        }
      });
    },
    { timeoutMs: 120_000 },
  );
}
