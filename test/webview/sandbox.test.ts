// The sandbox in the real webview: the header's status named "Sandbox" (boxed, auto, off, or no box
// with the reason and the fix), and the edge card's own words — "Run once outside the box", "Allow
// this host" naming the setting it writes, "Keep the result" — posting the ordinary decisions.
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';
import { RequestScript, snapshot, snapshotMessage } from './fixtures';

const env = useViewEnvironment();
let view: ViewHarness;

beforeEach(async () => {
  view = await env.open();
});
afterEach(async () => {
  assert.deepEqual(await view.violations(), []);
  assert.deepEqual(view.pageErrors, []);
  await view.close();
});

describe('sandbox', () => {
  it('the header says where commands run, and why there is no box with the fix', async () => {
    await deliver(
      view,
      snapshotMessage(
        snapshot({
          sandbox: {
            state: 'unavailable',
            summary: 'No sandbox: commands ask unless your own rule allows them',
            detail: 'bubblewrap (bwrap) is not installed. Fix: sudo apt install bubblewrap.',
          },
        }),
      ),
    );
    const status = view.page.getByRole('status', { name: 'Sandbox' });
    await status.getByText('No box').waitFor();
    assert.match((await status.getAttribute('title')) ?? '', /not installed[\s\S]*apt install bubblewrap/);
    await deliver(
      view,
      snapshotMessage(snapshot({ sandbox: { state: 'auto', summary: 'Sandbox (bubblewrap), auto', detail: 'boxed' } })),
    );
    await status.getByText('Boxed · auto').waitFor();
  });

  it('the edge card offers a run outside the box and a narrow widening, in its own words', async () => {
    await deliver(view, snapshotMessage(snapshot({ mode: 'agent' })));
    const r = new RequestScript('r-box');
    await deliver(view, r.events(r.started('install it', 'agent')));
    await deliver(
      view,
      r.events({
        type: 'approval_needed',
        approval: {
          callId: 'e1:box',
          tool: 'bash',
          kind: 'execute',
          subject: 'npm install left-pad',
          detail: '[sandbox] refused evil.example:443: …',
          reason: 'the sandbox refused evil.example:443: evil.example is not in sextant.sandbox.network.allowedHosts',
          alwaysRule: 'evil.example',
          labels: {
            approve: 'Run once outside the box',
            deny: 'Keep the result',
            always: 'Allow this host',
            alwaysWhere: 'sextant.sandbox.network.allowedHosts',
          },
        },
      }),
    );
    const card = view.page.getByRole('group', { name: 'Approval: bash' });
    await card.getByRole('button', { name: 'Run once outside the box' }).waitFor();
    await card.getByRole('button', { name: 'Keep the result' }).waitFor();
    assert.match((await card.textContent()) ?? '', /adds evil\.example to sextant\.sandbox\.network\.allowedHosts/);
    await card.getByRole('button', { name: 'Allow this host' }).click();
    assert.deepEqual(await view.waitForPost('approval'), { type: 'approval', callId: 'e1:box', decision: 'always' });
  });
});
