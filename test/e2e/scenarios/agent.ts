// Agent mode as a user meets it: the model proposes an edit and a command; each waits for Approve;
// the file changes on disk, Undo in the editor restores it, and the command's output is in the chat.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT, type E2E } from '../harness/e2e';
import { poll, waitUntil } from '../harness/workbench';

export function agentScenarios(e2e: E2E): void {
  e2e.scenario(
    "Agent mode: an edit applied after Approve changes the file, Undo restores it, and a command's output shows in " +
      'the chat',
    async ({ wb, page, fake }) => {
      await wb.openSextantView();
      await wb.runPaletteCommand('Sextant: New Chat');
      const agent = wb.inWebview('radio', 'Agent');
      await waitUntil('the Agent mode radio', () => agent.check({ timeout: 15_000 }));

      const original = wb.readWorkspaceFile('src/greet.js');
      assert.match(original, /Hello, \$\{name\}!/);
      fake.enqueue(
        {
          text: 'Let me look at the greeting first.',
          toolCalls: [{ name: 'read_file', arguments: { file_path: 'src/greet.js' } }],
        },
        {
          text: 'Making it nautical.',
          toolCalls: [
            {
              name: 'edit_file',
              arguments: { file_path: 'src/greet.js', old_string: 'Hello, ${name}!', new_string: 'Ahoy, ${name}!' },
            },
          ],
        },
        { toolCalls: [{ name: 'bash', arguments: { command: 'echo "ahoy lines: $(grep -c Ahoy src/greet.js)"' } }] },
        { text: 'Done: the greeting now says **Ahoy**.' },
      );
      await wb.typeMessage('Make the greeting nautical and check it');

      // The edit waits for approval: nothing has changed on disk yet.
      await poll(
        'the approval card for edit_file',
        async () => (await wb.inWebview('group', 'Approval: edit_file').count()) === 1,
        30_000,
      );
      assert.equal(wb.readWorkspaceFile('src/greet.js'), original, 'the file changed before it was approved');
      await wb.clickInWebview('button', 'Approve');
      await poll('src/greet.js to change on disk', async () =>
        wb.readWorkspaceFile('src/greet.js').includes('Ahoy, ${name}!'),
      );

      // The command asks too; its output lands on its card.
      await poll(
        'the approval card for bash',
        async () => (await wb.inWebview('group', 'Approval: bash').count()) === 1,
        30_000,
      );
      await wb.clickInWebview('button', 'Approve');
      const bashCard = wb.inWebview('group', 'Tool: bash').last();
      await poll('the command output "ahoy lines: 1" on the bash card', async () =>
        (await bashCard.innerText()).includes('ahoy lines: 1'),
      );
      await poll('the final answer', async () =>
        (await wb.articles('Sextant').last().innerText()).includes('the greeting now says'),
      );
      const cards = await wb
        .webviewFrame()
        .getByRole('group', { name: /^Tool: / })
        .allInnerTexts();
      assert.ok(cards.length >= 3, `expected read, edit and bash cards, got ${cards.length}`);
      const shot = await wb.screenshot('agent-session');
      await wb.docsScreenshot(shot, 'screenshot-agent', join(ROOT, 'docs'));

      // Undo in the editor restores the file: the edit went through VS Code's undo stack.
      await wb.openFile('src/greet.js');
      const editor = page.locator('.editor-instance .monaco-editor').first();
      await waitUntil('the greet.js editor', () => editor.waitFor({ state: 'visible', timeout: 15_000 }));
      // Monaco renders spaces as no-break spaces.
      const editorText = async () => (await editor.innerText()).replace(/\u00a0/g, ' ');
      await poll('the editor to show the edited text', async () => (await editorText()).includes('Ahoy, ${name}!'));
      await editor.click();
      await page.keyboard.press('ControlOrMeta+z');
      await poll('Undo to bring back "Hello"', async () => (await editorText()).includes('Hello, ${name}!'));
      await page.keyboard.press('ControlOrMeta+s');
      await poll('the restored text on disk', async () => wb.readWorkspaceFile('src/greet.js') === original);
    },
    { timeoutMs: 120_000 },
  );

  e2e.scenario('Agent mode reads a file written outside the editor, without asking', async ({ wb, fake }) => {
    await wb.openSextantView();
    await wb.runPaletteCommand('Sextant: New Chat');
    await waitUntil('the Agent mode radio', () => wb.inWebview('radio', 'Agent').check({ timeout: 15_000 }));
    const token = `bearing-${Date.now().toString(36)}`;
    wb.writeWorkspaceFile('logbook/today.md', `# Log\n\nHeading ${token}\n`);
    fake.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { file_path: 'logbook/today.md' } }] },
      { text: 'The log says we hold our heading.' },
    );
    await wb.typeMessage("What does today's log say?");
    await poll(
      'the final answer',
      async () => (await wb.articles('Sextant').last().innerText()).includes('hold our heading'),
      30_000,
    );
    assert.equal(
      await wb.inWebview('group', 'Approval: read_file').count(),
      0,
      'reading a workspace file asked for approval',
    );
    // The file's content went back to the model as the tool result.
    const second = fake.requests[1]?.body as { messages?: Array<{ role: string; content: unknown }> } | undefined;
    const toolResults = (second?.messages ?? []).filter((m) => m.role === 'tool');
    assert.match(
      JSON.stringify(toolResults),
      new RegExp(token),
      'the tool result sent to the model lacks the file content',
    );
  });

  e2e.scenario(
    'Agent mode edits a notebook open in its editor through the notebook API',
    async ({ wb, page, fake }) => {
      const nb = {
        cells: [
          { cell_type: 'code', execution_count: null, id: 'c0ffee01', metadata: {}, outputs: [], source: ['x = 41'] },
        ],
        metadata: { language_info: { name: 'python' } },
        nbformat: 4,
        nbformat_minor: 5,
      };
      wb.writeWorkspaceFile('analysis.ipynb', `${JSON.stringify(nb, null, 1)}\n`);
      await wb.openFile('analysis.ipynb');
      const notebook = page.locator('.notebook-editor').first();
      await waitUntil('the notebook editor', () => notebook.waitFor({ state: 'visible', timeout: 20_000 }));

      await wb.openSextantView();
      await wb.runPaletteCommand('Sextant: New Chat');
      await waitUntil('the Agent mode radio', () => wb.inWebview('radio', 'Agent').check({ timeout: 15_000 }));
      fake.enqueue(
        { toolCalls: [{ name: 'read_file', arguments: { file_path: 'analysis.ipynb' } }] },
        {
          toolCalls: [
            {
              name: 'notebook_edit',
              arguments: {
                notebook_path: 'analysis.ipynb',
                cell_id: 'c0ffee01',
                edit_mode: 'insert',
                cell_type: 'markdown',
                new_source: '## Answer cell',
              },
            },
          ],
        },
        { text: 'Added a heading cell.' },
      );
      await wb.typeMessage('Add a heading cell after the first cell');
      await poll(
        'the approval card for notebook_edit',
        async () => (await wb.inWebview('group', 'Approval: notebook_edit').count()) === 1,
        30_000,
      );
      await wb.clickInWebview('button', 'Approve');
      await poll(
        'the final answer',
        async () => (await wb.articles('Sextant').last().innerText()).includes('Added a heading cell'),
        30_000,
      );
      const card = wb.inWebview('group', 'Tool: notebook_edit').last();
      assert.match(await card.innerText(), /open notebook editor/, 'the edit did not go through the open notebook');
      // The open notebook shows the new cell, and the saved file has it after the first cell.
      // Markdown cells render inside the notebook's own webview: look for the editor's markdown cell row,
      // or the status bar's "Cell n of 2".
      await poll(
        'a second (markdown) cell in the notebook editor',
        async () =>
          (await notebook.locator('.markdown-cell-row').count()) === 1 ||
          /Cell \d+ of 2/.test(await page.locator('.statusbar').innerText()),
      );
      const saved = await poll('the saved notebook on disk', async () => {
        const doc = JSON.parse(wb.readWorkspaceFile('analysis.ipynb')) as {
          cells: Array<{ cell_type: string; source: string | string[] }>;
        };
        return doc.cells.length === 2 ? doc : undefined;
      });
      assert.equal(saved.cells[1].cell_type, 'markdown');
      assert.match([saved.cells[1].source].flat().join(''), /## Answer cell/);
    },
    { timeoutMs: 120_000 },
  );
}
