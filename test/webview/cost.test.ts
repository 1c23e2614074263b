// Usage, cost and budgets in real Chromium: the session total in the header, each answer's tokens and
// cost, tokens only when a price is unknown, the Continue button after a budget stop, the budget picker.
import { beforeEach, afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';
import { RequestScript, message, snapshot, snapshotMessage } from './fixtures';

const env = useViewEnvironment();
let view: ViewHarness;

beforeEach(async () => {
  view = await env.open();
});
afterEach(async () => {
  await view.close();
});

const usageOf = (input: number, cached: number, output: number, costUsd?: number) => ({
  inputTokens: input,
  cachedTokens: cached,
  outputTokens: output,
  ...(costUsd === undefined ? {} : { costUsd }),
});

describe('cost and budgets', () => {
  it('shows each answer’s tokens and cost, and the session total in the header as answers come in', async () => {
    await deliver(view, snapshotMessage(snapshot()));
    const header = view.page.getByRole('status', { name: 'Session usage' });
    assert.equal(await header.count(), 0, 'nothing before the first answer');
    const r1 = new RequestScript('r1');
    await deliver(
      view,
      r1.events(
        r1.started('one'),
        { type: 'text_delta', text: 'First.' },
        { type: 'usage', usage: { ...usageOf(12_345, 10_000, 450, 0.0123), reasoningTokens: 300 } },
        { type: 'complete' },
      ),
    );
    await header.waitFor();
    assert.equal(await header.textContent(), '$0.012');
    const answer = view.page.getByRole('article', { name: 'Sextant' });
    assert.equal(
      await answer.locator('.usage').textContent(),
      '12.3k in (10k cached) · 450 out (300 reasoning) · $0.012',
    );
    const r2 = new RequestScript('r2');
    await deliver(
      view,
      r2.events(
        r2.started('two'),
        { type: 'usage', usage: usageOf(1000, 0, 100, 0.0011) },
        { type: 'text_delta', text: 'Second.' },
        { type: 'complete' },
      ),
    );
    await view.page.waitForFunction(() => document.querySelector('.session-usage')?.textContent === '$0.013');
    assert.match((await header.getAttribute('title')) ?? '', /This session: 13\.3k in \(10k cached\) · 550 out/);
  });

  it('an unknown price shows tokens only — never a made-up figure, in the answer or the header', async () => {
    await deliver(
      view,
      snapshotMessage(
        snapshot({
          messages: [
            message('user', 'q'),
            message('assistant', 'priced', { usage: usageOf(1000, 0, 100, 0.5) }),
            message('user', 'q2'),
            message('assistant', 'unpriced', { usage: usageOf(2000, 0, 200) }),
          ],
        }),
      ),
    );
    const header = view.page.getByRole('status', { name: 'Session usage' });
    await header.waitFor();
    assert.equal(await header.textContent(), '3.3k tokens');
    const usages = await view.page.locator('.usage').allTextContents();
    assert.deepEqual(usages, ['1k in · 100 out · $0.500', '2k in · 200 out · price unknown']);
  });

  it('a budget stop shows the notice naming the cap and a Continue that resends, session caps lifted', async () => {
    await deliver(view, snapshotMessage(snapshot({ mode: 'agent' })));
    const r = new RequestScript('r1');
    const stop = { cap: 'run_cost', setting: 'sextant.budget.maxCostUsd', limit: 0.3, spent: 0.24 } as const;
    await deliver(
      view,
      r.events(
        r.started('long job', 'agent'),
        { type: 'text_delta', text: 'Working.' },
        { type: 'usage', usage: usageOf(200_000, 0, 20_000, 0.24) },
        { type: 'budget_stop', stop, text: 'Stopped at the budget: $0.2400 (sextant.budget.maxCostUsd).' },
        { type: 'complete' },
      ),
    );
    const answer = view.page.getByRole('article', { name: 'Sextant' });
    await answer.getByText(/Stopped at the budget/).waitFor();
    const cont = answer.getByRole('button', { name: 'Continue' });
    await cont.click();
    await cont.waitFor({ state: 'detached' });
    const posts = await view.posts();
    const sent = posts.filter((p) => p.type === 'send');
    assert.equal(sent.length, 1);
    assert.deepEqual(
      { ...sent[0], requestId: 'x' },
      {
        type: 'send',
        requestId: 'x',
        text: 'continue',
        mode: 'agent',
        budget: { continuing: true },
      },
    );
  });

  it('a reloaded chat still offers Continue after a budget stop (the notice is a stored part)', async () => {
    const stop = { cap: 'session_cost', setting: 'sextant.budget.sessionMaxCostUsd', limit: 1, spent: 1 } as const;
    const text = 'Stopped at the budget: $1.00 (sextant.budget.sessionMaxCostUsd).';
    const answer = message('assistant', 'Working.', { mode: 'agent' });
    answer.parts.push({ type: 'notice', notice: { kind: 'budget', text, budgetStop: stop } });
    await deliver(view, snapshotMessage(snapshot({ mode: 'agent', messages: [message('user', 'go'), answer] })));
    const article = view.page.getByRole('article', { name: 'Sextant' });
    await article.getByRole('note').getByText(text).waitFor();
    await article.getByRole('button', { name: 'Continue' }).click();
    const sent = (await view.posts()).filter((p) => p.type === 'send');
    assert.equal(sent.length, 1);
    assert.ok(sent[0].type === 'send' && sent[0].budget?.continuing === true);
  });

  it('the step limit pauses an Agent run with a notice and a Continue that grants another batch', async () => {
    await deliver(view, snapshotMessage(snapshot({ mode: 'agent' })));
    const r = new RequestScript('r1');
    const text = 'Paused after 100 model calls (sextant.agent.maxSteps). Continue to go on with another 100.';
    await deliver(
      view,
      r.events(
        r.started('refactor', 'agent'),
        { type: 'text_delta', text: 'Halfway.' },
        { type: 'notice', kind: 'step_limit', text },
        { type: 'complete' },
      ),
    );
    const article = view.page.getByRole('article', { name: 'Sextant' });
    await article
      .getByRole('note')
      .getByText(/Paused after 100 model calls/)
      .waitFor();
    const cont = article.getByRole('button', { name: 'Continue' });
    await cont.click();
    await cont.waitFor({ state: 'detached' });
    const sent = (await view.posts()).filter((p) => p.type === 'send');
    assert.deepEqual({ ...sent[0], requestId: 'x' }, { type: 'send', requestId: 'x', text: 'continue', mode: 'agent' });
  });

  it('the budget picker caps the next run only', async () => {
    await deliver(view, snapshotMessage(snapshot()));
    const box = view.page.getByRole('textbox', { name: 'Message' });
    const picker = view.page.getByRole('combobox', { name: 'Budget for this run' });
    await picker.selectOption({ label: '≤ $0.50' });
    await box.fill('a long job');
    await view.page.getByRole('button', { name: 'Send' }).click();
    await box.fill('and another');
    await view.page.getByRole('button', { name: 'Send' }).click();
    await picker.selectOption({ label: 'No cap' });
    await box.fill('unbounded');
    await view.page.getByRole('button', { name: 'Send' }).click();
    await view.waitForPost('send', (m) => m.text === 'unbounded');
    const sent = (await view.posts()).filter((p) => p.type === 'send');
    assert.equal(sent.length, 3);
    assert.deepEqual(
      sent.map((p) => (p as { budget?: unknown }).budget),
      [{ maxCostUsd: 0.5 }, undefined, { maxCostUsd: null }],
    );
  });
});
