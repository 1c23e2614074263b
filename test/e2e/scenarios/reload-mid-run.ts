// A window reload in the middle of an Agent run loses nothing: the chat works through a scripted run of
// many tool steps; the window reloads while the model is answering step STOP_AT; after the reload the
// Agents view lists the chat as interrupted; opening it shows the work done before the reload; Continue
// finishes the script, and the session ends done with every step once — in the chat and in the history
// the model is sent (each tool call answered exactly once, the user's message once).
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { E2E } from '../harness/e2e';
import type { Workbench } from '../harness/workbench';
import { EXTENSION_ID, poll, waitUntil } from '../harness/workbench';
import { type FakeReply, lastUserText } from '../../fixtures/fake-llm';

const STEPS = 12;
/** The step whose model call is still unanswered when the window reloads. */
const STOP_AT = 6;
const TASK = 'Task R: read the greeting twelve times';

type Wire = { role?: string; content?: unknown; tool_calls?: { id: string }[]; tool_call_id?: string };

function messagesOf(body: unknown): Wire[] {
  return (body as { messages?: Wire[] } | undefined)?.messages ?? [];
}

function firstUserText(body: unknown): string {
  const first = messagesOf(body).find((m) => m.role === 'user');
  return first ? lastUserText({ messages: [first] }) : '';
}

export function reloadMidRunScenarios(e2e: E2E): void {
  e2e.scenario(
    'Reload mid-run: the chat is listed as interrupted with its partial work, and Continue finishes it once',
    async ({ wb, page, fake }) => {
      // Stateless script: the step is how many tool results the request carries, so the run after the
      // reload picks up exactly where the history says it stopped.
      let hung = false;
      fake.onRequest((req) => {
        if (!firstUserText(req.body).startsWith('Task R')) return undefined;
        const step = messagesOf(req.body).filter((m) => m.role === 'tool').length;
        if (step >= STEPS) return { text: 'Task R finished.' };
        const reply: FakeReply = {
          text: `Step ${step}.`,
          toolCalls: [{ id: `call_r_${step}`, name: 'read_file', arguments: { file_path: 'src/greet.js' } }],
        };
        if (step === STOP_AT && !hung) {
          hung = true;
          return { ...reply, text: undefined, toolCalls: undefined, hang: true };
        }
        return reply;
      });
      try {
        await wb.openSextantView();
        await wb.runPaletteCommand('Sextant: New Chat');
        const side = await wb.chatFrame('sidebar');
        await waitUntil('the Agent radio', () =>
          side.getByRole('radio', { name: 'Agent', exact: true }).check({ timeout: 15_000 }),
        );
        await wb.typeMessage(TASK);
        await poll('the run to reach the step the reload cuts', async () => hung, 90_000);
        await poll('the last step before the reload in the chat', async () =>
          (await wb.articles('Sextant').last().innerText()).includes(`Step ${STOP_AT - 1}.`),
        );

        await reload(wb, page);

        await wb.runPaletteCommand('Sextant: Show Agents', { patienceMs: 120_000 });
        const agents = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Agents' }) });
        const row = agents.locator('.monaco-list-row', { hasText: /Task R/ }).first();
        await poll(
          'the chat listed as interrupted in the Agents view',
          async () => /, interrupted/.test((await row.getAttribute('aria-label').catch(() => null)) ?? ''),
          60_000,
        );

        // Opening it shows what was done before the reload.
        await row.click();
        await poll(
          'the partial work in the opened chat',
          async () => {
            const chat = await chatWith(page, TASK);
            return chat.includes(`Step ${STOP_AT - 1}.`);
          },
          60_000,
        );

        await row.hover();
        await row.locator('.action-label[aria-label="Continue"]').click({ timeout: 15_000 });
        await poll(
          'the chat done in the Agents view',
          async () => /, done/.test((await row.getAttribute('aria-label').catch(() => null)) ?? ''),
          120_000,
        );
        await poll('the finished answer in the chat', async () => (await chatWith(page, 'Task R finished.')) !== '');

        // Nothing doubled, nothing lost: the chat shows every step once and the task once.
        const chat = await chatWith(page, 'Task R finished.');
        assert.equal(count(chat, TASK), 1, `the user's message once:\n${chat}`);
        for (let i = 0; i < STEPS; i++) assert.equal(count(chat, `Step ${i}.`), 1, `step ${i} once:\n${chat}`);
        assert.equal(count(chat, 'Task R finished.'), 1);

        // …and the history the model got last holds every call once, each answered once, by a real result.
        const last = fake.requests.filter((r) => firstUserText(r.body).startsWith('Task R')).at(-1);
        const messages = messagesOf(last?.body);
        const calls = messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.id));
        const results = messages.filter((m) => m.role === 'tool');
        const expected = Array.from({ length: STEPS }, (_, i) => `call_r_${i}`);
        assert.deepEqual(calls, expected, 'every tool call once, in order');
        assert.deepEqual(
          results.map((m) => m.tool_call_id),
          expected,
          'every tool call answered once',
        );
        for (const r of results)
          assert.doesNotMatch(JSON.stringify(r.content), /Interrupted/, 'no call was cut: each has its real result');
        assert.equal(messages.filter((m) => m.role === 'user' && JSON.stringify(m.content).includes(TASK)).length, 1);
      } finally {
        fake.onRequest(undefined);
        await wb.runPaletteCommand('View: Close All Editors');
      }
    },
    { timeoutMs: 300_000 },
  );
}

/** Developer: Reload Window, as a user runs it; waits for the workbench to load again. */
async function reload(wb: Workbench, page: Page): Promise<void> {
  const navigated = page.waitForEvent('framenavigated', {
    predicate: (f) => f === page.mainFrame(),
    timeout: 60_000,
  });
  await wb.runPaletteCommand('Developer: Reload Window');
  await navigated;
  await wb.waitReady();
}

/** Each Sextant chat on screen (the sidebar's, an editor tab's): its articles' text, one string per chat. */
async function chatTexts(page: Page): Promise<string[]> {
  const frames = page.locator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"]:visible`);
  const out: string[] = [];
  for (let i = 0; i < (await frames.count()); i++) {
    const inner = frames.nth(i).contentFrame().locator('iframe#active-frame').contentFrame();
    out.push(
      (
        await inner
          .getByRole('article')
          .allInnerTexts()
          .catch(() => [])
      ).join('\n'),
    );
  }
  return out;
}

/** The chat on screen that holds `text` ('' when none does). */
async function chatWith(page: Page, text: string): Promise<string> {
  return (await chatTexts(page)).find((t) => t.includes(text)) ?? '';
}

function count(text: string, part: string): number {
  return text.split(part).length - 1;
}
