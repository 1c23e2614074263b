// Notices are message parts: the step limit pauses an Agent run with a notice whose Continue grants
// another batch of steps, and a budget stop's notice (with the cap behind its Continue) is stored and
// replayed like any other part, so it is there again after a reload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProviderEvent } from '../../../extension/core/providers/types';
import { ScriptedProvider } from '../../fixtures/scripted-provider';
import { open, tempDir } from '../store/helpers';
import { assertEnvelopeInvariants, createHarness, readTool } from './harness';

const call = (id: string): ProviderEvent[] => [
  { type: 'tool_call', call: { id, name: 'peek', argumentsJson: `{"path":"${id}"}` } },
  { type: 'done', stopReason: 'tool_calls' },
];

test('the step limit pauses the run with a notice; Continue runs another batch of steps', async () => {
  const provider = new ScriptedProvider([
    call('a'),
    call('b'),
    call('c'),
    call('d'),
    [
      { type: 'text', text: 'All done.' },
      { type: 'done', stopReason: 'end' },
    ],
  ]);
  const h = createHarness({ provider, tools: [readTool([], 1)], maxSteps: 3 });
  await h.controller.send('r1', 'refactor everything', 'agent');
  assert.equal(provider.requests.length, 3);
  const first = (await h.controller.snapshot()).messages[1];
  assert.equal(first.status, 'done');
  const notice = first.parts.at(-1);
  assert.ok(notice?.type === 'notice', JSON.stringify(first.parts.at(-1)));
  assert.equal(notice.notice.kind, 'step_limit');
  assert.match(notice.notice.text, /Paused after 3 model calls \(sextant\.agent\.maxSteps\)/);
  // Continue (what the button sends): a fresh batch of 3 steps goes on from the kept history.
  await h.controller.send('r2', 'continue', 'agent');
  assert.equal(provider.requests.length, 5);
  const again = (await h.controller.snapshot()).messages[3];
  assert.ok(again.parts.some((p) => p.type === 'text' && p.text === 'All done.'));
  assert.ok(!again.parts.some((p) => p.type === 'notice'));
  assertEnvelopeInvariants(h.envelopes());
});

test('a budget stop notice, with its cap, survives a reload of the store', async () => {
  const { dir, cleanup } = tempDir('notices');
  try {
    const store = await open(dir);
    const provider = new ScriptedProvider([
      [
        { type: 'text', text: 'Working on it.' },
        { type: 'usage', usage: { inputTokens: 10_000, outputTokens: 1_000, cachedTokens: 0 } },
        ...call('a'),
      ],
    ]);
    const h = createHarness({ provider, tools: [readTool([], 1)], store, budget: { maxTokens: 5_000 } });
    await h.controller.send('r1', 'go', 'agent');
    const id = h.controller.sessionId;
    await h.controller.dispose();
    await store.close();

    const reopened = await open(dir);
    try {
      const stored = reopened.getSession(id);
      const answer = stored?.messages[1];
      const notice = answer?.parts.find((p) => p.type === 'notice');
      assert.ok(notice?.type === 'notice', JSON.stringify(answer?.parts));
      assert.equal(notice.notice.kind, 'budget');
      assert.equal(notice.notice.budgetStop?.cap, 'run_tokens');
      assert.equal(notice.notice.budgetStop?.setting, 'sextant.budget.maxTokens');
      assert.equal(answer?.parts.at(-1), notice, 'the last part: the answer offers Continue');
      assert.match(reopened.exportSession(id, 'markdown') ?? '', /> Stopped at the budget/);
    } finally {
      await reopened.close();
    }
  } finally {
    cleanup();
  }
});
