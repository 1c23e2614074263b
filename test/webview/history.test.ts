// The history view in real Chromium: list (in the host's order), search, rename, delete + Undo, resume.
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionSummary } from '../../extension/protocol';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';
import { message, snapshot, snapshotMessage } from './fixtures';

const env = useViewEnvironment();
let view: ViewHarness;

// Deliberately not in date order: the host ranks (newest first for the plain list, by relevance
// for a search) and the view must keep its order.
const sessions: SessionSummary[] = [
  { id: 's-mid', title: 'Middle research', updatedAt: 1_650_000_000_000, messageCount: 6, mode: 'research' },
  { id: 's-old', title: 'Old session about parsers', updatedAt: 1_600_000_000_000, messageCount: 4, mode: 'chat' },
  { id: 's-new', title: 'Newest: fix the build', updatedAt: 1_700_000_000_000, messageCount: 10, mode: 'agent' },
];

beforeEach(async () => {
  view = await env.open();
  await deliver(view, snapshotMessage(snapshot({ messages: [message('user', 'current chat')] })));
});
afterEach(async () => {
  assert.deepEqual(await view.violations(), []);
  assert.deepEqual(view.pageErrors, []);
  await view.close();
});

async function openHistory(): Promise<void> {
  await view.page.getByRole('button', { name: 'History' }).click();
  await view.waitForPost('history');
  await deliver(view, { type: 'history', sessions });
}

describe('history view', () => {
  it("the History button asks the host and shows sessions in the host's ranking order", async () => {
    await openHistory();
    const list = view.page.getByRole('list', { name: 'History' });
    await list.getByRole('listitem').nth(2).waitFor();
    const titles = await list
      .getByRole('listitem')
      .getByRole('button', { name: /session|build|research/i })
      .allTextContents();
    assert.deepEqual(
      titles.filter((t) => !/^(Rename|Delete|Open in Editor)/.test(t)),
      ['Middle research', 'Old session about parsers', 'Newest: fix the build'],
    );
    // Focus moved into the search box.
    assert.equal(await view.page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Search history');
  });

  it('showView switches views; Back returns to the chat', async () => {
    await deliver(view, { type: 'showView', view: 'history' });
    await view.page.getByRole('searchbox', { name: 'Search history' }).waitFor();
    await view.page.getByRole('button', { name: 'Back to chat' }).click();
    await view.page.getByRole('textbox', { name: 'Message' }).waitFor();
    assert.equal(await view.page.getByRole('article', { name: 'You' }).count(), 1);
  });

  it('search posts a debounced query and shows excerpts', async () => {
    await openHistory();
    await view.page.getByRole('searchbox', { name: 'Search history' }).pressSequentially('pars');
    await view.waitForPost('history', (m) => m.query === 'pars');
    // Debounced: typing a word does not post once per key (typing ran far faster than the debounce).
    assert.ok((await view.posts()).filter((p) => p.type === 'history' && p.query !== undefined).length < 4);
    await deliver(view, {
      type: 'history',
      query: 'pars',
      sessions: [{ ...sessions[0], excerpt: '…a recursive descent parser…' }],
    });
    await view.page.getByText('…a recursive descent parser…').waitFor();
    assert.equal(await view.page.getByRole('list', { name: 'History' }).getByRole('listitem').count(), 1);
  });

  it('rename posts renameSession and shows the new title', async () => {
    await openHistory();
    await view.page.getByRole('button', { name: 'Rename Middle research' }).click();
    const input = view.page.getByRole('textbox', { name: 'New title' });
    await input.fill('Research on sextants');
    await input.press('Enter');
    assert.deepEqual(await view.waitForPost('renameSession'), {
      type: 'renameSession',
      sessionId: 's-mid',
      title: 'Research on sextants',
    });
    await view.page.getByRole('button', { name: 'Research on sextants', exact: true }).waitFor();
  });

  it('delete posts deleteSession and offers Undo, which posts undoDelete', async () => {
    await openHistory();
    await view.page.getByRole('button', { name: 'Delete Old session about parsers' }).click();
    assert.deepEqual(await view.waitForPost('deleteSession'), { type: 'deleteSession', sessionId: 's-old' });
    assert.equal(await view.page.getByRole('list', { name: 'History' }).getByRole('listitem').count(), 2);
    await view.page.getByRole('button', { name: 'Undo' }).click();
    assert.deepEqual(await view.waitForPost('undoDelete'), { type: 'undoDelete', sessionId: 's-old' });
  });

  it('clicking a session resumes it; the snapshot brings the chat back', async () => {
    await openHistory();
    await view.page.getByRole('button', { name: 'Newest: fix the build', exact: true }).click();
    assert.deepEqual(await view.waitForPost('resume'), { type: 'resume', sessionId: 's-new' });
    await deliver(
      view,
      snapshotMessage(
        snapshot({
          sessionId: 's-new',
          mode: 'agent',
          messages: [message('user', 'fix the build'), message('assistant', 'Fixed.')],
        }),
      ),
    );
    await view.page.getByRole('article', { name: 'Sextant' }).getByText('Fixed.').waitFor();
    await view.page.getByRole('radio', { name: 'Agent', checked: true }).waitFor();
  });

  it('a long history renders only the rows near the view and asks for the next page near the end', async () => {
    const many = (from: number, n: number): SessionSummary[] =>
      Array.from({ length: n }, (_, i) => ({
        id: `s${from + i}`,
        title: `Session ${from + i}`,
        updatedAt: 1_700_000_000_000 - (from + i) * 60_000,
        messageCount: 2,
        mode: 'chat' as const,
      }));
    await view.page.getByRole('button', { name: 'History' }).click();
    await view.waitForPost('history');
    await deliver(view, { type: 'history', sessions: many(0, 500), hasMore: true });
    const list = view.page.getByRole('list', { name: 'History' });
    const first = list.getByRole('listitem').first();
    await first.waitFor();
    assert.equal(await first.getAttribute('aria-posinset'), '1');
    assert.equal(await first.getAttribute('aria-setsize'), '-1', 'more pages follow: the total is not known');
    const rendered = await list.getByRole('listitem').count();
    assert.ok(rendered < 100, `${rendered} of 500 rows in the DOM`);

    const toBottom = () =>
      view.page.evaluate(() => {
        const h = document.querySelector('sx-history');
        if (h) h.scrollTop = h.scrollHeight;
      });
    await toBottom();
    const asked = await view.waitForPost('history', (m) => m.offset === 500);
    assert.equal(asked.query, undefined);
    await deliver(view, { type: 'history', sessions: many(500, 100), offset: 500, hasMore: false });
    await toBottom();
    const last = list.getByRole('button', { name: 'Session 599', exact: true });
    await last.waitFor();
    const lastItem = list.getByRole('listitem').last();
    assert.equal(await lastItem.getAttribute('aria-posinset'), '600');
    assert.equal(await lastItem.getAttribute('aria-setsize'), '600');
    assert.ok((await list.getByRole('listitem').count()) < 100);
    // Back at the top, the first rows are rendered again.
    await view.page.evaluate(() => {
      const h = document.querySelector('sx-history');
      if (h) h.scrollTop = 0;
    });
    await list.getByRole('button', { name: 'Session 0', exact: true }).waitFor();
  });

  it('a session interrupted by its window closing mid-run carries an "Interrupted" badge', async () => {
    await view.page.getByRole('button', { name: 'History' }).click();
    await view.waitForPost('history');
    await deliver(view, {
      type: 'history',
      sessions: [{ ...sessions[2], interrupted: true }, sessions[0]],
    });
    const list = view.page.getByRole('list', { name: 'History' });
    const rows = list.getByRole('listitem');
    await rows.nth(1).waitFor();
    assert.equal(await rows.nth(0).locator('.badge.interrupted').textContent(), 'Interrupted');
    assert.equal(await rows.nth(1).locator('.badge.interrupted').count(), 0);
  });
});
