// Failover in real Chromium: when the chat's model fails and sextant.fallbackModel answers, the answer
// says so plainly above the text, and its header names the model that actually answered.
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
  await view.close();
});

describe('failover', () => {
  it('shows "X failed (reason); answered by fallback Y" as a notice and credits the answer to Y', async () => {
    await deliver(view, snapshotMessage(snapshot()));
    const r = new RequestScript('r1');
    const text =
      'fake/model-a failed (fake had a server error (500), even after retries.); answered by fallback backup/model-b.';
    await deliver(
      view,
      r.events(
        r.started('hello'),
        { type: 'failover', from: 'fake/model-a', to: 'backup/model-b', reason: 'fake had a server error', text },
        { type: 'text_delta', text: 'Hello from ' },
        { type: 'text_delta', text: 'the fallback.' },
        { type: 'complete' },
      ),
    );
    const answer = view.page.getByRole('article', { name: 'Sextant' });
    const notice = answer.getByRole('note');
    await notice.waitFor();
    assert.equal((await notice.textContent())?.trim(), text);
    assert.equal(await answer.locator('.model-name').textContent(), 'backup/model-b');
    const body = (await answer.locator('.message-body').textContent()) ?? '';
    assert.ok(body.indexOf(text) < body.indexOf('Hello from the fallback.'), 'the notice comes before the answer');
    assert.equal(body.split('Hello from the fallback.').length, 2, 'the answer is shown once');
  });
});
