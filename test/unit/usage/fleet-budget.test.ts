// The window's fleet limits (core/usage/fleet-budget.ts): slots sessions take when a request starts,
// total caps that trip once however many sessions spend past them, and the window-wide spend rate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BudgetStop } from '../../../extension/protocol';
import { FleetBudget, type FleetLimits, FleetWaitAborted } from '../../../extension/core/usage/fleet-budget';
import { FleetSeat } from '../../../extension/core/agent/fleet-seat';

function fleet(limits: FleetLimits, now = () => 0) {
  const current = { ...limits };
  return { f: new FleetBudget({ limits: () => current, now }), limits: current };
}

/** Lets every pending promise callback run (the sessions below interleave at each of these). */
const tick = () => new Promise<void>((r) => setImmediate(r));

test('4 sessions spending at once: the total trips exactly once and no report is lost', async () => {
  const { f } = fleet({ totalMaxTokens: 5_000, totalMaxCostUsd: 100 });
  const pauses: BudgetStop[] = [];
  f.onPause((s) => pauses.push(s));
  const tripsSeen: string[] = [];
  const session = async (id: string) => {
    for (let i = 0; i < 50; i++) {
      await tick();
      const r = f.report(id, { tokens: 37, costUsd: 0.001 });
      if (r.stop) tripsSeen.push(id);
    }
  };
  await Promise.all(['a', 'b', 'c', 'd'].map(session));
  assert.equal(f.spent().tokens, 4 * 50 * 37, 'every report counted');
  assert.ok(Math.abs(f.spent().costUsd - 0.2) < 1e-9);
  for (const id of ['a', 'b', 'c', 'd']) assert.equal(f.spentBy(id).tokens, 50 * 37);
  assert.equal(pauses.length, 1, 'the pause listeners hear it once');
  assert.equal(tripsSeen.length, 1, 'one report trips it');
  assert.equal(pauses[0]?.cap, 'total_tokens');
  assert.equal(pauses[0]?.setting, 'sextant.budget.totalMaxTokens');
  assert.equal(f.check()?.cap, 'total_tokens', 'every session still sees the cap at its next step');
});

test('raising the cap re-arms it: the next crossing trips again', () => {
  const { f, limits } = fleet({ totalMaxCostUsd: 1 });
  let pauses = 0;
  f.onPause(() => pauses++);
  f.report('a', { tokens: 10, costUsd: 1.5 });
  assert.equal(pauses, 1);
  limits.totalMaxCostUsd = 3;
  assert.equal(f.check(), undefined);
  f.report('b', { tokens: 10, costUsd: 1 });
  assert.equal(pauses, 1);
  f.report('b', { tokens: 10, costUsd: 1 });
  assert.equal(pauses, 2);
  assert.equal(f.check()?.cap, 'total_cost');
});

test('no caps set: nothing trips; unpriced spending counts tokens only', () => {
  const { f } = fleet({});
  f.report('a', { tokens: 1e9 });
  assert.equal(f.check(), undefined);
  assert.deepEqual(f.spent(), { tokens: 1e9, costUsd: 0 });
});

test('slots: past maxParallelSessions a request waits in line (FIFO), told how many run', async () => {
  const { f } = fleet({ maxParallelSessions: 2 });
  const a = await f.acquire('a');
  const b = await f.acquire('b');
  const waits: Array<[number, number]> = [];
  const order: string[] = [];
  const c = f.acquire('c', { onWait: (running, limit) => waits.push([running, limit]) }).then((s) => {
    order.push('c');
    return s;
  });
  const d = f.acquire('d').then((s) => {
    order.push('d');
    return s;
  });
  await tick();
  assert.deepEqual(waits, [[2, 2]]);
  assert.equal(f.running(), 2);
  assert.equal(f.waiting(), 2);
  a.release();
  a.release(); // a second release gives nothing back twice
  const cs = await c;
  await tick();
  assert.deepEqual(order, ['c'], 'one slot freed: one waiter in');
  b.release();
  const ds = await d;
  assert.deepEqual(order, ['c', 'd']);
  assert.equal(f.running(), 2);
  cs.release();
  ds.release();
  assert.equal(f.running(), 0);
});

test('Stop while waiting leaves the line without a slot; a raised limit lets waiters in', async () => {
  const { f, limits } = fleet({ maxParallelSessions: 1 });
  const a = await f.acquire('a');
  const stop = new AbortController();
  const b = f.acquire('b', { signal: stop.signal });
  const c = f.acquire('c');
  stop.abort();
  await assert.rejects(b, FleetWaitAborted);
  assert.equal(f.waiting(), 1);
  limits.maxParallelSessions = 2;
  f.limitsChanged();
  const cs = await c;
  assert.equal(f.running(), 2);
  a.release();
  cs.release();
  await assert.rejects(f.acquire('d', { signal: AbortSignal.abort() }), FleetWaitAborted);
  assert.equal(f.running(), 0);
});

test('the spend rate over all sessions warns once, and again after it fell back under', () => {
  let now = 0;
  const { f } = fleet({ maxCostUsdPerMinute: 1 }, () => now);
  const heard: string[] = [];
  f.onWarning((t) => heard.push(t));
  assert.equal(f.report('a', { tokens: 1, costUsd: 0.6 }).warning, undefined);
  now = 10_000;
  const w = f.report('b', { tokens: 1, costUsd: 0.6 }).warning;
  assert.match(w ?? '', /All sessions together spent \$1\.2000 in the last minute.*maxCostUsdPerMinute/);
  assert.equal(f.report('c', { tokens: 1, costUsd: 0.6 }).warning, undefined, 'said once');
  now = 200_000; // the minute has passed: under the rate again, re-armed
  assert.equal(f.report('a', { tokens: 1, costUsd: 0.1 }).warning, undefined);
  assert.match(f.report('a', { tokens: 1, costUsd: 1 }).warning ?? '', /last minute/);
  assert.equal(heard.length, 2);
});

test('the Agents view is told: who is queued, each slot taken or freed, each report; the caps in force', async () => {
  const limits: FleetLimits = { maxParallelSessions: 1, totalMaxCostUsd: 5 };
  const fleet = new FleetBudget({ limits: () => limits, now: () => 0 });
  let changes = 0;
  const off = fleet.onChange(() => changes++);
  const first = await fleet.acquire('a');
  const waiting = fleet.acquire('b');
  assert.deepEqual([...fleet.queuedSessions()], ['b']);
  fleet.report('a', { tokens: 10, costUsd: 0.5 });
  assert.equal(changes, 3, 'taken, queued, reported');
  first.release();
  (await waiting).release();
  assert.deepEqual([...fleet.queuedSessions()], []);
  assert.ok(changes >= 5);
  assert.deepEqual(fleet.caps(), { costUsd: 5 });
  off();
  const before = changes;
  fleet.report('a', { tokens: 1 });
  assert.equal(changes, before, 'no listener after off');
});

test("a run's spending reported twice over (usage totals and live sub-agent totals) counts once", () => {
  const fleet = new FleetBudget({ limits: () => ({}), now: () => 0 });
  const seat = new FleetSeat(fleet, 's');
  seat.usage({ inputTokens: 100, outputTokens: 10, cachedTokens: 0, costUsd: 0.1 });
  // The turn's total with a running sub-agent's spending, then the parent's usage alone (lower): no double.
  seat.spend({ tokens: 200, costUsd: 0.2 });
  seat.usage({ inputTokens: 100, outputTokens: 10, cachedTokens: 0, costUsd: 0.1 });
  seat.spend({ tokens: 260, costUsd: 0.25 });
  assert.deepEqual(fleet.spentBy('s'), { tokens: 260, costUsd: 0.25 });
});
