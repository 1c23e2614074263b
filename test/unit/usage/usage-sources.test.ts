// Splitting an answer's usage into its sources: the chat's rest after its sub-agents and the reviewer,
// research phases, compaction's own call, unknown prices kept unknown, and never a negative rest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type ChatMessage, type SubagentView, usageSlices } from '../../../extension/protocol';

const base = (over: Partial<ChatMessage>): ChatMessage => ({
  id: 'a',
  role: 'assistant',
  mode: 'agent',
  parts: [],
  status: 'done',
  model: 'big/model',
  createdAt: 1,
  ...over,
});
const sub = (name: string, usage: SubagentView['usage'], model?: string) => ({
  type: 'tool' as const,
  call: {
    callId: name,
    name: 'task',
    kind: 'read' as const,
    subject: name,
    status: 'ok' as const,
    subagent: {
      name,
      description: '',
      prompt: '',
      status: 'done' as const,
      steps: [],
      modelCalls: 1,
      usage,
      ...(model ? { model } : {}),
    },
  },
});
const brief = (s: ReturnType<typeof usageSlices>) =>
  s.map(
    (x) =>
      `${x.source}${x.label ? `:${x.label}` : ''} ${x.model} ` +
      `${x.inputTokens}/${x.cachedTokens}/${x.outputTokens} ${x.costUsd ?? '?'}`,
  );

test('sub-agents and the reviewer come out of the answer; the rest is the chat', () => {
  const m = base({
    usage: {
      inputTokens: 1000,
      cachedTokens: 400,
      outputTokens: 100,
      costUsd: 0.3,
      review: { calls: 2, inputTokens: 100, outputTokens: 10, costUsd: 0.01 },
    },
    parts: [
      sub('explorer', { inputTokens: 300, cachedTokens: 100, outputTokens: 30, costUsd: 0.1 }, 'cheap/mini'),
      sub('tester', { inputTokens: 200, cachedTokens: 0, outputTokens: 20, costUsd: 0.05 }),
      {
        type: 'tool',
        call: {
          callId: 'x',
          name: 'bash',
          kind: 'execute',
          subject: 'ls',
          status: 'ok',
          review: { decision: 'allow', reason: 'ok', model: 'judge/m' },
        },
      },
    ],
  });
  assert.deepEqual(brief(usageSlices(m)), [
    'chat big/model 400/300/40 0.14',
    'subagent:explorer cheap/mini 300/100/30 0.1',
    'subagent:tester big/model 200/0/20 0.05',
    'reviewer judge/m 100/0/10 0.01',
  ]);
});

test('a research run is split by phase; compaction is its own slice; an unknown price stays unknown', () => {
  const research = base({
    mode: 'research',
    usage: {
      inputTokens: 30,
      cachedTokens: 0,
      outputTokens: 6,
      phases: {
        planning: { inputTokens: 10, outputTokens: 2, cachedTokens: 0 },
        searching: { inputTokens: 20, outputTokens: 4, cachedTokens: 0, costUsd: 0.2 },
      },
    },
  });
  assert.deepEqual(brief(usageSlices(research)), [
    'research:planning big/model 10/0/2 ?',
    'research:searching big/model 20/0/4 0.2',
  ]);
  // A research answer from before phases were recorded: all research, no phase.
  const old = base({ mode: 'research', usage: { inputTokens: 5, cachedTokens: 0, outputTokens: 1, costUsd: 0.01 } });
  assert.deepEqual(brief(usageSlices(old)), ['research big/model 5/0/1 0.01']);
  const compacted = base({
    mode: 'chat',
    usage: { inputTokens: 5, cachedTokens: 0, outputTokens: 1 },
    parts: [
      {
        type: 'compaction',
        compaction: {
          id: 'c',
          replaces: 4,
          brief: 'b',
          trigger: 'auto',
          tokensBefore: 9,
          tokensAfter: 2,
          at: 1,
          usage: { inputTokens: 50, cachedTokens: 0, outputTokens: 9, costUsd: 0.02 },
        },
      },
    ],
  });
  assert.deepEqual(brief(usageSlices(compacted)), ['chat big/model 5/0/1 ?', 'compaction big/model 50/0/9 0.02']);
});

test('a sub-agent stopped before its spending was folded in is counted whole, the rest never below zero', () => {
  const m = base({
    usage: { inputTokens: 100, cachedTokens: 0, outputTokens: 10, costUsd: 0.01 },
    parts: [sub('explorer', { inputTokens: 500, cachedTokens: 0, outputTokens: 50, costUsd: 0.05 })],
  });
  assert.deepEqual(brief(usageSlices(m)), ['subagent:explorer big/model 500/0/50 0.05']);
  assert.deepEqual(usageSlices(base({})), [], 'no usage, no slices');
});
