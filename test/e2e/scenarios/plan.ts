// Plan mode as a user meets it: the model explores read-only and submits a plan; the card shows it;
// Approve hands it to a fresh Agent request that carries the plan and has the writer tools.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT, type E2E } from '../harness/e2e';
import { poll, waitUntil } from '../harness/workbench';

const PLAN = {
  goal: 'Make the greeting nautical: greet with "Ahoy" instead of "Hello".',
  steps: [
    { title: 'Change the greeting text in src/greet.js', detail: 'Replace "Hello, ${name}!" with "Ahoy, ${name}!".' },
    { title: 'Check that nothing else prints the old greeting' },
  ],
  files: [{ path: 'src/greet.js', change: 'The greeting string says Ahoy.' }],
  risks: ['Tests or docs that expect the old text'],
  verify: ['grep -c Ahoy src/greet.js prints 1'],
};

interface ChatBody {
  messages?: Array<{ role: string; content: unknown }>;
  tools?: Array<{ function?: { name?: string } }>;
}
const toolNames = (body: unknown): string[] => ((body as ChatBody).tools ?? []).map((t) => t.function?.name ?? '');

export function planScenarios(e2e: E2E): void {
  e2e.scenario(
    'Plan mode: the model submits a plan with read-only tools; Approve runs it as an Agent request with the plan',
    async ({ wb, fake }) => {
      await wb.openSextantView();
      await wb.runPaletteCommand('Sextant: New Chat');
      await waitUntil('the Plan mode radio', () => wb.inWebview('radio', 'Plan').check({ timeout: 15_000 }));

      fake.enqueue(
        {
          text: 'Let me read the greeting.',
          toolCalls: [{ name: 'read_file', arguments: { file_path: 'src/greet.js' } }],
        },
        { toolCalls: [{ name: 'submit_plan', arguments: PLAN }] },
      );
      await wb.typeMessage('Plan a nautical greeting');
      const card = wb.inWebview('region', 'Plan');
      await poll('the plan card', async () => (await card.count()) === 1, 30_000);
      const text = await card.innerText();
      for (const expected of ['Make the greeting nautical', 'Change the greeting text', 'src/greet.js', 'Ahoy'])
        assert.ok(text.includes(expected), `the plan card lacks "${expected}": ${text}`);
      assert.equal(fake.requests.length, 2, 'the turn went on after submit_plan');
      for (const r of fake.requests) {
        const names = toolNames(r.body);
        assert.ok(names.includes('submit_plan') && names.includes('read_file'), `plan tools: ${names.join(', ')}`);
        for (const writer of ['write_file', 'edit_file', 'multi_edit', 'bash'])
          assert.ok(!names.includes(writer), `Plan mode offered ${writer}`);
      }
      const shot = await wb.screenshot('plan-card');
      await wb.docsScreenshot(shot, 'screenshot-plan', join(ROOT, 'docs'));

      fake.enqueue({ text: 'Plan carried out: the greeting now says **Ahoy**.' });
      await wb.clickInWebview('button', 'Approve plan');
      await poll('the Agent request', async () => fake.requests.length === 3, 30_000);
      const agent = fake.requests[2].body as ChatBody;
      const names = toolNames(agent);
      assert.ok(names.includes('write_file') && names.includes('bash'), `Agent tools: ${names.join(', ')}`);
      const last = agent.messages?.at(-1);
      assert.equal(last?.role, 'user');
      assert.match(JSON.stringify(last?.content), /Carry out this approved plan/);
      assert.match(JSON.stringify(last?.content), /Make the greeting nautical/);
      await poll('the Agent answer', async () =>
        (await wb.articles('Sextant').last().innerText()).includes('greeting now says'),
      );
      await poll('Agent mode selected', () => wb.inWebview('radio', 'Agent').isChecked());
      await poll('the plan marked approved', async () => (await card.innerText()).includes('Approved'));
      assert.equal(await card.getByRole('button').count(), 0, 'an approved plan still offers buttons');
      const todos = wb.inWebview('list', 'Todos');
      await poll('the todos from the plan', async () =>
        (await todos.innerText()).includes('Change the greeting text in src/greet.js'),
      );
    },
    { timeoutMs: 120_000 },
  );

  e2e.scenario(
    'Plan mode: Edit plan opens the plan as a Markdown document, and Approve runs the edited text',
    async ({ wb, page, fake }) => {
      await wb.openSextantView();
      await wb.runPaletteCommand('Sextant: New Chat');
      await waitUntil('the Plan mode radio', () => wb.inWebview('radio', 'Plan').check({ timeout: 15_000 }));
      fake.enqueue({ toolCalls: [{ name: 'submit_plan', arguments: PLAN }] });
      await wb.typeMessage('Plan a nautical greeting');
      const card = wb.inWebview('region', 'Plan').last();
      await poll('the plan card', async () => (await card.getByRole('button', { name: 'Edit plan' }).count()) === 1);

      await wb.clickInWebview('button', 'Edit plan');
      const editor = page.locator('.editor-instance .monaco-editor').first();
      await waitUntil('the plan document', () => editor.waitFor({ state: 'visible', timeout: 15_000 }));
      const editorText = async () => (await editor.innerText()).replace(/\u00a0/g, ' ');
      await poll('the plan in the editor', async () => (await editorText()).includes('## Steps'));
      await editor.click();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('Goal: greet with Avast instead.');
      await poll('the edited plan in the editor', async () => (await editorText()).includes('Avast'));

      const before = fake.requests.length;
      fake.enqueue({ text: 'Edited plan carried out.' });
      await wb.clickInWebview('button', 'Approve plan');
      await poll('the Agent request', async () => fake.requests.length === before + 1, 30_000);
      const last = (fake.requests[before].body as ChatBody).messages?.at(-1);
      assert.match(JSON.stringify(last?.content), /Carry out this approved plan/);
      assert.match(JSON.stringify(last?.content), /greet with Avast instead/);
      assert.doesNotMatch(JSON.stringify(last?.content), /Make the greeting nautical/, 'the unedited plan ran');
      await poll('the Agent answer', async () =>
        (await wb.articles('Sextant').last().innerText()).includes('Edited plan carried out'),
      );
      // Leave no dirty untitled editor behind for the scenarios that follow.
      await page.keyboard.press('Escape');
      await wb.runPaletteCommand('View: Revert and Close Editor');
    },
    { timeoutMs: 120_000 },
  );
}
