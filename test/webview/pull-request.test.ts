// The end of an Agent run that changed files offers "Create branch and pull request" in real Chromium:
// one click posts the typed protocol message (the host runs the flow for this chat's session); a run that
// changed nothing, or one still running, offers nothing.
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';
import { RequestScript, snapshot, snapshotMessage } from './fixtures';

const env = useViewEnvironment();
let view: ViewHarness;

beforeEach(async () => {
  view = await env.open();
  await deliver(view, snapshotMessage(snapshot({ mode: 'agent' })));
});
afterEach(async () => {
  assert.deepEqual(await view.violations(), []);
  assert.deepEqual(view.pageErrors, []);
  await view.close();
});

const edit = (status: 'running' | 'ok' | 'denied', kind: 'write' | 'read' = 'write') => ({
  type: 'tool_updated' as const,
  call: { callId: 'c1', name: kind === 'write' ? 'edit_file' : 'read_file', kind, subject: 'src/a.ts', status },
});

describe('pull request at the end of a run', () => {
  it('a run that changed files offers it once done; the click posts createPullRequest', async () => {
    const r = new RequestScript('r1');
    await deliver(view, r.events(r.started('add login', 'agent'), edit('ok'), { type: 'text_delta', text: 'Done.' }));
    const answer = view.page.getByRole('article', { name: 'Sextant' });
    await answer.getByText('Done.').waitFor();
    const button = answer.getByRole('button', { name: 'Create branch and pull request' });
    assert.equal(await button.count(), 0, 'not while the run goes on');
    await deliver(view, r.events({ type: 'complete' }));
    await button.click();
    const posts = (await view.posts()).filter((p) => p.type === 'createPullRequest');
    assert.deepEqual(posts, [{ type: 'createPullRequest' }]);
  });

  it('a run that changed nothing (a read, a denied edit) offers nothing', async () => {
    const r = new RequestScript('r2');
    await deliver(
      view,
      r.events(
        r.started('look around', 'agent'),
        edit('ok', 'read'),
        { ...edit('denied'), call: { ...edit('denied').call, callId: 'c2' } },
        { type: 'text_delta', text: 'Nothing changed.' },
        { type: 'complete' },
      ),
    );
    const answer = view.page.getByRole('article', { name: 'Sextant' });
    await answer.getByText('Nothing changed.').waitFor();
    assert.equal(await answer.getByRole('button', { name: 'Create branch and pull request' }).count(), 0);
  });
});
