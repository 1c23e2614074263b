// How the box changes a command's permission: an escape request (bash's outside_box argument)
// always asks — in every sandbox mode, with or without a backend, whatever rule or default mode would
// allow it, and never with "Always allow"; auto mode runs what the policy would merely ask by default;
// without a backend only the user's own rule lets a command run unasked. First the pure function over
// every combination, then the same through the agent loop with the real policy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { createPolicy } from '../../../extension/core/permissions';
import type { Decision, DecisionSource, PermissionSettings } from '../../../extension/core/permissions/types';
import type { ProviderEvent } from '../../../extension/core/providers/types';
import { boxJudgement } from '../../../extension/core/sandbox/command-gate';
import type { SandboxMode, SandboxPort, SandboxStatus } from '../../../extension/core/sandbox/types';
import { declaredToolFacts } from '../../../extension/core/tools/registry';
import { defineTool } from '../../../extension/core/tools/types';
import type { Envelope, PendingApproval } from '../../../extension/protocol';
import { NodeWorkspace } from '../../fixtures/node-ports';
import { ScriptedProvider } from '../../fixtures/scripted-provider';
import { createHarness } from '../agent/harness';

const MODES: SandboxMode[] = ['auto', 'box', 'off'];
const statuses: SandboxStatus[] = MODES.flatMap((mode) => [
  { mode, backend: 'bubblewrap' as const, active: mode !== 'off' },
  { mode, active: false, reason: 'bubblewrap (bwrap) is not installed', fix: 'install it' },
]);
const judgements: Array<Decision & { alwaysRule?: string }> = (
  [
    ['allow', 'rule'],
    ['allow', 'default'],
    ['ask', 'default'],
    ['ask', 'rule'],
    ['ask', 'protected'],
    ['ask', 'parse'],
    ['ask', 'confinement'],
    ['deny', 'rule'],
  ] as Array<[Decision['decision'], DecisionSource]>
).map(([decision, source]) => ({ decision, source, reason: 'policy', alwaysRule: 'bash(npm test*)' }));

test('an escape request asks in every mode and state, without Always allow; only a deny rule beats it', () => {
  for (const status of [undefined, ...statuses])
    for (const judged of judgements) {
      const out = boxJudgement(
        judged,
        { tool: 'bash', input: { command: 'npm test', outside_box: 'needs ~/.m2' } },
        status,
      );
      const where = `${JSON.stringify(status)} × ${judged.decision}/${judged.source}`;
      if (judged.decision === 'deny') assert.equal(out.decision, 'deny', where);
      else {
        assert.equal(out.decision, 'ask', where);
        assert.equal(out.alwaysRule, undefined, where);
        assert.match(out.reason, /outside the sandbox \("needs ~\/\.m2"\); that always asks/, where);
      }
    }
});

test("without an escape: auto runs default asks boxed, box keeps the rules, no backend needs the user's rule", () => {
  for (const status of statuses)
    for (const judged of judgements) {
      const out = boxJudgement(judged, { tool: 'bash', input: { command: 'npm test' } }, status);
      const where = `${status.mode}/${status.active} × ${judged.decision}/${judged.source}`;
      let expected = judged.decision;
      if (status.mode !== 'off' && !status.active && judged.decision === 'allow' && judged.source !== 'rule')
        expected = 'ask';
      if (
        status.active &&
        status.mode === 'auto' &&
        judged.decision === 'ask' &&
        !['rule', 'protected'].includes(judged.source)
      )
        expected = 'allow';
      assert.equal(out.decision, expected, where);
    }
  // Other tools are not commands: the box changes nothing for them.
  const write = judgements[2];
  assert.deepEqual(boxJudgement(write, { tool: 'write_file', input: { outside_box: 'x' } }, statuses[0]), write);
});

const ran: string[] = [];
const bash = defineTool({
  name: 'bash',
  description: 'runs',
  kind: 'execute',
  input: z.object({ command: z.string(), outside_box: z.string().optional() }),
  permission: { subject: 'command', text: (i) => i.command },
  modes: ['agent'],
  subject: (i) => i.command,
  execute: async (i) => {
    ran.push(i.command);
    return { forModel: `ran ${i.command}`, forUi: `ran ${i.command}`, isError: false };
  },
});
const call = (args: unknown): ProviderEvent[] => [
  { type: 'tool_call', call: { id: 'a', name: 'bash', argumentsJson: JSON.stringify(args) } },
  { type: 'done', stopReason: 'tool_calls' },
];
const answer: ProviderEvent[] = [
  { type: 'text', text: 'done' },
  { type: 'done', stopReason: 'end' },
];

function fakeSandbox(status: SandboxStatus): SandboxPort {
  return {
    status: () => status,
    launch: async () => {
      throw new Error('not in this test');
    },
    widen: async () => {},
  };
}

async function until(pred: () => boolean): Promise<void> {
  for (let i = 0; i < 5000 && !pred(); i++) await new Promise((r) => setTimeout(r, 2));
  assert.ok(pred(), 'timed out');
}

test('through the loop, real policy: the escape asks in every mode under the most permissive rules', async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'box-gate-')));
  const user: PermissionSettings = { allow: ['bash'], defaultMode: 'allow' };
  for (const status of statuses) {
    ran.length = 0;
    const policy = createPolicy({ user, workspaceFolders: [root], home: homedir(), tools: declaredToolFacts() });
    const provider = new ScriptedProvider([
      call({ command: 'echo hi' }),
      call({ command: 'echo hi', outside_box: 'it must write ~/.config/tool' }),
      answer,
    ]);
    const h = createHarness({
      provider,
      tools: [bash],
      workspace: new NodeWorkspace({ roots: [root] }),
      permissions: { policy: () => policy, rememberRule: async () => {} },
      sandbox: fakeSandbox(status),
    });
    const sending = h.controller.send('r1', 'go', 'agent');
    const cards = () =>
      h.envelopes('r1').flatMap((e: Envelope) => (e.event.type === 'approval_needed' ? [e.event.approval] : []));
    await until(() => cards().length === 1);
    const card: PendingApproval = cards()[0];
    assert.equal(card.subject, 'echo hi');
    assert.match(card.reason ?? '', /outside the sandbox/, status.mode);
    assert.equal(card.alwaysRule, undefined, 'no Always allow for an escape');
    assert.deepEqual(ran, ['echo hi'], `${status.mode}/${status.active}: the boxed one ran unasked, the escape waits`);
    h.controller.approve(card.callId, { decision: 'deny' });
    await sending;
    assert.deepEqual(ran, ['echo hi']);
  }
});
