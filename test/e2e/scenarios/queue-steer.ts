// Talking to a running agent, in the real editor: while an Agent turn waits in a command, a message
// steered with Ctrl/Cmd+Enter reaches the model's very next request (after the command's result), and a
// message sent with Enter waits in "Queued" and goes by itself once the turn has ended. The command waits
// for a file the test writes, so the turn is held by a state, not by time.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { E2E } from '../harness/e2e';
import { poll, waitUntil } from '../harness/workbench';

const STEER = 'also list the tests folder';
const QUEUED = 'then summarise the README';

/** The user messages of a recorded request body (OpenAI-compatible or Anthropic), as text. */
function userTexts(body: unknown): string[] {
  const messages = (body as { messages?: Array<{ role: string; content: unknown }> })?.messages ?? [];
  return messages.filter((m) => m.role === 'user').map((m) => JSON.stringify(m.content));
}

export function queueSteerScenarios(e2e: E2E): void {
  e2e.scenario(
    'a steered message reaches the running turn at its next step; a queued one is sent after the turn ends',
    async ({ wb, fake, workspace }) => {
      const release = join(workspace, 'steer-release');
      rmSync(release, { force: true });
      try {
        await wb.openSextantView();
        await wb.runPaletteCommand('Sextant: New Chat');
        const agent = wb.inWebview('radio', 'Agent');
        await waitUntil('the Agent mode radio', () => agent.check({ timeout: 15_000 }));
        const before = fake.requests.length;
        fake.enqueue(
          {
            toolCalls: [
              {
                name: 'bash',
                arguments: { command: 'while [ ! -e steer-release ]; do sleep 0.1; done; echo released' },
              },
            ],
          },
          { text: 'Listed the tests folder too.' },
          { text: 'Here is the README summary.' },
        );
        await wb.typeMessage('Run the long check');
        const card = wb.inWebview('group', 'Approval: bash');
        await poll('the approval card for the command', async () => (await card.count()) === 1, 60_000);
        await wb.clickInWebview('button', 'Approve');
        // The command now runs (it waits for the release file): the turn is in flight.
        await poll('the command to run', async () => (await wb.inWebview('group', 'Tool: bash').count()) === 1, 30_000);
        await poll(
          'the Stop button of the running turn',
          async () => (await wb.inWebview('button', 'Stop').count()) > 0,
        );

        // Steer: typed and sent with Ctrl/Cmd+Enter while the command runs.
        await wb.typeMessage(STEER, { send: false });
        await wb.inWebview('textbox', 'Message').press('ControlOrMeta+Enter');
        // Queue: Enter while the turn runs puts the message in "Queued".
        await wb.typeMessage(QUEUED);
        const queuedItem = wb.inWebview('textbox', 'Queued item 1');
        await poll('the queued message in "Queued"', async () => (await queuedItem.inputValue()) === QUEUED);
        assert.equal(fake.requests.length, before + 1, 'nothing was sent to the model while the command ran');

        // Release the command: the turn's next request carries the steer, after the command's result.
        wb.writeWorkspaceFile('steer-release', '');
        await poll(
          'the answer to the steered turn',
          async () => (await wb.articles('Sextant').allInnerTexts()).some((t) => t.includes('Listed the tests folder')),
          60_000,
        );
        const steered = fake.requests[before + 1]?.body;
        const steeredUsers = userTexts(steered);
        assert.ok(
          steeredUsers.some((t) => t.includes(STEER)),
          `the steer reached the next request: ${steeredUsers.slice(-2).join(' | ')}`,
        );
        assert.match(JSON.stringify(steered), /released/, 'the command result came first, in the same request');

        // The queued message goes by itself once the turn ended, as a new request.
        await poll(
          'the queued message to be answered',
          async () => (await wb.articles('Sextant').allInnerTexts()).some((t) => t.includes('README summary')),
          60_000,
        );
        const last = userTexts(fake.requests[before + 2]?.body);
        assert.ok(last.at(-1)?.includes(QUEUED), `the queued message was sent last: ${last.at(-1)}`);
        await poll('"Queued" to empty', async () => (await queuedItem.count()) === 0);
      } finally {
        rmSync(release, { force: true });
      }
    },
    { timeoutMs: 240_000 },
  );
}
