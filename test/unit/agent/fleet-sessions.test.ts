// Several sessions of one window sharing one FleetBudget (core/usage/fleet-budget.ts) through their real
// controllers and runners: the total cap pauses every running session at its next step with Continue, and a
// request past sextant.agents.maxParallelSessions waits, saying so, until a slot is free.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestEvent } from '../../../extension/protocol';
import type { ProviderEvent } from '../../../extension/core/providers/types';
import { FleetBudget, type FleetLimits } from '../../../extension/core/usage/fleet-budget';
import { ScriptedProvider } from '../../fixtures/scripted-provider';
import { assertEnvelopeInvariants, createHarness, readTool } from './harness';

/** One model call: a peek at a file, reporting 1,000 tokens. */
const peekStep = (n: number): ProviderEvent[] => [
  { type: 'tool_call', call: { id: `c${n}`, name: 'peek', argumentsJson: JSON.stringify({ path: `f${n}` }) } },
  { type: 'usage', usage: { inputTokens: 990, outputTokens: 10, cachedTokens: 0 } },
  { type: 'done', stopReason: 'tool_calls' },
];

function session(fleet: FleetBudget, prefix: string, steps: number) {
  const provider = new ScriptedProvider(Array.from({ length: steps }, (_, i) => peekStep(i + 1)));
  const h = createHarness({ provider, tools: [readTool([], 1)], fleet, idPrefix: prefix, maxSteps: 100 });
  return { h, provider };
}

const eventsOf = (h: ReturnType<typeof createHarness>, type: RequestEvent['type']) =>
  h.envelopes().flatMap((e) => (e.event.type === type ? [e.event] : []));

test('a total cap over all sessions pauses every running session at its next step, once', async () => {
  const limits: FleetLimits = { totalMaxTokens: 7_000 };
  const fleet = new FleetBudget({ limits: () => limits, now: () => Date.now() });
  let pauses = 0;
  fleet.onPause(() => pauses++);
  const a = session(fleet, 'a', 20);
  const b = session(fleet, 'b', 20);
  await Promise.all([a.h.controller.send('ra', 'go', 'agent'), b.h.controller.send('rb', 'go', 'agent')]);
  assert.equal(pauses, 1);
  for (const s of [a, b]) {
    const stops = eventsOf(s.h, 'budget_stop') as Array<Extract<RequestEvent, { type: 'budget_stop' }>>;
    assert.equal(stops.length, 1, 'each session paused');
    assert.equal(stops[0]?.stop.cap, 'total_tokens');
    assert.match(stops[0]?.text ?? '', /spent in all sessions of this window.*sextant\.budget\.totalMaxTokens/);
    assert.ok(s.provider.requests.length < 20, 'stopped well before its script ran out');
    assertEnvelopeInvariants(s.h.envelopes());
  }
  const calls = a.provider.requests.length + b.provider.requests.length;
  assert.equal(fleet.spent().tokens, calls * 1000, 'every call reported, none twice');
  assert.ok(fleet.spent().tokens >= 7_000 && fleet.spent().tokens <= 9_000, `${fleet.spent().tokens}`);
  // Continue goes on past the total for that one run.
  const before = a.provider.requests.length;
  await a.h.controller.send('ra2', 'continue', 'agent', { budget: { continuing: true } });
  assert.ok(a.provider.requests.length > before + 5, 'the continued run was not stopped by the total');
});

test('past maxParallelSessions a request waits, says so, and starts when a slot is free', async () => {
  const limits: FleetLimits = { maxParallelSessions: 1 };
  const fleet = new FleetBudget({ limits: () => limits, now: () => Date.now() });
  const a = session(fleet, 'a', 2);
  let open!: () => void;
  a.provider.holdNextStepUntil(new Promise<void>((r) => (open = r)));
  const b = new ScriptedProvider([
    [
      { type: 'text', text: 'B here.' },
      { type: 'done', stopReason: 'end' },
    ],
  ]);
  const hb = createHarness({ provider: b, fleet, idPrefix: 'b' });
  const runA = a.h.controller.send('ra', 'go', 'agent');
  while (!a.provider.requests.length) await new Promise((r) => setImmediate(r));
  const runB = hb.controller.send('rb', 'hello', 'chat');
  while (!eventsOf(hb, 'notice').length) await new Promise((r) => setImmediate(r));
  const waiting = eventsOf(hb, 'notice')[0] as Extract<RequestEvent, { type: 'notice' }>;
  assert.match(waiting.text, /^Waiting for a free slot \(1 running; sextant\.agents\.maxParallelSessions is 1\)/);
  assert.equal(b.requests.length, 0, 'B has not called the model');
  open();
  await runA;
  await runB;
  assert.equal(b.requests.length, 1);
  assert.equal(fleet.running(), 0);
  // Stop while waiting: the request ends aborted without a model call.
  let openAgain!: () => void;
  const a2 = session(fleet, 'c', 1);
  a2.provider.holdNextStepUntil(new Promise<void>((r) => (openAgain = r)));
  const runA2 = a2.h.controller.send('rc', 'go', 'agent');
  while (!a2.provider.requests.length) await new Promise((r) => setImmediate(r));
  const runB2 = hb.controller.send('rb2', 'again', 'chat');
  while (fleet.waiting() === 0) await new Promise((r) => setImmediate(r));
  await hb.controller.stop('rb2');
  await runB2;
  assert.equal(eventsOf(hb, 'aborted').length, 1);
  assert.equal(b.requests.length, 1, 'no call for the stopped request');
  openAgain();
  await runA2;
  assertEnvelopeInvariants(hb.envelopes());
});
