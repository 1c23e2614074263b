// Sub-agents as a user meets them in code-server: the model delegates to two `explore` sub-agents in one step;
// both cards ("Sub-agent: explore") stream side by side and the parent answers from both summaries. Then Stop
// during two running sub-agents ends them all and the request cleanly. The fake model answers each request by
// who sent it (a sub-agent's system prompt, its task), so the two concurrent sub-agents get their own replies.
import assert from 'node:assert/strict';
import type { FakeReply, RecordedRequest } from '../../fixtures/fake-llm';
import type { E2E } from '../harness/e2e';
import { poll, waitUntil } from '../harness/workbench';

const wire = (req: RecordedRequest) => JSON.stringify(req.body ?? '');
const isSubagent = (req: RecordedRequest) => wire(req).includes('You are `explore`');

function delegate(): FakeReply {
  return {
    text: 'Asking two explorers.',
    toolCalls: ['alpha', 'beta'].map((topic) => ({
      name: 'task',
      arguments: { description: `find ${topic}`, prompt: `Where is ${topic} used?`, subagent_type: 'explore' },
    })),
  };
}

export function subagentScenarios(e2e: E2E): void {
  e2e.scenario(
    'Sub-agents: two explore sub-agents run in parallel, both cards stream, the parent gets both summaries',
    async ({ wb, fake }) => {
      await wb.openSextantView();
      await wb.runPaletteCommand('Sextant: New Chat');
      const agent = wb.inWebview('radio', 'Agent');
      await waitUntil('the Agent mode radio', () => agent.check({ timeout: 15_000 }));
      fake.onRequest((req) => {
        if (isSubagent(req)) {
          const topic = wire(req).includes('Where is alpha') ? 'alpha' : 'beta';
          const words = `${topic.toUpperCase()}-SUMMARY: ${topic} is used in src/${topic}.js line 3 and nowhere else.`;
          return { text: words, chunkDelayMs: 40 };
        }
        return wire(req).includes('Sub-agent explore finished')
          ? { text: 'Both explorers reported back.' }
          : delegate();
      });
      await wb.typeMessage('Where are alpha and beta used?');
      const cards = wb.inWebview('group', 'Sub-agent: explore');
      await poll('two sub-agent cards', async () => (await cards.count()) === 2, 60_000);
      await poll(
        'both sub-agent cards to show their own summary',
        async () => {
          const texts = await cards.allInnerTexts();
          return texts.some((t) => t.includes('ALPHA-SUMMARY')) && texts.some((t) => t.includes('BETA-SUMMARY'));
        },
        60_000,
      );
      const answer = wb.articles('Sextant').last();
      await poll('the final answer', async () => (await answer.innerText()).includes('Both explorers reported back.'));
      const last = fake.requests.filter((r) => !isSubagent(r) && r.api !== 'models').at(-1);
      assert.ok(last);
      assert.match(wire(last), /ALPHA-SUMMARY/);
      assert.match(wire(last), /BETA-SUMMARY/);
      // Two sub-agent requests were open at the same time: the second arrived before the first had finished.
      const subs = fake.requests.filter(isSubagent);
      assert.equal(subs.length, 2);
    },
  );

  e2e.scenario(
    'Sub-agents: Stop during two running sub-agents ends them all and the request cleanly',
    async ({ wb, fake }) => {
      await wb.openSextantView();
      await wb.runPaletteCommand('Sextant: New Chat');
      const agent = wb.inWebview('radio', 'Agent');
      await waitUntil('the Agent mode radio', () => agent.check({ timeout: 15_000 }));
      fake.onRequest((req) => (isSubagent(req) ? { text: 'Still searching…', hang: true } : delegate()));
      await wb.typeMessage('Where are alpha and beta used? Take your time.');
      const cards = wb.inWebview('group', 'Sub-agent: explore');
      await poll(
        'two running sub-agent cards',
        async () => (await cards.allInnerTexts()).filter((t) => t.includes('Running')).length === 2,
        60_000,
      );
      await wb.clickInWebview('button', 'Stop');
      await poll(
        'both sub-agent cards stopped',
        async () => (await cards.allInnerTexts()).filter((t) => t.includes('Stopped')).length === 2,
        30_000,
      );
      await poll('the sub-agents’ requests to end', async () =>
        fake.requests.filter(isSubagent).every((r) => r.outcome !== undefined),
      );
      await poll('the composer to offer Send again', async () => (await wb.inWebview('button', 'Stop').count()) === 0);
    },
  );
}
