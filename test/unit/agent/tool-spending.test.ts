// A tool that calls a model of its own (web_fetch's page answer on the fast model) reports what that
// call spent; the turn counts its tokens and its cost — at that model's price, not the turn's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as z from 'zod';
import { defineTool } from '../../../extension/core/tools/types';
import type { ProviderEvent } from '../../../extension/core/providers/types';
import { ScriptedProvider } from '../../fixtures/scripted-provider';
import { createPageAnswerer } from '../../../extension/core/research/page-answer';
import { assertEnvelopeInvariants, createHarness } from './harness';

const usage = (inputTokens: number, outputTokens: number): ProviderEvent => ({
  type: 'usage',
  usage: { inputTokens, outputTokens, cachedTokens: 0 },
});

const askingTool = (costUsd: number | undefined) =>
  defineTool({
    name: 'ask_fast',
    description: 'asks a fast model',
    kind: 'read',
    permission: { subject: 'text', text: () => '' },
    modes: ['agent'],
    input: z.object({ q: z.string() }),
    subject: (i) => i.q,
    execute: async () => ({
      forModel: 'the fast model said yes',
      forUi: 'yes',
      isError: false,
      spent: { usage: { inputTokens: 3_000, outputTokens: 200, cachedTokens: 0 }, costUsd },
    }),
  });

for (const [label, toolCost] of [
  ['priced', 0.05],
  ['unpriced', undefined],
] as const) {
  test(`a tool's own model call counts in the turn's usage (${label})`, async () => {
    const provider = new ScriptedProvider([
      [
        { type: 'tool_call', call: { id: 'c1', name: 'ask_fast', argumentsJson: '{"q":"x"}' } },
        usage(1_000, 50),
        { type: 'done', stopReason: 'tool_calls' },
      ],
      [{ type: 'text', text: 'Done.' }, usage(1_200, 20), { type: 'done', stopReason: 'end' }],
    ]);
    const h = createHarness({ provider, tools: [askingTool(toolCost) as never] });
    await h.controller.send('r', 'go', 'agent');
    assertEnvelopeInvariants(h.envelopes());
    const last = h
      .envelopes('r')
      .map((e) => e.event)
      .filter((e) => e.type === 'usage')
      .at(-1);
    assert.ok(last?.type === 'usage');
    assert.equal(last.usage.inputTokens, 1_000 + 3_000 + 1_200);
    assert.equal(last.usage.outputTokens, 50 + 200 + 20);
    // The harness prices the turn's model at $1 / $2 per million; the tool's call brings its own cost.
    const model = (2_200 * 1 + 70 * 2) / 1_000_000;
    if (toolCost === undefined) assert.equal(last.usage.costUsd, undefined, 'one unknown price: total unknown');
    else assert.ok(Math.abs((last.usage.costUsd ?? -1) - (model + toolCost)) < 1e-12, String(last.usage.costUsd));
  });
}

test('the page answerer reports its usage, costed at the fast model’s price', async () => {
  const fast = new ScriptedProvider([
    [{ type: 'text', text: 'An answer.' }, usage(4_000, 300), { type: 'done', stopReason: 'end' }],
  ]);
  const answerer = createPageAnswerer({
    resolveModel: async () => ({
      provider: fast,
      model: 'f',
      config: { name: 'x', kind: 'openai', price: { input: 10, output: 20 } },
    }),
    modelRef: () => 'x/f',
  });
  const page = { url: 'https://a.example/', finalUrl: 'https://a.example/', title: 'A', markdown: 'text' };
  const a = await answerer.answer({ prompt: 'what?', page: page as never }, new AbortController().signal);
  assert.equal(a.text, 'An answer.');
  assert.deepEqual(a.spent?.usage, { inputTokens: 4_000, outputTokens: 300, cachedTokens: 0 });
  assert.ok(Math.abs((a.spent?.costUsd ?? -1) - (4_000 * 10 + 300 * 20) / 1_000_000) < 1e-12);
});
