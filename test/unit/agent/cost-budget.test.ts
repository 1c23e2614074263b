// Cache-stable requests, usage and cost, and budgets: the controller and the loop through the real SDKs
// against the fake LLM server (both wire formats), the fake reporting usage with cached tokens.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as openai from '../../../extension/core/providers/openai';
import * as anthropic from '../../../extension/core/providers/anthropic';
import type { Provider } from '../../../extension/core/providers/types';
import { usageLine, type Envelope, type RequestEvent } from '../../../extension/protocol';
import { PRESETS } from '../../../extension/core/providers/presets';
import { costOf } from '../../../extension/core/usage/cost';
import { budgetReached, unpricedCapNotice } from '../../../extension/core/usage/budget';
import { startFakeLlm, type FakeReply } from '../../fixtures/fake-llm';
import { prefixShare, prefixSteps, promptText } from '../../fixtures/prefix-stability';
import { assertEnvelopeInvariants, createHarness, readTool } from './harness';

const fakePromise = startFakeLlm();
after(async () => (await fakePromise).close());

/** The harness prices its model at $1 per million input tokens and $2 per million output tokens. */
const PRICE = { input: 1, output: 2 };

async function providerFor(kind: 'openai' | 'anthropic'): Promise<Provider> {
  const fake = await fakePromise;
  const mod = kind === 'openai' ? openai : anthropic;
  return mod.createProvider(
    { name: 'fake', kind, baseUrl: kind === 'openai' ? `${fake.baseUrl}/v1` : fake.baseUrl },
    'sk-test',
  );
}

const peekCall = (n: number): FakeReply => ({
  text: `Looking at part ${n}.`,
  toolCalls: [{ name: 'peek', arguments: { path: `src/part-${n}.ts` } }],
  usage: { inputTokens: 1000 + n * 100, outputTokens: 20, cachedTokens: 900 + n * 100 },
});

function events(envs: Envelope[], type: RequestEvent['type']): RequestEvent[] {
  return envs.map((e) => e.event).filter((e) => e.type === type);
}

type AnthropicBlock = { cache_control?: unknown };
type AnthropicBody = {
  system?: AnthropicBlock[];
  messages: Array<{ role: string; content: AnthropicBlock[] }>;
};

/** Where a messages request carries cache_control: 'system' and `<message index>.<block index>`. */
function breakpoints(body: unknown): string[] {
  const b = body as AnthropicBody;
  const at: string[] = [];
  if (b.system?.some((s) => s.cache_control)) at.push('system');
  for (const [i, m] of b.messages.entries())
    for (const [j, c] of m.content.entries()) if (c.cache_control) at.push(`${i}.${j}`);
  return at;
}

for (const kind of ['openai', 'anthropic'] as const) {
  test(`${kind}: a 30-step Agent session keeps every request's prompt as the next one's prefix`, async () => {
    const fake = await fakePromise;
    fake.reset();
    const started = new Date('2026-11-23T23:59:00Z').getTime();
    const prompts: number[] = [];
    const h = createHarness({
      provider: await providerFor(kind),
      tools: [readTool([], 0)],
      systemPrompt: (mode, sessionStartedAt) => {
        prompts.push(sessionStartedAt);
        return `system for ${mode}; session of ${new Date(sessionStartedAt).toISOString().slice(0, 10)}`;
      },
    });
    // Three messages of ten model calls each: nine tool steps and an answer.
    for (let turn = 0; turn < 3; turn++) {
      for (let n = 1; n <= 9; n++) fake.enqueue(peekCall(turn * 10 + n));
      fake.enqueue({ text: `Done with round ${turn + 1}.`, usage: { inputTokens: 5000, outputTokens: 30 } });
      await h.controller.send(`r${turn}`, `Round ${turn + 1}: read the parts.`, 'agent');
    }
    assert.equal(fake.requests.length, 30);
    assert.ok(started > 0 && new Set(prompts).size === 1, 'one session date for every request of the session');
    const bodies = fake.requests.map((r) => r.body);
    const steps = prefixSteps(bodies);
    for (const [i, s] of steps.entries()) {
      // The previous prompt is repeated whole; only its closing brackets differ.
      assert.ok(s.previousLength - s.shared <= 2, `request ${i + 2} changed the previous prefix at ${s.shared}`);
      assert.ok(s.length > s.previousLength, `request ${i + 2} only appends`);
    }
    assert.ok(prefixShare(steps) >= 0.95, `share ${prefixShare(steps)}`);
    // The same tools in the same order, byte for byte, on every request.
    const tools = new Set(bodies.map((b) => JSON.stringify((b as { tools?: unknown }).tools)));
    assert.equal(tools.size, 1);
    if (kind === 'anthropic') {
      for (const [i, body] of bodies.entries()) {
        const b = body as AnthropicBody;
        const last = b.messages.length - 1;
        const expected = ['system'];
        // The user turn before the last one (where the previous request ended), then the last block.
        let prev = -1;
        for (let j = last - 1; j >= 0; j--)
          if (b.messages[j].role === 'user') {
            prev = j;
            break;
          }
        if (prev >= 0) expected.push(`${prev}.${b.messages[prev].content.length - 1}`);
        expected.push(`${last}.${b.messages[last].content.length - 1}`);
        assert.deepEqual(breakpoints(body), expected, `request ${i + 1}`);
        assert.ok(expected.length <= 4, 'the API takes at most four breakpoints');
      }
    } else {
      assert.ok(!promptText(bodies[29]).includes('cache_control'), 'no Anthropic markers on the OpenAI wire');
    }
    // Cached tokens are recorded per request, and the answer's usage is the sum with its cost.
    const usage = events(h.envelopes('r0'), 'usage').at(-1);
    assert.ok(usage?.type === 'usage');
    const sum = { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
    for (let n = 1; n <= 9; n++) {
      sum.inputTokens += 1000 + n * 100;
      sum.outputTokens += 20;
      sum.cachedTokens += 900 + n * 100;
    }
    sum.inputTokens += 5000;
    sum.outputTokens += 30;
    assert.equal(usage.usage.inputTokens, sum.inputTokens);
    assert.equal(usage.usage.cachedTokens, sum.cachedTokens);
    assert.equal(usage.usage.outputTokens, sum.outputTokens);
    assert.equal(usage.usage.costUsd, costOf(sum, PRICE));
    const snap = await h.controller.snapshot();
    assert.deepEqual(snap.messages[1].usage, usage.usage, 'the answer keeps its usage');
  });
}

test('openai: reasoning tokens reported by the API are recorded with the usage', async () => {
  const fake = await fakePromise;
  fake.reset();
  const h = createHarness({ provider: await providerFor('openai') });
  fake.enqueue({ text: 'Thought about it.', usage: { inputTokens: 40, outputTokens: 300, reasoningTokens: 250 } });
  await h.controller.send('q', 'think', 'chat');
  const usage = events(h.envelopes('q'), 'usage').at(-1);
  assert.ok(usage?.type === 'usage');
  assert.equal(usage.usage.reasoningTokens, 250);
  assert.equal(usage.usage.outputTokens, 300);
  assert.equal(usage.usage.costUsd, (40 * 1 + 300 * 2) / 1_000_000, 'reasoning is paid as output, once');
});

for (const kind of ['openai', 'anthropic'] as const) {
  test(`${kind}: a run that would pass the dollar cap stops at it, once, keeping what it did`, async () => {
    const fake = await fakePromise;
    fake.reset();
    // Each step costs 100,000 × $1/M + 10,000 × $2/M = $0.12: after two steps ($0.24) a third would pass $0.30.
    const step = (n: number): FakeReply => ({
      text: `Step ${n}.`,
      toolCalls: [{ name: 'peek', arguments: { path: `f${n}` } }],
      usage: { inputTokens: 100_000, outputTokens: 10_000 },
    });
    fake.enqueue(step(1), step(2)); // a third call would get the default reply: counted below
    const log: string[] = [];
    const h = createHarness({
      provider: await providerFor(kind),
      tools: [readTool(log, 0)],
      budget: { maxCostUsd: 0.3 },
    });
    await h.controller.send('b1', 'do a long job', 'agent');
    assert.equal(fake.requests.length, 2, 'no third model call');
    const envs = h.envelopes('b1');
    assertEnvelopeInvariants(envs);
    assert.equal(envs.at(-1)?.event.type, 'complete', 'a clean end: complete is the one terminal event');
    const stops = events(envs, 'budget_stop');
    assert.equal(stops.length, 1);
    const stop = stops[0];
    assert.ok(stop.type === 'budget_stop');
    assert.equal(stop.stop.cap, 'run_cost');
    assert.equal(stop.stop.setting, 'sextant.budget.maxCostUsd');
    assert.equal(stop.stop.limit, 0.3);
    assert.ok(Math.abs(stop.stop.spent - 0.24) < 1e-12, String(stop.stop.spent));
    assert.match(stop.text, /sextant\.budget\.maxCostUsd/);
    const usage = events(envs, 'usage').at(-1);
    assert.ok(usage?.type === 'usage');
    assert.equal(usage.usage.costUsd, costOf({ inputTokens: 200_000, outputTokens: 20_000, cachedTokens: 0 }, PRICE));
    assert.ok((usage.usage.costUsd ?? 1) <= 0.3, 'never past the cap');
    // The partial run is kept: both tool calls ran and the answer shows the notice, marked for Continue.
    assert.deepEqual(log, ['start f1', 'end f1', 'start f2', 'end f2']);
    const snap = await h.controller.snapshot();
    const answer = snap.messages[1];
    assert.equal(answer.status, 'done');
    const notice = answer.parts.find((p) => p.type === 'notice');
    assert.ok(notice?.type === 'notice');
    assert.equal(notice.notice.kind, 'budget');
    assert.equal(notice.notice.budgetStop?.cap, 'run_cost');
    assert.match(notice.notice.text, /Stopped at the budget/);
    assert.equal(answer.parts.filter((p) => p.type === 'tool').length, 2);
    // Continue: a new run with its own allowance carries on from the kept history.
    fake.enqueue({ text: 'Finished.', usage: { inputTokens: 100_000, outputTokens: 10_000 } });
    await h.controller.send('b2', 'continue', 'agent', { budget: { continuing: true } });
    assert.equal(fake.requests.length, 3);
    assert.ok(JSON.stringify(fake.requests[2].body).includes('contents of f2'), 'the kept tool result is sent');
    assert.equal(h.envelopes('b2').at(-1)?.event.type, 'complete');
  });
}

test('session caps: a session past its token cap makes no call; Continue lifts it for one run', async () => {
  const fake = await fakePromise;
  fake.reset();
  const h = createHarness({ provider: await providerFor('openai'), budget: { sessionMaxTokens: 1000 } });
  fake.enqueue({ text: 'One.', usage: { inputTokens: 900, outputTokens: 200 } });
  await h.controller.send('s1', 'first', 'chat');
  assert.equal(fake.requests.length, 1);
  await h.controller.send('s2', 'second', 'chat');
  assert.equal(fake.requests.length, 1, 'the session had spent 1,100 of 1,000 tokens');
  const envs = h.envelopes('s2');
  assertEnvelopeInvariants(envs);
  const stop = events(envs, 'budget_stop')[0];
  assert.ok(stop?.type === 'budget_stop' && stop.stop.cap === 'session_tokens' && stop.stop.spent === 1100);
  assert.equal(envs.at(-1)?.event.type, 'complete');
  fake.enqueue({ text: 'Two.', usage: { inputTokens: 900, outputTokens: 200 } });
  await h.controller.send('s3', 'continue', 'chat', { budget: { continuing: true } });
  assert.equal(fake.requests.length, 2);
  assert.equal(events(h.envelopes('s3'), 'budget_stop').length, 0);
});

test('the composer dollar cap replaces the setting for one run; an unknown price never makes up a cost', async () => {
  const fake = await fakePromise;
  fake.reset();
  const h = createHarness({
    provider: await providerFor('openai'),
    tools: [readTool([], 0)],
    budget: { maxCostUsd: 100 },
  });
  const usage = { inputTokens: 100_000, outputTokens: 10_000 };
  const steps: FakeReply[] = [1, 2, 3].map((n) => ({
    toolCalls: [{ name: 'peek', arguments: { path: `${n}` } }],
    usage,
  }));
  fake.enqueue(...steps);
  await h.controller.send('c1', 'go', 'agent', { budget: { maxCostUsd: 0.1 } });
  // $0.12 after the first call is past the $0.10 chosen for this run (the setting's $100 would go on).
  assert.equal(fake.requests.length, 1);
  const stop = events(h.envelopes('c1'), 'budget_stop')[0];
  assert.ok(stop?.type === 'budget_stop' && stop.stop.limit === 0.1 && stop.stop.cap === 'run_cost');

  // No price: the dollar cap cannot be judged, the chat says so, and no cost is shown.
  assert.equal(costOf({ inputTokens: 5, outputTokens: 5, cachedTokens: 0 }, undefined), undefined);
  assert.equal(
    budgetReached(
      { limits: { maxCostUsd: 0.01 }, sessionSpent: { tokens: 0, costUsd: 0 } },
      { inputTokens: 1e9, outputTokens: 1e9, cachedTokens: 0 },
      { inputTokens: 1e9, outputTokens: 1e9, cachedTokens: 0 },
    ),
    undefined,
  );
  assert.match(unpricedCapNotice({ maxCostUsd: 1 }, false, 'x/y') ?? '', /price of x\/y is unknown/);
  assert.equal(unpricedCapNotice({ maxCostUsd: 1 }, true, 'x/y'), undefined);
  assert.equal(unpricedCapNotice({ maxTokens: 1 }, false, 'x/y'), undefined);
});

test('budgetReached: stops at a cap reached, and one call early when the next call like the last would pass it', () => {
  const budget = { limits: { maxTokens: 1000 }, sessionSpent: { tokens: 0, costUsd: 0 } };
  const u = (n: number) => ({ inputTokens: n, outputTokens: 0, cachedTokens: 0 });
  assert.equal(budgetReached(budget, u(400), u(400)), undefined, '400 + 400 ≤ 1000');
  assert.equal(budgetReached(budget, u(800), u(400))?.cap, 'run_tokens', '800 + 400 > 1000');
  assert.equal(budgetReached(budget, u(1000), u(0))?.cap, 'run_tokens', 'at the cap');
  assert.equal(budgetReached(undefined, u(1e9), u(1e9)), undefined);
  const session = { limits: { sessionMaxCostUsd: 1 }, sessionSpent: { tokens: 0, costUsd: 0.95 } };
  assert.equal(budgetReached(session, { ...u(0), costUsd: 0 }, { ...u(0), costUsd: 0 }), undefined);
  assert.equal(budgetReached(session, { ...u(0), costUsd: 0.05 }, { ...u(0), costUsd: 0.05 })?.cap, 'session_cost');
});

test('anthropic: cache writes are recorded and priced at the cache-write rate (Sonnet 4.5: 1.25× input)', async () => {
  const fake = await fakePromise;
  fake.reset();
  const h = createHarness({ provider: await providerFor('anthropic') });
  fake.enqueue({
    text: 'Cached.',
    usage: { inputTokens: 10_000, outputTokens: 100, cachedTokens: 2_000, cacheWriteTokens: 6_000 },
  });
  await h.controller.send('w', 'hello', 'chat');
  const usage = events(h.envelopes('w'), 'usage').at(-1);
  assert.ok(usage?.type === 'usage');
  assert.equal(usage.usage.inputTokens, 10_000, 'reads and writes are part of the prompt');
  assert.equal(usage.usage.cachedTokens, 2_000);
  assert.equal(usage.usage.cacheWriteTokens, 6_000);
  // The harness's price has no cacheWrite: writes cost plain input, as before.
  assert.equal(usage.usage.costUsd, (10_000 * 1 + 100 * 2) / 1_000_000);
  assert.match(usageLine(usage.usage), /^10k in \(2k cached, 6k written to cache\) · 100 out · /);
  // With the preset's table: 2k plain × $3, 2k read × $0.30, 6k written × $3.75, 100 out × $15.
  const sonnet = PRESETS.find((p) => p.name === 'anthropic')?.modelInfo?.['claude-sonnet-4-5']?.price;
  assert.deepEqual(sonnet, { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75 });
  const cost = costOf(usage.usage, sonnet);
  assert.ok(Math.abs((cost ?? 0) - (2_000 * 3 + 2_000 * 0.3 + 6_000 * 3.75 + 100 * 15) / 1_000_000) < 1e-12);
});
