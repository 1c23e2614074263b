import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ScriptedProvider } from '../../fixtures/scripted-provider';
import type { ProviderEvent } from '../../../extension/core/providers/types';
import { createToolRegistry, toolsForMode } from '../../../extension/core/tools/registry';
import { applyEnvelope, chatStateFromSnapshot, type Mode, type PlanArtifact } from '../../../extension/protocol';
import { systemPromptFor } from '../../../extension/core/agent/prompts';
import { assertEnvelopeInvariants, createHarness } from './harness';

const done: ProviderEvent = { type: 'done', stopReason: 'end' };
const PLAN = {
  goal: 'Add a --verbose flag to the CLI',
  steps: [
    { title: 'Parse the flag in cli.ts', detail: 'Use the existing parseArgs call.' },
    { title: 'Log each step when verbose' },
  ],
  files: [{ path: 'src/cli.ts', change: 'Accept --verbose and pass it on.' }],
  risks: ['Existing scripts that pass unknown flags'],
  verify: ['npm test'],
};
const submit = (args: unknown = PLAN): ProviderEvent => ({
  type: 'tool_call',
  call: { id: 'call_1', name: 'submit_plan', argumentsJson: JSON.stringify(args) },
});
const realTools = (mode: Mode) => {
  const tools = toolsForMode(mode, { trusted: true });
  return tools.length ? createToolRegistry(tools) : undefined;
};

async function proposed(provider: ScriptedProvider) {
  const h = createHarness({ provider, toolsFor: realTools });
  await h.controller.send('r1', 'Plan a --verbose flag', 'plan');
  const ev = h.envelopes('r1').find((e) => e.event.type === 'plan_proposed')?.event;
  assert.ok(ev && ev.type === 'plan_proposed');
  return { h, plan: ev.plan };
}

test('Plan mode: the request carries only read-only tools and submit_plan, and the plan prompt', async () => {
  const provider = new ScriptedProvider([[submit(), done]]);
  await proposed(provider);
  const names = (provider.requests[0].tools ?? []).map((t) => t.name).sort();
  assert.deepEqual(names, [
    'definition',
    'glob',
    'grep',
    'hover',
    'ls',
    'problems',
    'read_file',
    'references',
    'submit_plan',
    'symbols',
  ]);
  for (const forbidden of ['write_file', 'edit_file', 'multi_edit', 'bash', 'notebook_edit', 'todo_write'])
    assert.ok(!names.includes(forbidden), `${forbidden} offered in Plan mode`);
  assert.equal(provider.requests[0].system, 'system for plan');
  const prompt = systemPromptFor('plan', { workspaceRoots: ['/w'], platform: 'linux', date: new Date(0) });
  assert.match(prompt, /\*\*Plan\s+mode\*\*/);
  assert.match(prompt, /submit_plan/);
  assert.doesNotMatch(
    systemPromptFor('chat', { workspaceRoots: [], platform: 'linux', date: new Date(0) }),
    /submit_plan/,
  );
});

test('submit_plan ends the turn with a plan event, journaled and folded into the chat', async () => {
  // A second step is scripted: it must not be requested.
  const provider = new ScriptedProvider([
    [submit(), done],
    [{ type: 'text', text: 'should not run' }, done],
  ]);
  const { h, plan } = await proposed(provider);
  assert.equal(provider.requests.length, 1, 'the loop stopped after the plan');
  assert.equal(plan.kind, 'change');
  assert.equal(plan.status, 'proposed');
  assert.equal(plan.goal, PLAN.goal);
  assert.equal(plan.steps.length, 2);
  const envs = h.envelopes('r1');
  assertEnvelopeInvariants(envs);
  assert.equal(envs.at(-1)!.event.type, 'complete');
  // Journaled with the session's events.
  assert.ok(
    h.persistence.records.some((r) => r.kind === 'events' && r.envelopes.some((e) => e.event.type === 'plan_proposed')),
  );
  // The model got the tool result, in its history.
  const toolMsg = (await h.controller.snapshot()).messages;
  const part = toolMsg[1].parts.find((p) => p.type === 'plan');
  assert.ok(part && part.type === 'plan' && part.plan.id === plan.id);
  const stored = h.persistence.getSession(h.controller.sessionId);
  assert.ok(stored, 'the session is stored');
});

test('an invalid plan is an error the model can fix; no plan event', async () => {
  const provider = new ScriptedProvider([
    [submit({ goal: 'x', steps: [], files: [], risks: [], verify: [] }), done],
    [{ type: 'text', text: 'I will fix it.' }, done],
  ]);
  const h = createHarness({ provider, toolsFor: realTools });
  await h.controller.send('r1', 'plan it', 'plan');
  assert.ok(!h.envelopes('r1').some((e) => e.event.type === 'plan_proposed'));
  assert.equal(provider.requests.length, 2, 'the loop continued after the error');
  const tool = provider.requests[1].messages.find((m) => m.role === 'tool');
  assert.ok(tool && tool.role === 'tool' && tool.isError);
});

test('Approve starts a fresh Agent request whose first model request contains the plan; todos from steps', async () => {
  const provider = new ScriptedProvider([
    [submit(), done],
    [{ type: 'text', text: 'Done.' }, done],
  ]);
  const { h, plan } = await proposed(provider);
  assert.ok(await h.controller.approvePlan(plan.id, 'r2'));
  assert.equal(provider.requests.length, 2);
  const req = provider.requests[1];
  assert.equal(req.system, 'system for agent');
  const names = (req.tools ?? []).map((t) => t.name);
  assert.ok(names.includes('write_file') && names.includes('bash'), 'Agent has the writers');
  const last = req.messages.at(-1)!;
  assert.ok(last.role === 'user' && typeof last.content === 'string');
  assert.match(last.content as string, /^Carry out this approved plan/);
  assert.match(last.content as string, /Add a --verbose flag to the CLI/);
  assert.match(last.content as string, /1\. Parse the flag in cli\.ts/);
  const started = h.envelopes('r2')[0].event;
  assert.ok(started.type === 'started' && started.mode === 'agent');
  const snap = await h.controller.snapshot();
  assert.equal(snap.mode, 'agent');
  assert.deepEqual(
    snap.todos.map((t) => [t.content, t.status]),
    [
      ['Parse the flag in cli.ts', 'pending'],
      ['Log each step when verbose', 'pending'],
    ],
  );
  const card = snap.messages.flatMap((m) => m.parts).find((p) => p.type === 'plan');
  assert.ok(card && card.type === 'plan' && card.plan.status === 'approved');
  assert.ok(h.posts.some((p) => p.type === 'mode' && p.mode === 'agent'));
  // The todos are journaled (the store keeps them) and a second approval does nothing.
  assert.ok(h.persistence.records.some((r) => r.kind === 'todos' && r.todos.length === 2));
  assert.equal(await h.controller.approvePlan(plan.id, 'r3'), false);
  assert.equal(provider.requests.length, 2);
  assertEnvelopeInvariants(h.envelopes().filter((e) => e.requestId.startsWith('r')));
});

test('Approve with an edited plan runs the edited text', async () => {
  const provider = new ScriptedProvider([
    [submit(), done],
    [{ type: 'text', text: 'Done.' }, done],
  ]);
  const { h, plan } = await proposed(provider);
  await h.controller.approvePlan(plan.id, 'r2', '# Plan\n\n## Goal\n\nAdd a --quiet flag instead\n');
  const last = provider.requests[1].messages.at(-1)!;
  assert.ok(last.role === 'user');
  assert.match(last.content as string, /Add a --quiet flag instead/);
  assert.doesNotMatch(last.content as string, /--verbose/);
  // No Steps list in the edited text: the todos keep the proposed steps.
  assert.equal((await h.controller.snapshot()).todos.length, 2);
});

test('Approve with an edited plan takes the todos from its edited steps', async () => {
  const provider = new ScriptedProvider([
    [submit(), done],
    [{ type: 'text', text: 'Done.' }, done],
  ]);
  const { h, plan } = await proposed(provider);
  const edited = '# Plan\n\n## Steps\n\n1. Add --quiet\n2. Document it\n3. Test it\n';
  await h.controller.approvePlan(plan.id, 'r2', edited);
  assert.deepEqual(
    (await h.controller.snapshot()).todos.map((t) => t.content),
    ['Add --quiet', 'Document it', 'Test it'],
  );
});

test('Reject marks the plan rejected and calls no model; a view rebuilt from events agrees', async () => {
  const provider = new ScriptedProvider([[submit(), done]]);
  const { h, plan } = await proposed(provider);
  assert.ok(h.controller.rejectPlan(plan.id));
  assert.equal(provider.requests.length, 1);
  const snap = await h.controller.snapshot();
  const card = snap.messages.flatMap((m) => m.parts).find((p) => p.type === 'plan');
  assert.ok(card && card.type === 'plan' && card.plan.status === 'rejected');
  // The webview folds the same envelopes with the same reducer.
  const view = chatStateFromSnapshot({ ...snap, messages: [] });
  for (const e of h.envelopes()) applyEnvelope(view, e);
  const viewCard = view.messages.flatMap((m) => m.parts).find((p) => p.type === 'plan');
  assert.equal(viewCard?.type === 'plan' && (viewCard.plan as PlanArtifact).status, 'rejected');
  // Rejected plans cannot be approved.
  assert.equal(await h.controller.approvePlan(plan.id, 'r2'), false);
  assert.equal(provider.requests.length, 1);
});
