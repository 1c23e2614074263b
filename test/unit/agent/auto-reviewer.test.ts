// The reviewer's own rules: a spending cap reached means no review (the call asks), a verdict is reused
// for the identical action within a turn only, what it spends is handed to the turn (cost and caps),
// an answer is read strictly, and an action too large to review asks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AutoReviewer } from '../../../extension/core/agent/auto-review/auto-reviewer';
import { parseVerdict } from '../../../extension/core/agent/auto-review/review-verdict';
import type { Judgement } from '../../../extension/core/agent/permission-gate';
import { createPolicy } from '../../../extension/core/permissions';
import { declaredToolFacts } from '../../../extension/core/tools/registry';
import type { Usage } from '../../../extension/protocol';
import { BOXED } from '../../fixtures/auto-review-judge';
import { ReviewerProvider } from '../../fixtures/reviewer-provider';

const policy = createPolicy({
  user: { defaultMode: 'auto' },
  workspaceFolders: ['/home/dev/proj'],
  home: '/home/dev',
  tools: declaredToolFacts(),
});
const asks: Judgement = { decision: 'ask', source: 'default', reason: 'no rule allows `npm test`' };
const call = { tool: 'bash', kind: 'execute' as const, input: { command: 'npm test' } };
const signal = new AbortController().signal;

function reviewer(provider: ReviewerProvider, extra: Partial<ConstructorParameters<typeof AutoReviewer>[0]> = {}) {
  return new AutoReviewer({
    policy: () => policy,
    reviewerModel: () => 'fast/model',
    resolveModel: async () => ({
      provider,
      model: 'model',
      config: { name: 'fast', kind: 'openai', price: { input: 1, output: 2 } },
    }),
    userMessages: () => ['run the tests'],
    timeoutMs: 10_000,
    ...extra,
  });
}

test('a spending cap reached: the reviewer is not called and the call asks', async () => {
  const provider = new ReviewerProvider('allow');
  const spent: Usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 5 };
  const r = reviewer(provider, {
    budget: { limits: { maxCostUsd: 1 }, sessionSpent: { tokens: 0, costUsd: 0 } },
    runUsage: () => spent,
  });
  const j = await r.judge(call, asks, BOXED, signal);
  assert.equal(j.decision, 'ask');
  assert.match(j.review?.reason ?? '', /not reviewed: Stopped at the budget/);
  assert.equal(provider.requests.length, 0);
});

test('one review per identical action and turn; the spend goes to the turn', async () => {
  const provider = new ReviewerProvider('allow');
  const turn1 = reviewer(provider);
  assert.equal((await turn1.judge(call, asks, BOXED, signal)).decision, 'allow');
  assert.equal((await turn1.judge(call, asks, BOXED, signal)).decision, 'allow');
  assert.equal(provider.requests.length, 1, 'cached within the turn');
  const spent = turn1.takeSpent();
  assert.equal(spent.length, 1);
  assert.equal(spent[0].usage.inputTokens, 100);
  assert.equal(spent[0].costUsd, (100 * 1 + 10 * 2) / 1e6, "priced at the reviewer model's price");
  assert.deepEqual(turn1.takeSpent(), [], 'taken once');
  const turn2 = reviewer(provider);
  await turn2.judge(call, asks, BOXED, signal);
  assert.equal(provider.requests.length, 2, 'not cached across turns');
  const other = { ...call, input: { command: 'npm test -- --watch=false' } };
  await turn2.judge(other, asks, BOXED, signal);
  assert.equal(provider.requests.length, 3, 'a different action is reviewed');
});

test('an action too large to review asks without a call', async () => {
  const provider = new ReviewerProvider('allow');
  const big = {
    tool: 'write_file',
    kind: 'write' as const,
    input: { file_path: 'a.txt', content: 'x'.repeat(30_000) },
  };
  const j = await reviewer(provider).judge(big, { ...asks, reason: 'edits ask' }, BOXED, signal);
  assert.equal(j.decision, 'ask');
  assert.match(j.review?.reason ?? '', /too large/);
  assert.equal(provider.requests.length, 0);
});

test('an answer is read strictly', () => {
  assert.deepEqual(parseVerdict('{"decision": "allow", "reason": "routine"}'), {
    decision: 'allow',
    reason: 'routine',
  });
  assert.deepEqual(parseVerdict('Here: {"decision":"ask","reason":"  two\\nlines "}'), {
    decision: 'ask',
    reason: 'two lines',
  });
  assert.equal(parseVerdict('allow'), undefined);
  assert.equal(parseVerdict('{"decision": "allow"}'), undefined, 'no reason');
  assert.equal(parseVerdict('{"decision": "yes", "reason": "x"}'), undefined);
  assert.equal(
    parseVerdict('{"decision":"allow","reason":"a"} {"decision":"ask","reason":"b"}'),
    undefined,
    'disagreeing',
  );
  assert.equal(parseVerdict('{"decision": "allow", "reason": "   "}'), undefined);
});
