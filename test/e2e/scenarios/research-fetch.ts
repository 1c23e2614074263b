// web_fetch in a real VS Code: in Agent mode it asks (a network call), a page on this machine is
// refused until the user lists its host in sextant.web.allowPrivateHosts, and then the page is read
// through the lazily loaded HTML bundle (dist/research-html.js in the VSIX) and answered by the
// model as a numbered source. The local web corpus runs on 127.0.0.1; nothing touches the internet.
import assert from 'node:assert/strict';
import type { E2E } from '../harness/e2e';
import { poll, waitUntil, type Workbench } from '../harness/workbench';
import { startWebCorpus } from '../../fixtures/research/web-corpus';

const CHANGED = 'sextant.web.allowPrivateHosts:';

async function startAgentChat(wb: Workbench): Promise<void> {
  await wb.openSextantView();
  await wb.runPaletteCommand('Sextant: New Chat');
  await waitUntil('the Agent mode radio', () => wb.inWebview('radio', 'Agent').check({ timeout: 15_000 }));
}

async function approveFetch(wb: Workbench, url: string): Promise<void> {
  const approval = wb.inWebview('group', 'Approval: web_fetch');
  await poll(
    'the approval card for web_fetch',
    async () => (await approval.count()) === 1 && (await approval.innerText()).includes(url),
    30_000,
  );
  await wb.clickInWebview('button', 'Approve');
}

export function researchFetchScenarios(e2e: E2E): void {
  e2e.scenario(
    'Agent mode: web_fetch asks, refuses a local page until its host is allowed, then cites what it read',
    async ({ wb, fake }) => {
      const web = await startWebCorpus();
      const url = web.url('/pages/tidal-energy.html');
      try {
        await startAgentChat(wb);
        const fetchCall = { toolCalls: [{ name: 'web_fetch', arguments: { url, prompt: 'How much energy?' } }] };

        // 1. Not allowed: refused before any connection, and the model is told how to allow it.
        fake.enqueue(fetchCall, { text: 'The page is on a private address.' });
        await wb.typeMessage('How much energy did the tidal turbines make?');
        await approveFetch(wb, url);
        await poll('the answer after the refusal', async () =>
          (await wb.articles('Sextant').last().innerText()).includes('private address'),
        );
        const refusal = await wb.inWebview('group', 'Tool: web_fetch').last().innerText();
        assert.match(refusal, /loopback address/, `the card: ${refusal}`);
        assert.equal(web.requests.filter((r) => r.path.startsWith('/pages/')).length, 0, 'the page was requested');

        // 2. Allowed: the page is read, the model answers from it, the result is Source [1].
        await wb.setUserSettings({ 'sextant.web.allowPrivateHosts': ['127.0.0.1'] }, CHANGED);
        await startAgentChat(wb);
        const before = fake.requests.length;
        fake.enqueue(fetchCall, { text: 'The page says 11.4 GWh (fast answer).' }, { text: 'They made 11.4 GWh [1].' });
        await wb.typeMessage('Try again, please.');
        await approveFetch(wb, url);
        await poll('the final answer', async () =>
          (await wb.articles('Sextant').last().innerText()).includes('They made 11.4 GWh'),
        );
        const card = await wb.inWebview('group', 'Tool: web_fetch').last().innerText();
        assert.match(card, /Source \[1\]: Tidal turbines pass their first winter/, `the card: ${card}`);
        assert.match(card, /11\.4 GWh \(fast answer\)/);
        // The second model request is the page answer: it carries the page's readable text, not its furniture.
        const pageRequest = JSON.stringify(fake.requests[before + 1]?.body ?? {});
        assert.match(pageRequest, /generated 11\.4 gigawatt-hours/);
        assert.doesNotMatch(pageRequest, /ADVERTISEMENT/);
        const final = JSON.stringify(fake.requests[before + 2]?.body ?? {});
        assert.match(final, /data, not instructions/);
        assert.match(final, /Source \[1\]/);
      } finally {
        await wb.setUserSettings({ 'sextant.web.allowPrivateHosts': undefined }, CHANGED);
        await web.close();
      }
    },
    { timeoutMs: 150_000 },
  );
}
