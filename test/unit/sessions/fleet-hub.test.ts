// The hub's sessions share the window's one FleetBudget (chat-slots.ts gives every slot the same one): their
// sum trips the total cap and pauses all of them with Continue; past sextant.agents.maxParallelSessions a
// third session's request is queued — listed as "queued" in the Agents view — until a slot frees. Real
// controllers (the agent harness) on scripted models.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatController } from '../../../extension/core/agent/controller';
import { SessionHub } from '../../../extension/core/sessions/session-hub';
import { agentEntries, agentsSummary } from '../../../extension/core/sessions/agents-list';
import type { RequestEvent } from '../../../extension/protocol';
import type { ProviderEvent } from '../../../extension/core/providers/types';
import { FleetBudget, type FleetLimits } from '../../../extension/core/usage/fleet-budget';
import { ScriptedProvider } from '../../fixtures/scripted-provider';
import { createHarness, readTool } from '../agent/harness';

const usage: ProviderEvent = { type: 'usage', usage: { inputTokens: 100, outputTokens: 10, cachedTokens: 0 } };

/** `steps` read calls of 110 tokens each, then an answer. */
function stepsProvider(steps: number): ScriptedProvider {
  const script: ProviderEvent[][] = [];
  for (let i = 0; i < steps; i++)
    script.push([
      { type: 'tool_call', call: { id: `c${i}`, name: 'peek', argumentsJson: `{"path":"f${i}"}` } },
      usage,
      { type: 'done', stopReason: 'tool_calls' },
    ]);
  script.push([{ type: 'text', text: 'finished' }, usage, { type: 'done', stopReason: 'end' }]);
  return new ScriptedProvider(script);
}

async function waitFor(pred: () => boolean, what: string): Promise<void> {
  // A generous bound on polls, not a timing check: the states are what is awaited.
  for (let i = 0; i < 20_000 && !pred(); i++) await new Promise((r) => setTimeout(r, 1));
  assert.ok(pred(), `timed out waiting for: ${what}`);
}

/** A hub whose slots share one fleet, as the window's do; each slot's request events are kept. */
function fleetHub(limits: FleetLimits, providers: ScriptedProvider[]) {
  const fleet = new FleetBudget({ limits: () => limits, now: () => Date.now() });
  const events = new Map<string, RequestEvent[]>();
  let n = 0;
  const hub = new SessionHub<ChatController>({
    newId: () => `slot${++n}`,
    now: () => Date.now(),
    create: (post, slot) => {
      const provider = providers.shift() ?? stepsProvider(0);
      const got: RequestEvent[] = [];
      events.set(slot.id, got);
      const h = createHarness({
        provider,
        tools: [readTool([], 1)],
        idPrefix: `${slot.id}-`,
        fleet,
        maxSteps: 100,
        onPost: (m) => {
          if (m.type === 'events') for (const e of m.envelopes) got.push(e.event);
          post(m);
        },
      });
      return { controller: h.controller, handle: async () => {}, dispose: () => h.controller.dispose() };
    },
  });
  return { hub, fleet, events };
}

test('two sessions of the hub share one total cap: their sum pauses both with Continue', async () => {
  const providers = [stepsProvider(20), stepsProvider(20)];
  const [pa, pb] = providers;
  const { hub, fleet, events } = fleetHub({ totalMaxTokens: 1_500 }, providers);
  const a = hub.open({ place: 'sidebar' });
  const b = hub.open({ place: 'editor' });
  await Promise.all([a.controller.send('ra', 'task a', 'agent'), b.controller.send('rb', 'task b', 'agent')]);
  for (const s of [a, b]) {
    const stops = (events.get(s.id) ?? []).flatMap((e) => (e.type === 'budget_stop' ? [e] : []));
    assert.equal(stops.length, 1, `${s.id} paused once`);
    assert.equal(stops[0]?.stop.cap, 'total_tokens');
  }
  // Neither alone reached the cap: it was their sum (each call reported once, as it came).
  const calls = (pa?.requests.length ?? 0) + (pb?.requests.length ?? 0);
  assert.equal(fleet.spent().tokens, calls * 110);
  assert.ok(fleet.spentBy(a.controller.sessionId).tokens < 1_500);
  assert.ok(fleet.spentBy(b.controller.sessionId).tokens < 1_500);
  assert.ok(fleet.spent().tokens >= 1_500);
  // The Agents view's line: the total spent (dollars, as the harness's model is priced) and the token cap.
  const listed = hub.slots().map((s) => ({ slotId: s.id, status: s.status }));
  const summary = agentsSummary(listed, { spent: fleet.spent(), caps: fleet.caps() });
  const tokens = fleet.spent().tokens.toLocaleString('en-US');
  assert.match(summary, new RegExp(`^0 running · \\$0\\.\\d+ and ${tokens} of 1,500 tokens total$`));
  // Continue goes on past the total for that run, in that session only.
  const before = pa?.requests.length ?? 0;
  await a.controller.send('ra2', 'continue', 'agent', { budget: { continuing: true } });
  assert.equal(pa?.requests.length, 21, `the continued run finished its script (was ${before})`);
  await hub.dispose();
});

test('past maxParallelSessions the third session is queued, listed so, and runs when a slot frees', async () => {
  const providers = [stepsProvider(1), stepsProvider(1), stepsProvider(1)];
  const [pa, pb, pc] = providers;
  let openA!: () => void;
  pa?.holdNextStepUntil(new Promise<void>((r) => (openA = r)));
  let openB!: () => void;
  pb?.holdNextStepUntil(new Promise<void>((r) => (openB = r)));
  const { hub, fleet, events } = fleetHub({ maxParallelSessions: 2 }, providers);
  const [a, b, c] = [hub.open({ place: 'sidebar' }), hub.open({ place: 'editor' }), hub.open({ place: 'editor' })];
  const runA = a.controller.send('ra', 'task a', 'agent');
  const runB = b.controller.send('rb', 'task b', 'agent');
  await waitFor(() => fleet.running() === 2, 'two running');
  const runC = c.controller.send('rc', 'task c', 'agent');
  await waitFor(() => fleet.waiting() === 1, 'the third waits');
  // The waiting request is shown (its message and why it waits), and has not called the model.
  assert.equal(pc?.requests.length, 0);
  await waitFor(() => (events.get(c.id) ?? []).some((e) => e.type === 'notice'), 'the waiting notice shown');
  const notice = (events.get(c.id) ?? []).find((e) => e.type === 'notice');
  assert.match(notice?.type === 'notice' ? notice.text : '', /Waiting for a free slot \(2 running; .*is 2\)/);
  // The Agents view lists it as queued (the fleet names its session), the others as running.
  const queued = fleet.queuedSessions();
  const listed = hub.slots().map((s) => ({
    slotId: s.id,
    status: s.status,
    ...(queued.has(s.controller.sessionId) ? { queued: true } : {}),
  }));
  const states = agentEntries(listed, 'all', Date.now()).map((e) => `${e.slotId}:${e.state}`);
  assert.deepEqual(states.sort(), [`${a.id}:running`, `${b.id}:running`, `${c.id}:queued`]);
  assert.match(agentsSummary(listed), /^2 running · 1 queued/);
  assert.deepEqual(
    agentEntries(listed, 'queued', Date.now()).map((e) => e.slotId),
    [c.id],
  );
  // A slot frees: the queued request starts by itself and finishes.
  openA();
  await runA;
  await runC;
  assert.equal(pc?.requests.length, 2);
  assert.equal(c.status.state, 'done');
  openB();
  await runB;
  assert.equal(fleet.running(), 0);
  await hub.dispose();
});
