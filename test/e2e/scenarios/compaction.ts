// Compaction as a user sees it: the model reports a prompt near the context window, so before the next
// request the older turns become a brief; the fact given early is still answered (the fake model
// answers only from the brief it receives); the marker opens to the brief; "Compact Now" adds another.
import assert from 'node:assert/strict';
import type { E2E } from '../harness/e2e';
import { lastUserText, type RecordedRequest } from '../../fixtures/fake-llm';
import { poll } from '../harness/workbench';

const isSummary = (r: RecordedRequest) => JSON.stringify(r.body).includes('You write the working brief');

/** The first user turn of an OpenAI-shaped request body. */
function firstUserText(body: unknown): string {
  const messages = (body as { messages?: Array<{ role?: string; content?: unknown }> }).messages ?? [];
  const m = messages.find((x) => x.role === 'user');
  return typeof m?.content === 'string' ? m.content : JSON.stringify(m?.content ?? '');
}

export function compactionScenarios(e2e: E2E): void {
  e2e.scenario(
    'near the context window older turns are compacted into a brief the user can open; the early fact survives',
    async ({ wb, fake }) => {
      await wb.openSextantView();
      await wb.runPaletteCommand('Sextant: New Chat');
      fake.enqueue(
        { text: 'Noted.', usage: { inputTokens: 400 } },
        // 110,000 reported prompt tokens: past 80 % of the default 128k window.
        { text: 'The CI job runs the tests on every push.', usage: { inputTokens: 110_000 } },
      );
      fake.onRequest((req) => {
        if (isSummary(req)) {
          return { text: '## Goal\n- Set up staging.\n## Facts the user gave\n- none\n## Open todos\n- none' };
        }
        const first = firstUserText(req.body);
        const m = /heron-7[^\n]*?port (\d+)/.exec(first);
        if (/which port/i.test(lastUserText(req.body)))
          return { text: first.startsWith('[Summary of the earlier conversation') && m ? `Port ${m[1]}.` : 'Unknown.' };
        return { text: 'Done.' };
      });
      try {
        await wb.typeMessage('Remember: the staging database heron-7 listens on port 6543.');
        await poll('the first answer', async () =>
          (await wb.articles('Sextant').last().innerText()).includes('Noted.'),
        );
        await wb.typeMessage('What does the CI job do?');
        await poll('the second answer', async () =>
          (await wb.articles('Sextant').last().innerText()).includes('every push'),
        );
        await wb.typeMessage('Which port does the staging database use?');
        const answer = wb.articles('Sextant').last();
        await poll('the answer from the brief ("Port 6543.")', async () =>
          (await answer.innerText()).includes('Port 6543.'),
        );
        assert.equal(fake.requests.filter(isSummary).length, 1, 'one summary call');

        const marker = answer.getByText(/Compacted near the context window: \d+ earlier messages → a brief/);
        await poll('the compaction marker', () => marker.isVisible());
        await marker.click();
        await poll('the brief, opened', async () =>
          (await answer.innerText()).includes("The user's messages (verbatim, oldest first)"),
        );
        // The originals stay in the chat.
        await poll('the first message still shown', async () =>
          (await wb.articles('You').first().innerText()).includes('heron-7'),
        );
        await wb.screenshot('compaction-marker');

        await wb.runPaletteCommand('Sextant: Compact Now');
        await poll('a second marker, made on request', async () =>
          (await wb.articles('Sextant').last().innerText()).includes('Compacted on request'),
        );
        assert.equal(fake.requests.filter(isSummary).length, 2);
      } finally {
        fake.onRequest(undefined);
      }
    },
    { timeoutMs: 120_000 },
  );
}
