import { test } from 'node:test';
import assert from 'node:assert/strict';
import { effectiveMode, modeAvailability } from '../../../extension/core/agent/modes';
import { toolsForMode } from '../../../extension/core/tools/registry';

test('Restricted Mode offers Chat only, with a reason on every other mode; no tool is built', () => {
  const modes = modeAvailability({ trusted: false, hasWorkspaceFolder: true });
  assert.deepEqual(
    modes.filter((m) => m.enabled).map((m) => m.mode),
    ['chat'],
  );
  for (const m of modes.filter((m) => !m.enabled))
    assert.ok(m.reason && m.reason.length > 10, `${m.mode} has no reason`);
  assert.match(modes.find((m) => m.mode === 'agent')!.reason!, /trusted/);
  assert.equal(effectiveMode('agent', { trusted: false, hasWorkspaceFolder: true }), 'chat');
  for (const mode of ['chat', 'plan', 'research', 'agent'] as const)
    assert.deepEqual(toolsForMode(mode, { trusted: false }), []);
});

test('a trusted folder offers Agent; without a folder Agent says why it is off', () => {
  assert.ok(modeAvailability({ trusted: true, hasWorkspaceFolder: true }).find((m) => m.mode === 'agent')!.enabled);
  const noFolder = modeAvailability({ trusted: true, hasWorkspaceFolder: false }).find((m) => m.mode === 'agent')!;
  assert.equal(noFolder.enabled, false);
  assert.match(noFolder.reason!, /folder/);
  assert.ok(toolsForMode('agent', { trusted: true }).some((t) => t.name === 'bash'));
  assert.ok(
    !toolsForMode('plan', { trusted: true }).some((t) => t.kind !== 'read'),
    'Plan is built with read-only tools',
  );
});

test('Plan is offered like Agent: a trusted workspace with a folder; otherwise it says why', () => {
  const plan = (ctx: { trusted: boolean; hasWorkspaceFolder: boolean }) =>
    modeAvailability(ctx).find((m) => m.mode === 'plan')!;
  assert.equal(plan({ trusted: true, hasWorkspaceFolder: true }).enabled, true);
  assert.match(plan({ trusted: false, hasWorkspaceFolder: true }).reason!, /Plan mode needs a trusted workspace/);
  assert.match(plan({ trusted: true, hasWorkspaceFolder: false }).reason!, /Plan mode needs an open folder/);
  assert.equal(effectiveMode('plan', { trusted: true, hasWorkspaceFolder: true }), 'plan');
  assert.equal(effectiveMode('plan', { trusted: false, hasWorkspaceFolder: true }), 'chat');
});
