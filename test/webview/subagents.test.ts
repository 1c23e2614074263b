// Sub-agent cards in real Chromium: each `task` call shows a collapsible group "Sub-agent: <name>" with its
// live steps, tokens and cost; Stop on one card posts stopSubagent for that call; an approval inside a
// sub-agent names it.
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SubagentView } from '../../extension/protocol';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';
import { RequestScript, snapshot, snapshotMessage } from './fixtures';

const env = useViewEnvironment();
let view: ViewHarness;
let r: RequestScript;

beforeEach(async () => {
  view = await env.open();
  await deliver(view, snapshotMessage(snapshot({ mode: 'agent' })));
  r = new RequestScript('r-sub');
  await deliver(view, r.events(r.started('find things', 'agent')));
});
afterEach(async () => {
  assert.deepEqual(await view.violations(), []);
  assert.deepEqual(view.pageErrors, []);
  await view.close();
});

const sub = (prompt: string, over: Partial<SubagentView> = {}): SubagentView => ({
  name: 'explore',
  description: prompt,
  prompt,
  status: 'running',
  steps: [],
  modelCalls: 0,
  ...over,
});

describe('sub-agent cards', () => {
  it('two cards stream their own steps; Stop on one posts stopSubagent for its call', async () => {
    const task = (callId: string, subject: string) => ({
      type: 'tool_started' as const,
      call: { callId, name: 'task', kind: 'read' as const, subject, status: 'running' as const },
    });
    await deliver(view, r.events(task('t1', 'explore: alpha'), task('t2', 'explore: beta')));
    await deliver(
      view,
      r.events(
        { type: 'subagent_updated', callId: 't1', subagent: sub('find alpha') },
        { type: 'subagent_updated', callId: 't2', subagent: sub('find beta') },
      ),
    );
    const cards = view.page.getByRole('group', { name: 'Sub-agent: explore' });
    await cards.nth(1).waitFor();
    assert.equal(await cards.count(), 2);
    await deliver(
      view,
      r.events({
        type: 'subagent_updated',
        callId: 't1',
        subagent: sub('find alpha', {
          steps: [
            { kind: 'tool', callId: 'g1', name: 'grep', subject: 'alpha', status: 'ok' },
            { kind: 'text', text: 'alpha is in src/alpha.ts:1' },
          ],
          modelCalls: 2,
          usage: { inputTokens: 1200, outputTokens: 80, cachedTokens: 0, costUsd: 0.0042 },
        }),
      }),
    );
    const first = cards.filter({ hasText: 'find alpha' });
    await first.getByText('alpha is in src/alpha.ts:1').waitFor();
    await first.getByText(/2 steps · 1\.28k tokens · \$0\.0042/).waitFor();
    await cards.filter({ hasText: 'find beta' }).getByRole('button', { name: 'Stop sub-agent explore' }).click();
    assert.deepEqual(await view.waitForPost('stopSubagent'), { type: 'stopSubagent', callId: 't2' });
    await deliver(
      view,
      r.events({ type: 'subagent_updated', callId: 't2', subagent: sub('find beta', { status: 'stopped' }) }),
    );
    await cards.filter({ hasText: 'find beta' }).getByText('Stopped', { exact: true }).waitFor();
    assert.equal(await cards.filter({ hasText: 'find beta' }).getByRole('button').count(), 0, 'no Stop once over');
  });

  it('an approval raised inside a sub-agent says which sub-agent asks', async () => {
    await deliver(
      view,
      r.events({
        type: 'approval_needed',
        approval: {
          callId: 'a1',
          tool: 'write_file',
          kind: 'write',
          subject: 'notes.md',
          detail: 'x',
          subagent: 'scribe',
        },
      }),
    );
    const card = view.page.getByRole('group', { name: 'Approval: write_file' });
    await card.getByText('Sub-agent scribe:').waitFor();
  });
});
