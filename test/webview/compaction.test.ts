// The compaction marker in real Chromium: a closed disclosure in the answer of the request that
// compacted (or a message of its own after "Compact now") that opens to the brief as the model got it;
// the earlier messages stay on screen.
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Compaction } from '../../extension/protocol';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';
import { conversation, RequestScript, snapshot, snapshotMessage } from './fixtures';

const env = useViewEnvironment();
let view: ViewHarness;

const compaction = (over: Partial<Compaction> = {}): Compaction => ({
  id: 'compaction-1',
  replaces: 8,
  brief: [
    '## Goal',
    '- Set up staging.',
    '## Facts the user gave',
    '- The staging database heron-7 listens on port 6543.',
    '',
    '## Todo list (verbatim)',
    '',
    '- [ ] Tag the release',
  ].join('\n'),
  trigger: 'auto',
  tokensBefore: 166_000,
  tokensAfter: 41_000,
  contextWindow: 204_800,
  at: 1_700_000_000_000,
  ...over,
});

beforeEach(async () => {
  view = await env.open();
  await deliver(view, snapshotMessage(snapshot({ messages: conversation(4) })));
});
afterEach(async () => {
  assert.deepEqual(await view.violations(), []);
  assert.deepEqual(view.pageErrors, []);
  await view.close();
});

describe('compaction marker', () => {
  it('shows in the compacting answer, closed, and opens to the structured brief', async () => {
    const r = new RequestScript('r9');
    await deliver(
      view,
      r.events(r.started('Which port?'), { type: 'compacted', compaction: compaction(), messageId: 'm-c1' }),
    );
    await deliver(view, r.events({ type: 'text_delta', text: 'Port 6543.' }, { type: 'complete' }));
    const answer = view.page.getByRole('article', { name: 'Sextant' }).last();
    const summary = answer.getByText(
      'Compacted near the context window: 8 earlier messages → a brief (~166k → ~41k tokens)',
    );
    await summary.waitFor();
    const brief = answer.getByRole('heading', { name: 'Facts the user gave' });
    assert.equal(await brief.isVisible(), false, 'closed until the user opens it');
    await summary.click();
    await brief.waitFor();
    await answer.getByText('The staging database heron-7 listens on port 6543.').waitFor();
    await answer.getByText('Tag the release').waitFor();
    await answer.getByText('Port 6543.', { exact: true }).waitFor();
    // The compacted messages are still in the chat.
    assert.equal(await view.page.getByRole('article').count(), 4 + 2);
  });

  it('"Compact now" between requests adds a message holding only the marker', async () => {
    const r = new RequestScript('compact-1');
    await deliver(
      view,
      r.events({ type: 'compacted', compaction: compaction({ trigger: 'manual', replaces: 2 }), messageId: 'm-c2' }),
    );
    const marker = view.page.getByText('Compacted on request: 2 earlier messages → a brief');
    await marker.waitFor();
    assert.equal(await view.page.getByRole('article').count(), 4 + 1);
  });

  it("the composer's Compact now button and /compact ask the host to compact", async () => {
    await view.page.getByRole('button', { name: 'Compact now' }).click();
    assert.deepEqual(await view.waitForPost('compactNow'), { type: 'compactNow' });
    const box = view.page.getByRole('textbox', { name: 'Message' });
    await box.fill('/compact');
    await box.press('Enter');
    const count = async (type: string) => (await view.posts()).filter((p) => p.type === type).length;
    await view.page.waitForFunction(
      () =>
        (window as unknown as { __posts: Array<{ type: string }> }).__posts.filter((p) => p.type === 'compactNow')
          .length === 2,
    );
    assert.equal(await count('send'), 0, '/compact is not sent to the model');
    assert.equal(await box.inputValue(), '');
  });
});
