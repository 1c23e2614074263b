// `/goal` in real Chromium: the banner (condition, check, attempt k/N, last verdict, Stop goal), the goal
// loop's messages labelled as its own, each check said as a notice in the answer, and the composer's /goal.
import { beforeEach, afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { GoalView, RequestEvent } from '../../extension/protocol';

type Started = Extract<RequestEvent, { type: 'started' }>;
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

const goal = (over: Partial<GoalView> = {}): GoalView => ({
  condition: 'make the test suite pass',
  command: 'npm test',
  attempt: 2,
  maxAttempts: 10,
  status: 'running',
  last: 'failed (exit 1)',
  ...over,
});

describe('goals', () => {
  it('shows the banner with attempt k/N and the check, and its Stop ends the goal', async () => {
    await deliver(view, snapshotMessage(snapshot()));
    await deliver(view, { type: 'goal', goal: goal() });
    const banner = view.page.getByRole('group', { name: 'Goal' });
    await banner.waitFor();
    const text = (await banner.textContent())?.replace(/\s+/g, ' ') ?? '';
    assert.match(text, /attempt 2\/10/);
    assert.match(text, /make the test suite pass/);
    assert.match(text, /Check: npm test exits 0 · last: failed \(exit 1\)/);
    await banner.getByRole('button', { name: 'Stop goal' }).click();
    await view.waitForPost('stopGoal');
    await deliver(view, { type: 'goal', goal: goal({ status: 'passed', attempt: 3, last: 'passed' }) });
    await view.page.waitForFunction(() => document.querySelector('.goal-status')?.textContent === 'passed');
    assert.equal(await banner.getByRole('button', { name: 'Stop goal' }).count(), 0, 'no Stop once it ended');
    await deliver(view, { type: 'goal', goal: null });
    await banner.waitFor({ state: 'detached' });
  });

  it('labels the goal loop’s messages as its own and shows each check as a notice', async () => {
    await deliver(view, snapshotMessage(snapshot()));
    const r1 = new RequestScript('r1');
    await deliver(
      view,
      r1.events(
        {
          ...(r1.started('[Goal loop — attempt 2 of 10] The goal’s check did not pass.', 'agent') as Started),
          origin: 'goal',
        },
        { type: 'text_delta', text: 'Fixed it.' },
        { type: 'goal_check', attempt: 2, maxAttempts: 10, passed: true, text: 'Goal check 2: passed.' },
        { type: 'complete' },
      ),
    );
    const mine = view.page.getByRole('article', { name: 'Goal loop' });
    await mine.waitFor();
    assert.equal(await view.page.getByRole('article', { name: 'You' }).count(), 0);
    const answer = view.page.getByRole('article', { name: 'Sextant' });
    await view.page.waitForFunction(() => document.body.textContent?.includes('Goal check 2: passed.'));
    assert.match((await answer.textContent()) ?? '', /Goal check 2: passed\./);
  });

  it('the composer sends /goal to the host in Agent mode, refuses a bad one, and /goal clear stops', async () => {
    await deliver(view, snapshotMessage(snapshot()));
    const box = view.page.getByRole('textbox', { name: 'Message' });
    await box.fill('/goal --check "npm test" make it pass');
    await box.press('Enter');
    const sent = await view.waitForPost('send');
    assert.equal(sent.text, '/goal --check "npm test" make it pass');
    assert.equal(sent.mode, 'agent');
    await box.fill('/goal clear');
    await box.press('Enter');
    await view.waitForPost('stopGoal');
    await box.fill('/goal --check');
    await box.press('Enter');
    await view.page.waitForFunction(() => document.body.textContent?.includes('The check command is empty'));
    assert.equal(await box.inputValue(), '/goal --check', 'the draft stays to be corrected');
  });
});
