// Several proposed edits of one step on one card in real Chromium: every file with its counts and its
// diff one click away, Approve all / Deny all / per file, and "Approve rest of turn for this file" —
// each answering the same approval message a file's own card would.
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PendingApproval } from '../../extension/protocol';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';
import { RequestScript, snapshot, snapshotMessage } from './fixtures';

const env = useViewEnvironment();
let view: ViewHarness;
let r: RequestScript;

function edit(callId: string, path: string, extra: Partial<PendingApproval> = {}): PendingApproval {
  const diff = `--- a/${path}\n+++ b/${path}\n@@ -1,1 +1,1 @@\n-old ${path}\n+new ${path}`;
  return {
    callId,
    tool: 'edit_file',
    kind: 'write',
    subject: path,
    detail: `Edit ${path}`,
    reason: 'edits ask unless a rule or defaultMode allows them',
    change: { path, isNew: false, added: 1, removed: 1, diff },
    restOfTurn: true,
    ...extra,
  };
}

const pending = (...approvals: PendingApproval[]) =>
  r.events(...approvals.map((approval) => ({ type: 'approval_needed' as const, approval })));

beforeEach(async () => {
  view = await env.open();
  await deliver(view, snapshotMessage(snapshot({ mode: 'agent' })));
  r = new RequestScript('r-batch');
  await deliver(view, r.events(r.started('rename the flag everywhere', 'agent')));
});
afterEach(async () => {
  assert.deepEqual(await view.violations(), []);
  assert.deepEqual(view.pageErrors, []);
  await view.close();
});

describe('batch review of edits', () => {
  it('pending edits share one card; each diff is one click away; a command keeps its own card', async () => {
    await deliver(
      view,
      pending(edit('e1', 'src/a.ts'), edit('e2', 'src/b.ts'), {
        callId: 'b1',
        tool: 'bash',
        kind: 'execute',
        subject: 'npm test',
        detail: 'npm test',
      }),
    );
    const batch = view.page.getByRole('group', { name: 'Review 2 edits' });
    await batch.getByText('2 proposed edits').waitFor();
    assert.equal(await view.page.getByRole('group', { name: 'Approval: edit_file' }).count(), 0);
    await view.page.getByRole('group', { name: 'Approval: bash' }).waitFor();
    const a = batch.getByRole('listitem', { name: 'Edit of src/a.ts' });
    assert.equal(await a.getByLabel('1 lines added').textContent(), '+1');
    // The inline diff: one click on its summary.
    const diff = a.locator('details.batch-diff');
    assert.equal(await diff.evaluate((d) => (d as HTMLDetailsElement).open), false);
    await a.getByText('Diff of src/a.ts').click();
    await a.locator('.approval-diff .diff-add').getByText('+new src/a.ts').waitFor();
    // Or in the editor's diff view.
    await batch.getByRole('button', { name: 'Open diff of src/b.ts' }).click();
    assert.deepEqual(await view.waitForPost('openDiff'), { type: 'openDiff', callId: 'e2' });
  });

  it('per file: Approve one, Deny the other; each posts its own approval', async () => {
    await deliver(view, pending(edit('e1', 'src/a.ts'), edit('e2', 'src/b.ts'), edit('e3', 'src/c.ts')));
    const batch = view.page.getByRole('group', { name: 'Review 3 edits' });
    await batch.getByRole('button', { name: 'Approve src/b.ts' }).click();
    assert.deepEqual(await view.waitForPost('approval'), { type: 'approval', callId: 'e2', decision: 'approve' });
    await batch.getByRole('button', { name: 'Deny src/c.ts' }).click();
    assert.deepEqual(await view.waitForPost('approval', (m) => m.callId === 'e3'), {
      type: 'approval',
      callId: 'e3',
      decision: 'deny',
    });
    // Approve all then answers only what is still open.
    await batch.getByRole('button', { name: 'Approve all' }).click();
    await view.waitForPost('approval', (m) => m.callId === 'e1');
    const posts = (await view.posts()).filter((p) => p.type === 'approval');
    assert.deepEqual(
      posts.map((p) => (p.type === 'approval' ? `${p.callId}:${p.decision}` : '')),
      ['e2:approve', 'e3:deny', 'e1:approve'],
    );
  });

  it('Deny all answers every edit; Approve rest of turn posts restOfTurn for that file only', async () => {
    await deliver(view, pending(edit('e1', 'src/a.ts'), edit('e2', 'src/b.ts', { restOfTurn: undefined })));
    const batch = view.page.getByRole('group', { name: 'Review 2 edits' });
    assert.equal(await batch.getByRole('button', { name: 'Approve rest of turn for src/b.ts' }).count(), 0);
    await batch.getByRole('button', { name: 'Approve rest of turn for src/a.ts' }).click();
    assert.deepEqual(await view.waitForPost('approval'), {
      type: 'approval',
      callId: 'e1',
      decision: 'approve',
      restOfTurn: true,
    });
    await batch.getByRole('button', { name: 'Deny all' }).click();
    await view.waitForPost('approval', (m) => m.callId === 'e2' && m.decision === 'deny');
    assert.equal((await view.posts()).filter((p) => p.type === 'approval').length, 2);
  });

  it('a single edit card offers Approve rest of turn for this file', async () => {
    await deliver(view, pending(edit('e1', 'src/a.ts')));
    const card = view.page.getByRole('group', { name: 'Approval: edit_file' });
    await card.getByRole('button', { name: 'Approve rest of turn for src/a.ts' }).click();
    assert.deepEqual(await view.waitForPost('approval'), {
      type: 'approval',
      callId: 'e1',
      decision: 'approve',
      restOfTurn: true,
    });
  });
});
