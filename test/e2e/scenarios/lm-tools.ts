// VS Code's language-model tools in a real VS Code: a second extension (test/e2e/fixtures/lm-tool-extension,
// installed beside Sextant) registers `e2e_marker`; Sextant offers it to the model as `lm__e2e_marker`; the
// model's call asks on an approval card like any tool that may change things; approved, Sextant invokes it
// through `vscode.lm.invokeTool` and its result reaches the model in the next request.
import assert from 'node:assert/strict';
import type { E2E } from '../harness/e2e';
import { poll, waitUntil } from '../harness/workbench';

const TOOL = 'lm__e2e_marker';

function toolNames(body: unknown): string[] {
  const tools = ((body as { tools?: Array<{ function?: { name?: string } }> } | undefined)?.tools ?? []) as Array<{
    function?: { name?: string };
  }>;
  return tools.map((t) => t.function?.name ?? '');
}

export function lmToolScenarios(e2e: E2E): void {
  e2e.scenario(
    "Language-model tools: another extension's tool is offered, asks first, and its result reaches the model",
    async ({ wb, fake }) => {
      await wb.openSextantView();
      await wb.runPaletteCommand('Sextant: New Chat');
      await waitUntil('the Agent mode radio', () => wb.inWebview('radio', 'Agent').check({ timeout: 15_000 }));
      const before = fake.requests.length;
      fake.enqueue(
        { toolCalls: [{ name: TOOL, arguments: { label: 'from-the-model' } }] },
        { text: 'The marker came back.' },
      );
      await wb.typeMessage('Call the marker tool of the other extension');

      const approval = wb.inWebview('group', `Approval: ${TOOL}`);
      await poll(`the approval card for ${TOOL}`, async () => (await approval.count()) === 1, 30_000);
      const first = fake.requests[before]?.body;
      assert.ok(toolNames(first).includes(TOOL), `the first request offers ${TOOL}`);
      assert.match(await approval.innerText(), /language-model tool e2e_marker/);
      // Nothing ran before the approval: only the first request was made.
      assert.equal(fake.requests.length, before + 1);

      await wb.clickInWebview('button', 'Approve');
      await poll('the answer after the tool', async () =>
        (await wb.articles('Sextant').last().innerText()).includes('The marker came back.'),
      );
      const second = JSON.stringify(fake.requests[before + 1]?.body ?? {});
      assert.match(second, /E2E-LM-TOOL-RESULT label=from-the-model/, "the tool's result reaches the next request");
    },
    { timeoutMs: 120_000 },
  );
}
