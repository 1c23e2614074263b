// sextant.plannerModel: Plan mode runs on the planner model and the approved plan is carried out on
// the chat's model; each answer names the model that wrote it. The picker's reasoning level goes with
// the model it was chosen for. Two real SDK providers against the fake LLM server, told apart by model.
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { createProvider as createAnthropic } from '../../../extension/core/providers/anthropic';
import { createProvider as createOpenAi } from '../../../extension/core/providers/openai';
import { createToolRegistry, toolsForMode } from '../../../extension/core/tools/registry';
import type { Mode, ReasoningChoice } from '../../../extension/protocol';
import type { ReasoningChoices } from '../../../extension/core/agent/controller';
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm';
import { createNodePorts, makeTempWorkspace } from '../../fixtures/node-ports';
import { ScriptedProvider } from '../../fixtures/scripted-provider';
import { assertEnvelopeInvariants, createHarness } from './harness';

let fake: FakeLlm;
before(async () => {
  fake = await startFakeLlm();
});
after(() => fake.close());
beforeEach(() => fake.reset());

const PLAN = {
  goal: 'Add a --verbose flag',
  steps: [{ title: 'Parse the flag' }, { title: 'Log when verbose' }],
  files: [{ path: 'src/cli.ts', change: 'Accept --verbose.' }],
  risks: [],
  verify: ['npm test'],
};

const realTools = (mode: Mode) => {
  const tools = toolsForMode(mode, { trusted: true });
  return tools.length ? createToolRegistry(tools) : undefined;
};

function memoryReasoning(initial: Record<string, ReasoningChoice> = {}): ReasoningChoices {
  const map = { ...initial };
  return {
    all: () => ({ ...map }),
    get: (ref) => map[ref],
    set: (ref, choice) => {
      map[ref] = choice;
    },
  };
}

async function setup(plannerModel: string | undefined, reasoning = memoryReasoning()) {
  const root = await makeTempWorkspace({ 'src/cli.ts': 'export const x = 1;\n' });
  // The executor: the chat's model (OpenAI-compatible). The planner: an Anthropic model.
  const executor = createOpenAi({ name: 'cheap', kind: 'openai', baseUrl: `${fake.baseUrl}/v1` }, 'sk-cheap');
  const planner = createAnthropic({ name: 'big', kind: 'anthropic', baseUrl: fake.baseUrl }, 'sk-big');
  const h = createHarness({
    // Never called: every reference below resolves to one of the two real providers.
    provider: new ScriptedProvider([]),
    models: {
      'cheap/exec-model': { provider: executor, price: { input: 1, output: 2 } },
      'big/plan-model': { provider: planner, price: { input: 10, output: 50 } },
    },
    ...(plannerModel ? { plannerModel } : {}),
    reasoning,
    toolsFor: realTools,
    workspace: createNodePorts({ root }).workspace,
  });
  h.controller.setModel('cheap/exec-model');
  return h;
}

test('the plan request goes to the planner model, the approved execution to the chat model', async () => {
  const reasoning = memoryReasoning({ 'big/plan-model': 'medium', 'cheap/exec-model': 'off' });
  const h = await setup('big/plan-model', reasoning);
  fake.enqueue({ thinking: 'Plan carefully.', toolCalls: [{ name: 'submit_plan', arguments: PLAN }] });
  await h.controller.send('r1', 'Plan a --verbose flag', 'plan');
  assert.equal(fake.requests.length, 1);
  const planReq = fake.requests[0];
  assert.equal(planReq?.api, 'anthropic');
  const planBody = planReq?.body as { model: string; thinking?: unknown };
  assert.equal(planBody.model, 'plan-model');
  // The planner model's own reasoning level.
  assert.deepEqual(planBody.thinking, { type: 'enabled', budget_tokens: 8192 });
  const started = h.envelopes('r1')[0]?.event;
  assert.ok(started?.type === 'started' && started.model === 'big/plan-model');
  const snap = await h.controller.snapshot();
  assert.equal(snap.messages[1]?.model, 'big/plan-model', 'the plan answer names the planner model');
  assert.equal(snap.model, 'cheap/exec-model', 'the chat keeps its model');
  const plan = h.envelopes('r1').find((e) => e.event.type === 'plan_proposed')?.event;
  assert.ok(plan?.type === 'plan_proposed');
  // The plan's usage is priced at the planner model's price.
  const usage = snap.messages[1]?.usage;
  assert.ok(usage && usage.costUsd !== undefined);
  assert.ok(Math.abs(usage.costUsd - (usage.inputTokens * 10 + usage.outputTokens * 50) / 1e6) < 1e-12);

  fake.enqueue({ text: 'Carried out.' });
  await h.controller.approvePlan(plan.plan.id, 'r2');
  assert.equal(fake.requests.length, 2);
  const execReq = fake.requests[1];
  assert.equal(execReq?.api, 'openai');
  const execBody = execReq?.body as { model: string; reasoning_effort?: string; messages: unknown[] };
  assert.equal(execBody.model, 'exec-model');
  assert.equal(execBody.reasoning_effort, undefined, 'off: nothing sent to the executor');
  assert.match(JSON.stringify(execBody.messages), /Add a --verbose flag/);
  const execStarted = h.envelopes('r2')[0]?.event;
  assert.ok(execStarted?.type === 'started' && execStarted.model === 'cheap/exec-model');
  assertEnvelopeInvariants([...h.envelopes('r1'), ...h.envelopes('r2')]);
});

test('without a planner model Plan mode uses the chat model; the reasoning level follows the model', async () => {
  const reasoning = memoryReasoning();
  const h = await setup(undefined, reasoning);
  h.controller.setReasoning('cheap/exec-model', 'low');
  fake.enqueue({ toolCalls: [{ name: 'submit_plan', arguments: PLAN }] });
  await h.controller.send('r1', 'Plan a --verbose flag', 'plan');
  const body = fake.requests[0]?.body as { model: string; reasoning_effort?: string };
  assert.equal(fake.requests[0]?.api, 'openai');
  assert.equal(body.model, 'exec-model');
  assert.equal(body.reasoning_effort, 'low');
  assert.deepEqual((await h.controller.snapshot()).reasoning, { 'cheap/exec-model': 'low' });
  // Agent and Chat turns never go to the planner, even when one is set.
  const withPlanner = await setup('big/plan-model');
  fake.enqueue({ text: 'hi' });
  await withPlanner.controller.send('r9', 'hello', 'chat');
  assert.equal(fake.requests.at(-1)?.api, 'openai');
});
