import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ChangePlanInputSchema,
  InboundSchema,
  PlanArtifactSchema,
  applyEnvelope,
  emptyChatState,
  findPlan,
  planBrief,
  planToMarkdown,
  stepTitlesFromMarkdown,
  type PlanArtifact,
} from '../../../extension/protocol';

const input = {
  goal: 'Cache parsed configs',
  steps: [{ title: 'Add a cache map', detail: 'Keyed by path.\nCleared on change.' }, { title: 'Use it in load()' }],
  files: [{ path: 'src/config.ts', change: 'Add the cache.' }],
  risks: ['Stale entries'],
  verify: ['npm test'],
};

test('plan schema: a valid plan parses; bad plans are refused with a reason', () => {
  assert.ok(ChangePlanInputSchema.safeParse(input).success);
  assert.ok(ChangePlanInputSchema.safeParse({ ...input, files: [], risks: [], verify: [] }).success);
  const bad = [
    { ...input, steps: [] },
    { ...input, steps: Array.from({ length: 21 }, (_, i) => ({ title: `s${i}` })) },
    { ...input, goal: '' },
    { ...input, files: [{ path: 'a.ts' }] },
    { ...input, risks: undefined },
    { ...input, steps: [{ detail: 'no title' }] },
  ];
  for (const b of bad) assert.equal(ChangePlanInputSchema.safeParse(b).success, false, JSON.stringify(b));
  const artifact = { ...input, kind: 'change', id: 'p1', status: 'proposed' };
  assert.ok(PlanArtifactSchema.safeParse(artifact).success);
  assert.equal(PlanArtifactSchema.safeParse({ ...artifact, kind: 'other' }).success, false);
  assert.equal(PlanArtifactSchema.safeParse({ ...artifact, status: 'done' }).success, false);
});

test('plan to Markdown and the brief for Agent mode', () => {
  const md = planToMarkdown(input);
  assert.equal(
    md,
    [
      '# Plan',
      '',
      '## Goal',
      '',
      'Cache parsed configs',
      '',
      '## Steps',
      '',
      '1. Add a cache map',
      '   Keyed by path.',
      '   Cleared on change.',
      '2. Use it in load()',
      '',
      '## Files',
      '',
      '- `src/config.ts` — Add the cache.',
      '',
      '## Risks',
      '',
      '- Stale entries',
      '',
      '## Verification',
      '',
      '- npm test',
      '',
    ].join('\n'),
  );
  const empty = planToMarkdown({ ...input, files: [], risks: [], verify: [] });
  assert.doesNotMatch(empty, /## Files|## Risks|## Verification/);
  const brief = planBrief(md);
  assert.match(brief, /^Carry out this approved plan\./);
  assert.ok(brief.endsWith(md.trim()));
});

test('step titles come back from a plan in Markdown, edited or not', () => {
  assert.deepEqual(stepTitlesFromMarkdown(planToMarkdown(input)), ['Add a cache map', 'Use it in load()']);
  const edited = '# Plan\n\n## Steps\n\n1. First\n   detail\n2) Second\n\n## Files\n\n1. not a step\n';
  assert.deepEqual(stepTitlesFromMarkdown(edited), ['First', 'Second']);
  assert.deepEqual(stepTitlesFromMarkdown('Just do it'), []);
});

test('reducer: plan_proposed adds a card; plan_status updates it from any request', () => {
  const state = emptyChatState();
  const plan: PlanArtifact = { ...input, kind: 'change', id: 'p1', status: 'proposed' };
  const env = (requestId: string, seq: number, event: Parameters<typeof applyEnvelope>[1]['event']) =>
    applyEnvelope(state, { requestId, seq, ts: 1, event });
  env('r', 1, { type: 'started', userMessageId: 'u', assistantMessageId: 'a', text: 'x', mode: 'plan', model: 'm' });
  assert.equal(env('r', 2, { type: 'plan_proposed', plan }), 'a');
  env('r', 3, { type: 'complete' });
  assert.equal(findPlan(state, 'p1')?.status, 'proposed');
  assert.equal(env('other', 1, { type: 'plan_status', planId: 'p1', status: 'approved' }), 'a');
  assert.equal(findPlan(state, 'p1')?.status, 'approved');
  assert.equal(env('other2', 1, { type: 'plan_status', planId: 'nope', status: 'rejected' }), undefined);
  assert.equal(state.requests.other, undefined, 'no request bookkeeping for a status change');
});

test('inbound plan messages validate', () => {
  assert.ok(InboundSchema.safeParse({ type: 'approvePlan', planId: 'p', requestId: 'r' }).success);
  assert.equal(InboundSchema.safeParse({ type: 'approvePlan', planId: 'p', requestId: '' }).success, false);
  assert.ok(InboundSchema.safeParse({ type: 'editPlan', planId: 'p' }).success);
  assert.ok(InboundSchema.safeParse({ type: 'rejectPlan', planId: 'p' }).success);
});
