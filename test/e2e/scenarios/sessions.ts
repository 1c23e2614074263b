// Many agents at once, as a user meets it: a chat in the sidebar and one in an editor tab run their Agent
// requests at the same time (20 tool steps each); the Agents view lists both; the tab's chat asks for an
// approval while it is hidden behind another editor — a notification says so — and the approval is given
// from the Agents view; both finish.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { E2E } from '../harness/e2e';
import type { Workbench } from '../harness/workbench';
import { poll, waitUntil } from '../harness/workbench';
import { type FakeReply, lastUserText } from '../../fixtures/fake-llm';

const STEPS = 20;

/** The first thing the user typed in this request's chat: which of the two chats asks. */
function firstUserText(body: unknown): string {
  const messages = (body as { messages?: { role?: string; content?: unknown }[] } | undefined)?.messages ?? [];
  for (const m of messages) if (m.role === 'user') return lastUserText({ messages: [m] });
  return '';
}

export function sessionsScenarios(e2e: E2E): void {
  e2e.scenario(
    'Many agents at once: a sidebar chat and an editor-tab chat run together; a hidden approval is notified and ' +
      'approved from the Agents view',
    async ({ wb, page, fake, workspace }) => {
      const read = (i: number): FakeReply => ({
        delayMs: 400,
        toolCalls: [{ name: 'read_file', arguments: { file_path: 'src/greet.js' } }],
        text: `Step ${i}.`,
      });
      // Both chats keep reading until the test has seen them run side by side (and hidden the tab); then A
      // finishes and B asks to write a file. Each makes at least STEPS tool steps.
      let release = false;
      let bAsked = false;
      // Requests per chat (old tool results may be trimmed from a long request, so they are not counted there).
      const calls = { A: 0, B: 0 };
      fake.onRequest((req) => {
        const who = firstUserText(req.body);
        if (!/^Task (A|B)/.test(who)) return undefined;
        const step = who.startsWith('Task A') ? calls.A++ : calls.B++;
        if (who.startsWith('Task A')) return release && step >= STEPS ? { text: 'Task A finished.' } : read(step);
        if (bAsked) return { text: 'Task B finished.' };
        if (release && step >= STEPS) {
          bAsked = true;
          return { toolCalls: [{ name: 'write_file', arguments: { file_path: 'notes-b.txt', content: 'from B\n' } }] };
        }
        return read(step);
      });
      try {
        // The editor tab's chat first: it will be hidden when its approval comes.
        await wb.runPaletteCommand('Sextant: New Chat in Editor');
        let tab = await waitForChat(wb, 'editor');
        await waitUntil('the editor chat Agent radio', () =>
          tab.getByRole('radio', { name: 'Agent', exact: true }).check({ timeout: 15_000 }),
        );
        tab = await wb.chatFrame('editor');
        const tabBox = tab.getByRole('textbox', { name: 'Message' });
        await tabBox.click({ timeout: 15_000 });
        await tabBox.pressSequentially('Task B: read the greeting twenty times, then write notes', { delay: 2 });
        await tabBox.press('Enter');

        // The sidebar's chat, at the same time.
        await wb.openSextantView();
        await wb.runPaletteCommand('Sextant: New Chat');
        const side = await wb.chatFrame('sidebar');
        await waitUntil('the sidebar Agent radio', () =>
          side.getByRole('radio', { name: 'Agent', exact: true }).check({ timeout: 15_000 }),
        );
        const sideBox = side.getByRole('textbox', { name: 'Message' });
        await sideBox.click({ timeout: 15_000 });
        await sideBox.pressSequentially('Task A: read the greeting twenty times', { delay: 2 });
        await sideBox.press('Enter');

        // Hide the tab's chat behind a file: its approval now comes where nobody sees it.
        await wb.openFile('src/greet.js');
        const agents = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Agents' }) });
        await wb.runPaletteCommand('Sextant: Show Agents');
        const row = (title: RegExp) => agents.locator('.monaco-list-row', { hasText: title }).first();
        await poll(
          'both chats listed as running in the Agents view',
          async () => {
            const a =
              (await row(/Task A/)
                .getAttribute('aria-label')
                .catch(() => null)) ?? '';
            const b =
              (await row(/Task B/)
                .getAttribute('aria-label')
                .catch(() => null)) ?? '';
            return /, running/.test(a) && /, running/.test(b);
          },
          60_000,
        );
        release = true;

        const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'wants to run write_file' });
        await waitUntil('a notification of the hidden chat’s approval', () =>
          toast.first().waitFor({ state: 'visible', timeout: 60_000 }),
        );
        assert.ok(!existsSync(join(workspace, 'notes-b.txt')), 'nothing written before the approval');

        // Approve from the Agents view: the waiting row names the tool and the file.
        const approval = agents.locator('.monaco-list-row', { hasText: 'write_file: notes-b.txt' }).first();
        await waitUntil('the approval row in the Agents view', () =>
          approval.waitFor({ state: 'visible', timeout: 30_000 }),
        );
        // The tree redraws its rows while the other chat runs (each step, the elapsed time): a click that
        // lands as its row is redrawn does nothing, so Approve is clicked again until the row is gone, as
        // a person clicks again (CI once saw the first click lost and the chat wait for 120 s).
        await poll(
          'the approval taken from the Agents view (its row gone)',
          async () => {
            if (!(await approval.isVisible())) return true;
            await approval.hover({ timeout: 5_000 }).catch(() => undefined);
            await approval
              .locator('.action-label[aria-label="Approve"]')
              .click({ timeout: 5_000 })
              .catch(() => undefined);
            return undefined;
          },
          60_000,
        );

        await poll(
          'both chats done in the Agents view',
          async () => {
            const a =
              (await row(/Task A/)
                .getAttribute('aria-label')
                .catch(() => null)) ?? '';
            const b =
              (await row(/Task B/)
                .getAttribute('aria-label')
                .catch(() => null)) ?? '';
            return /, done/.test(a) && /, done/.test(b);
          },
          120_000,
        );
        assert.equal(wb.readWorkspaceFile('notes-b.txt'), 'from B\n');
        const asked = fake.requests.filter((r) => /^Task (A|B)/.test(firstUserText(r.body)));
        assert.ok(asked.filter((r) => firstUserText(r.body).startsWith('Task A')).length >= STEPS + 1);
        assert.ok(asked.filter((r) => firstUserText(r.body).startsWith('Task B')).length >= STEPS + 2);
        // Both ran at once: the A chat's requests started before B's last one ended.
        const aFirst = asked.find((r) => firstUserText(r.body).startsWith('Task A'))?.receivedAt ?? 0;
        const bLast = asked.filter((r) => firstUserText(r.body).startsWith('Task B')).at(-1)?.receivedAt ?? 0;
        assert.ok(aFirst < bLast, 'the two chats overlapped');
      } finally {
        fake.onRequest(undefined);
        await wb.runPaletteCommand('View: Close All Editors');
      }
    },
    { timeoutMs: 240_000 },
  );
}

async function waitForChat(wb: Workbench, where: 'editor') {
  await poll(`a Sextant chat in the ${where}`, async () => {
    try {
      await (await wb.chatFrame(where)).getByRole('textbox', { name: 'Message' }).waitFor({ timeout: 2_000 });
      return true;
    } catch {
      return false;
    }
  });
  return wb.chatFrame(where);
}
