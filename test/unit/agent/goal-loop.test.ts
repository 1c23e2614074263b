// `/goal` through a whole session: the real controller, runner, tools, permission policy and check command
// (a real `npm test` in a temporary workspace), the model the real OpenAI SDK against the fake LLM server.
// The fake model writes one file per attempt; the package's test passes once three are there.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import * as openai from '../../../extension/core/providers/openai';
import { createPolicy } from '../../../extension/core/permissions';
import { builtinTools, declaredToolFacts } from '../../../extension/core/tools/registry';
import {
  parseGoalArgs,
  type GoalSpec,
  type GoalView,
  type Outbound,
  type RequestEvent,
} from '../../../extension/protocol';
import { startFakeLlm, type FakeReply } from '../../fixtures/fake-llm';
import { createNodePorts, makeTempWorkspace } from '../../fixtures/node-ports';
import type { BudgetLimits } from '../../../extension/core/usage/budget';
import { assertEnvelopeInvariants, createHarness } from './harness';

const fakePromise = startFakeLlm();
after(async () => (await fakePromise).close());

/** Passes when three attempt files exist, and says how many it found either way. */
const CHECK_JS = `const fs = require('fs');
const n = fs.existsSync('attempts') ? fs.readdirSync('attempts').length : 0;
console.log('found ' + n + ' of 3 attempt files');
process.exit(n >= 3 ? 0 : 1);
`;

/** One attempt: the model writes attempts/<n>.txt, then says it is done. */
const attempt = (n: number, usage?: FakeReply['usage']): FakeReply[] => [
  { toolCalls: [{ name: 'write_file', arguments: { file_path: `attempts/${n}.txt`, content: `${n}\n` } }], usage },
  { text: `Attempt ${n} done.`, usage },
];

async function setup(o: { allowCheck?: boolean; budget?: BudgetLimits; goalMaxAttempts?: number } = {}) {
  const fake = await fakePromise;
  fake.reset();
  const root = await makeTempWorkspace({
    'package.json': JSON.stringify({ name: 'goal-demo', version: '1.0.0', scripts: { test: 'node check.js' } }),
    'check.js': CHECK_JS,
  });
  const policy = createPolicy({
    user: { defaultMode: 'acceptEdits', allow: o.allowCheck === false ? [] : ['bash(npm test)'] },
    workspaceFolders: [root],
    home: homedir(),
    tools: declaredToolFacts(),
  });
  const provider = openai.createProvider({ name: 'fake', kind: 'openai', baseUrl: `${fake.baseUrl}/v1` }, 'sk-test');
  const ports = createNodePorts({ root });
  const h = createHarness({
    provider,
    tools: builtinTools(),
    workspace: ports.workspace,
    permissions: { policy: () => policy, rememberRule: async () => undefined },
    ...(o.budget ? { budget: o.budget } : {}),
    ...(o.goalMaxAttempts ? { goalMaxAttempts: o.goalMaxAttempts } : {}),
  });
  return { fake, root, h };
}

const goalOf = (args: string): GoalSpec => {
  const parsed = parseGoalArgs(args);
  assert.equal(parsed.kind, 'set');
  return (parsed as { goal: GoalSpec }).goal;
};

const goalViews = (posts: Outbound[]): GoalView[] =>
  posts.flatMap((p) => (p.type === 'goal' && p.goal ? [p.goal] : []));

const eventsOf = (h: ReturnType<typeof createHarness>, type: RequestEvent['type']) =>
  h.envelopes().filter((e) => e.event.type === type);

test('a goal keeps the session working until `npm test` passes on the third attempt', async () => {
  const { fake, h } = await setup();
  fake.enqueue(...attempt(1), ...attempt(2), ...attempt(3));
  await h.controller.startGoal('g1', goalOf('--check "npm test" make the test suite pass'), 'agent');
  const checks = eventsOf(h, 'goal_check').map((e) => e.event as Extract<RequestEvent, { type: 'goal_check' }>);
  assert.deepEqual(
    checks.map((c) => [c.attempt, c.passed]),
    [
      [1, false],
      [2, false],
      [3, true],
    ],
  );
  assert.match(checks[0]?.text ?? '', /^Goal check 1: failed \(exit 1\) — .*found 1 of 3 attempt files/);
  assert.equal(checks[2]?.text, 'Goal check 3: passed.');
  // Each failed check's output is the next attempt's message, labelled as the goal loop's.
  const starts = eventsOf(h, 'started').map((e) => e.event as Extract<RequestEvent, { type: 'started' }>);
  assert.equal(starts.length, 3);
  assert.equal(starts[0]?.origin, undefined);
  assert.match(starts[0]?.text ?? '', /^Goal: make the test suite pass/);
  assert.equal(starts[1]?.origin, 'goal');
  assert.match(starts[1]?.text ?? '', /^\[Goal loop — attempt 2 of 10\][\s\S]*found 1 of 3 attempt files/);
  assert.match(starts[2]?.text ?? '', /found 2 of 3 attempt files/);
  const sentToModel = JSON.stringify(fake.requests.at(-2)?.body);
  assert.match(sentToModel, /found 2 of 3 attempt files/, 'the model read the check output');
  // The banner: attempt k of N, then passed.
  const views = goalViews(h.posts);
  assert.deepEqual(views.at(-1), {
    condition: 'make the test suite pass',
    command: 'npm test',
    attempt: 3,
    maxAttempts: 10,
    status: 'passed',
    last: 'passed',
  });
  assert.ok(views.some((v) => v.status === 'checking' && v.attempt === 2));
  assert.deepEqual((await h.controller.snapshot()).goal?.status, 'passed');
  // The chat keeps the notices, and the goal's own messages say whose they are.
  const msgs = (await h.controller.snapshot()).messages;
  assert.deepEqual(
    msgs.filter((m) => m.role === 'user').map((m) => m.origin ?? 'user'),
    ['user', 'goal', 'goal'],
  );
  assertEnvelopeInvariants(h.envelopes());
});

test('a goal whose check never passes stops at the session budget, paused with Continue', async () => {
  // Each model call reports 1,010 tokens; the session may spend 2,500: the second attempt's second call passes it.
  const usage = { inputTokens: 1000, outputTokens: 10 };
  const { fake, h } = await setup({ budget: { sessionMaxTokens: 2_500 } });
  fake.enqueue(...attempt(1, usage), ...attempt(2, usage), ...attempt(3, usage));
  await h.controller.startGoal('g1', goalOf('--check "npm test" make the test suite pass'), 'agent');
  const checks = eventsOf(h, 'goal_check');
  assert.equal(checks.length, 1, 'attempt 2 paused at the cap before its check');
  const stops = eventsOf(h, 'budget_stop');
  assert.equal(stops.length, 1);
  assert.equal(goalViews(h.posts).at(-1)?.status, 'paused');
  assert.equal(goalViews(h.posts).at(-1)?.attempt, 2);
  assert.equal(fake.requests.length, 3, 'no model call after the cap');
  // Continue goes on with the goal past the session cap for one run (as Continue does): attempt 3 runs and
  // is checked; attempt 4 is under the cap again and pauses before its first model call.
  await h.controller.send('c1', 'continue', 'agent', { budget: { continuing: true } });
  assert.equal(eventsOf(h, 'goal_check').length, 2);
  assert.equal(eventsOf(h, 'budget_stop').length, 2);
  assert.equal(fake.requests.length, 4);
  assert.deepEqual([goalViews(h.posts).at(-1)?.status, goalViews(h.posts).at(-1)?.attempt], ['paused', 4]);
  assertEnvelopeInvariants(h.envelopes());
});

test('a goal that never passes stops at sextant.goal.maxAttempts', async () => {
  const { fake, h } = await setup({ goalMaxAttempts: 2 });
  fake.enqueue(...attempt(1), ...attempt(2), ...attempt(3));
  await h.controller.startGoal('g1', goalOf('--check "npm test" make the test suite pass'), 'agent');
  const checks = eventsOf(h, 'goal_check').map((e) => e.event as Extract<RequestEvent, { type: 'goal_check' }>);
  assert.equal(checks.length, 2);
  assert.match(checks[1]?.text ?? '', /The goal stops here: 2 attempts \(sextant\.goal\.maxAttempts\)\./);
  const last = goalViews(h.posts).at(-1);
  assert.equal(last?.status, 'failed');
  assert.equal(last?.attempt, 2);
  assert.equal(fake.requests.length, 4, 'two attempts of two calls each, no third');
});

test('a check that would ask asks once, at the start; denied, it never runs and the goal does not start', async () => {
  const { fake, h, root } = await setup({ allowCheck: false });
  fake.enqueue(...attempt(1));
  const run = h.controller.startGoal('g1', goalOf('--check "npm test" make the test suite pass'), 'agent');
  const card = await waitFor(() => eventsOf(h, 'approval_needed')[0]);
  const approval = (card.event as Extract<RequestEvent, { type: 'approval_needed' }>).approval;
  assert.equal(approval.subject, 'npm test');
  h.controller.approve(approval.callId, { decision: 'deny' });
  await run;
  assert.equal(fake.requests.length, 0, 'no turn ran');
  assert.equal(eventsOf(h, 'goal_check').length, 0);
  assert.equal(goalViews(h.posts).at(-1)?.status, 'failed');
  assert.match(goalViews(h.posts).at(-1)?.last ?? '', /npm test.*you denied it/);
  assert.ok(root);
});

test('approved at the start, the check runs after every attempt without asking again', async () => {
  const { fake, h } = await setup({ allowCheck: false });
  fake.enqueue(...attempt(1), ...attempt(2), ...attempt(3));
  const run = h.controller.startGoal('g1', goalOf('--check "npm test" make the test suite pass'), 'agent');
  const card = await waitFor(() => eventsOf(h, 'approval_needed')[0]);
  const approval = (card.event as Extract<RequestEvent, { type: 'approval_needed' }>).approval;
  h.controller.approve(approval.callId, { decision: 'approve' });
  await run;
  assert.equal(eventsOf(h, 'approval_needed').length, 1, 'asked once');
  assert.equal(eventsOf(h, 'goal_check').length, 3);
  assert.equal(goalViews(h.posts).at(-1)?.status, 'passed');
});

test('Stop ends the goal: the running attempt is aborted and no further attempt starts', async () => {
  const { fake, h } = await setup();
  fake.enqueue(...attempt(1), { text: 'slow', delayMs: 60_000 });
  const run = h.controller.startGoal('g1', goalOf('--check "npm test" make the test suite pass'), 'agent');
  await waitFor(() => eventsOf(h, 'goal_check')[0]);
  await fake.waitForRequests(3);
  await h.controller.stopGoal();
  await run;
  assert.equal(goalViews(h.posts).at(-1)?.status, 'stopped');
  assert.equal(eventsOf(h, 'aborted').length, 1);
  assert.equal(eventsOf(h, 'started').length, 2);
});

test('the model judges a written condition, with its reason said on each turn', async () => {
  const { fake, h } = await setup();
  fake.enqueue(
    { text: 'I wrote half of it.' },
    { text: '{"met": false, "reason": "only half of the changelog is written"}' },
    { text: 'Now all of it.' },
    { text: '{"met": true, "reason": "the changelog has every entry"}' },
  );
  await h.controller.startGoal('g1', goalOf('CHANGELOG.md has an entry for every change'), 'agent');
  const checks = eventsOf(h, 'goal_check').map((e) => (e.event as Extract<RequestEvent, { type: 'goal_check' }>).text);
  assert.deepEqual(checks, [
    'Goal check 1: not met — only half of the changelog is written.',
    'Goal check 2: passed — the changelog has every entry.',
  ]);
  const judged = JSON.stringify(fake.requests[1]?.body);
  assert.match(judged, /CHANGELOG.md has an entry for every change/);
  assert.match(judged, /I wrote half of it/, 'the judge read the turn');
  assert.equal(goalViews(h.posts).at(-1)?.status, 'passed');
});

async function waitFor<T>(probe: () => T | undefined): Promise<T> {
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 5));
  }
}
