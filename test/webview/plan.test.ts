// Plan mode's card in real Chromium: goal, numbered steps, files, risks, verification; the three
// buttons post their messages; a decided plan shows its status without buttons.
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PlanArtifact } from '../../extension/protocol';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';
import { RequestScript, snapshot, snapshotMessage } from './fixtures';

const env = useViewEnvironment();
let view: ViewHarness;
let r: RequestScript;

const plan: PlanArtifact = {
  kind: 'change',
  id: 'plan-7',
  status: 'proposed',
  goal: 'Add a --verbose flag to the CLI',
  steps: [{ title: 'Parse the flag', detail: 'Next to --help in src/cli.ts.' }, { title: 'Log each step' }],
  files: [{ path: 'src/cli.ts', change: 'Accept --verbose.' }],
  risks: ['Scripts that pass unknown flags'],
  verify: ['npm test'],
};

beforeEach(async () => {
  view = await env.open();
  await deliver(view, snapshotMessage(snapshot({ mode: 'plan' })));
  r = new RequestScript('r-plan');
  await deliver(view, r.events(r.started('plan a verbose flag', 'plan')));
  await deliver(view, r.events({ type: 'plan_proposed', plan }, { type: 'complete' }));
});
afterEach(async () => {
  assert.deepEqual(await view.violations(), []);
  assert.deepEqual(view.pageErrors, []);
  await view.close();
});

describe('plan card', () => {
  it('renders the goal, numbered steps, files, risks and verification', async () => {
    const card = view.page.getByRole('region', { name: 'Plan' });
    await card.getByText('Add a --verbose flag to the CLI').waitFor();
    const steps = card.locator('ol.plan-steps > li');
    assert.equal(await steps.count(), 2);
    assert.match((await steps.nth(0).textContent()) ?? '', /Parse the flag\s*Next to --help in src\/cli\.ts\./);
    await card.getByText('src/cli.ts', { exact: true }).waitFor();
    await card.getByText('Scripts that pass unknown flags').waitFor();
    await card.getByText('npm test').waitFor();
    await card.getByText('Awaiting review').waitFor();
  });

  it('Approve, Edit and Reject post their messages; a decided plan has no buttons', async () => {
    const card = view.page.getByRole('region', { name: 'Plan' });
    await card.getByRole('button', { name: 'Edit plan' }).click();
    assert.deepEqual(await view.waitForPost('editPlan'), { type: 'editPlan', planId: 'plan-7' });
    await card.getByRole('button', { name: 'Reject plan' }).click();
    assert.deepEqual(await view.waitForPost('rejectPlan'), { type: 'rejectPlan', planId: 'plan-7' });
    await card.getByRole('button', { name: 'Approve plan' }).click();
    const approve = await view.waitForPost('approvePlan');
    assert.equal(approve.planId, 'plan-7');
    assert.match(approve.requestId, /^req-/);
    // The host answers with the status change (on a request of its own).
    await deliver(view, {
      type: 'events',
      envelopes: [
        { requestId: 'plan-s', seq: 1, ts: 2, event: { type: 'plan_status', planId: 'plan-7', status: 'approved' } },
      ],
    });
    await card.getByText('Approved', { exact: true }).waitFor();
    assert.equal(await card.getByRole('button').count(), 0);
  });
});
