// Keys and tools in a real VS Code: a command the agent runs gets no keys from the extension host's
// environment, and a key a command prints (a workspace file holding the provider key) is redacted
// before it reaches the model, the chat's tool card or the output channel.
import assert from 'node:assert/strict';
import { E2E_KEY, type E2E } from '../harness/e2e';
import { poll, waitUntil } from '../harness/workbench';

/** A variable whose name says "secret", in the extension host's environment; no known key shape. */
export const SECRET_PROBE_ENV = 'E2E_SECRET_PROBE';
export const SECRET_PROBE = 'probe-9c1e7a52f0d34b68-value';

export function trustToolScenarios(e2e: E2E): void {
  // code-server (and so the extension host) inherits this process's environment when the suite
  // starts it, which is after every scenario is registered.
  process.env[SECRET_PROBE_ENV] = SECRET_PROBE;

  e2e.scenario(
    'Agent mode: a key printed by a command never reaches the model or the chat',
    async ({ wb, fake }) => {
      wb.writeWorkspaceFile('secret.txt', `provider key: ${E2E_KEY}\n`);
      await wb.openSextantView();
      await wb.runPaletteCommand('Sextant: New Chat');
      await waitUntil('the Agent mode radio', () => wb.inWebview('radio', 'Agent').check({ timeout: 15_000 }));
      fake.enqueue(
        { toolCalls: [{ name: 'bash', arguments: { command: `echo "k=$${SECRET_PROBE_ENV}"` } }] },
        { toolCalls: [{ name: 'bash', arguments: { command: 'cat secret.txt' } }] },
        { text: 'Both commands ran.' },
      );
      await wb.typeMessage('Print the probe variable, then show secret.txt');

      for (const command of ['echo "k=', 'cat secret.txt']) {
        const approval = wb.inWebview('group', 'Approval: bash');
        await poll(
          `the approval card for ${command}…`,
          async () => (await approval.count()) === 1 && (await approval.innerText()).includes(command),
          30_000,
        );
        await wb.clickInWebview('button', 'Approve');
      }
      await poll(
        'the final answer',
        async () => (await wb.articles('Sextant').last().innerText()).includes('Both commands ran'),
        30_000,
      );

      // The chat: the echo printed an empty value, the cat a redacted key.
      const cards = await wb
        .webviewFrame()
        .getByRole('group', { name: /^Tool: bash/ })
        .allInnerTexts();
      const echoCard = cards.find((c) => c.includes('k=')) ?? '';
      const catCard = cards.find((c) => c.includes('provider key:')) ?? '';
      assert.match(echoCard, /k=\s*\n?/, `no echo output on its card: ${cards.join('\n---\n')}`);
      assert.match(catCard, /provider key: \[REDACTED\]/, `the cat card: ${catCard}`);
      const chat = await wb.webviewFrame().locator('body').innerText();
      assert.ok(!chat.includes(E2E_KEY), 'the provider key is shown in the chat');
      assert.ok(!chat.includes(SECRET_PROBE), 'the probe variable reached the command and the chat');

      // The model: the requests after each command carry neither value, and the redaction mark.
      const chats = fake.requests.filter((r) => r.api === 'openai');
      assert.equal(chats.length, 3, `expected 3 model requests, got ${chats.length}`);
      for (const r of chats) {
        const body = JSON.stringify(r.body);
        assert.ok(!body.includes(E2E_KEY), `request ${r.seq} sent the provider key to the model`);
        assert.ok(!body.includes(SECRET_PROBE), `request ${r.seq} sent the probe value to the model`);
      }
      const toolResults = (chats[2].body as { messages?: Array<{ role: string; content: unknown }> }).messages
        ?.filter((m) => m.role === 'tool')
        .map((m) => JSON.stringify(m.content))
        .join('\n');
      assert.match(toolResults ?? '', /k=/);
      assert.match(toolResults ?? '', /provider key: \[REDACTED\]/);

      // Nothing in the output channel either.
      assert.ok(!wb.outputChannelText('Sextant').includes(E2E_KEY), 'the output channel shows the provider key');
    },
    { timeoutMs: 120_000 },
  );
}
