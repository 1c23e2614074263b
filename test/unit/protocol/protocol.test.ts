import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyEnvelope,
  dispatchInbound,
  emptyChatState,
  EnvelopeSchema,
  type Envelope,
  type RequestEvent,
  InboundSchema,
  OutboundSchema,
  parseInbound,
  type InboundHandlers,
} from '../../../extension/protocol';

test('malformed inbound messages are reported, never thrown', () => {
  const bad: unknown[] = [
    null,
    undefined,
    42,
    'send',
    [],
    {},
    { type: 'nope' },
    { type: 'send' },
    { type: 'send', requestId: 'r', text: '', mode: 'chat' },
    { type: 'send', requestId: 'r', text: 'hi', mode: 'yolo' },
    { type: 'approval', callId: 'c', decision: 'maybe' },
    { type: 'answer', callId: 'c', answers: 'x' },
    JSON.parse('{"__proto__": {"polluted": true}, "type": "ready2"}'),
  ];
  for (const raw of bad) {
    const r = parseInbound(raw);
    assert.equal(r.ok, false, `accepted ${JSON.stringify(raw)}`);
    if (!r.ok) {
      assert.equal(r.error.code, 'protocol');
      assert.match(r.error.message, /Malformed message/);
    }
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('valid inbound messages parse to their own type', () => {
  const r = parseInbound({ type: 'send', requestId: 'r1', text: 'hello', mode: 'agent' });
  assert.ok(r.ok);
  assert.deepEqual(r.ok && r.message, { type: 'send', requestId: 'r1', text: 'hello', mode: 'agent' });
  assert.ok(InboundSchema.safeParse({ type: 'approval', callId: 'c', decision: 'deny', reason: 'no' }).success);
});

test('the envelope requires a positive integer seq and a known event', () => {
  assert.ok(EnvelopeSchema.safeParse({ requestId: 'r', seq: 1, ts: 1, event: { type: 'complete' } }).success);
  assert.ok(!EnvelopeSchema.safeParse({ requestId: 'r', seq: 0, ts: 1, event: { type: 'complete' } }).success);
  assert.ok(!EnvelopeSchema.safeParse({ requestId: 'r', seq: 1.5, ts: 1, event: { type: 'complete' } }).success);
  assert.ok(
    !EnvelopeSchema.safeParse({ requestId: 'r', seq: 1, ts: 1, event: { type: 'aborted' } }).success,
    'aborted needs partialSaved',
  );
  assert.ok(
    !EnvelopeSchema.safeParse({ requestId: 'r', seq: 1, ts: 1, event: { type: 'error', error: { message: 'x' } } })
      .success,
  );
  assert.ok(
    OutboundSchema.safeParse({
      type: 'events',
      envelopes: [{ requestId: 'r', seq: 2, ts: 1, event: { type: 'text_delta', text: 'a' } }],
    }).success,
  );
});

test('rewind messages: a valid rewind defaults overwrite to none; a bad scope or an empty edit is refused', () => {
  const ok = parseInbound({ type: 'rewind', messageId: 'm1', scope: 'files' });
  assert.ok(ok.ok);
  assert.deepEqual(ok.message, { type: 'rewind', messageId: 'm1', scope: 'files', overwrite: [] });
  const bad = parseInbound({ type: 'rewind', messageId: 'm1', scope: 'everything' });
  assert.ok(!bad.ok);
  assert.match(bad.error.message, /scope/);
  const emptyEdit = parseInbound({
    type: 'editResend',
    messageId: 'm1',
    requestId: 'r',
    text: '',
    mode: 'agent',
    rewindFiles: false,
  });
  assert.ok(!emptyEdit.ok);
});

test('dispatch calls exactly the handler of the message type', async () => {
  const seen: string[] = [];
  const record = (name: string) => () => void seen.push(name);
  const handlers: InboundHandlers = {
    ready: record('ready'),
    send: record('send'),
    abort: record('abort'),
    stopSubagent: record('stopSubagent'),
    stopGoal: record('stopGoal'),
    composing: record('composing'),
    memoryReply: record('memoryReply'),
    addMemory: record('addMemory'),
    openFile: record('openFile'),
    createPullRequest: record('createPullRequest'),
    retry: record('retry'),
    projectContext: record('projectContext'),
    compactNow: record('compactNow'),
    setMode: record('setMode'),
    setResearchScope: record('setResearchScope'),
    openSource: record('openSource'),
    openSourceQuote: record('openSourceQuote'),
    setModel: record('setModel'),
    setPermissionMode: record('setPermissionMode'),
    setReasoning: record('setReasoning'),
    newChat: record('newChat'),
    openLink: record('openLink'),
    runCommand: record('runCommand'),
    approval: record('approval'),
    openDiff: record('openDiff'),
    answer: record('answer'),
    history: record('history'),
    resume: record('resume'),
    openInEditor: record('openInEditor'),
    renameSession: record('renameSession'),
    deleteSession: record('deleteSession'),
    undoDelete: record('undoDelete'),
    export: record('export'),
    approvePlan: record('approvePlan'),
    editPlan: record('editPlan'),
    rejectPlan: record('rejectPlan'),
    exportReport: record('exportReport'),
    rewindPreview: record('rewindPreview'),
    rewind: record('rewind'),
    redoRewind: record('redoRewind'),
    editResend: record('editResend'),
    mcpDecision: record('mcpDecision'),
    referenceCandidates: record('referenceCandidates'),
    contextUsage: record('contextUsage'),
    imageRequest: record('imageRequest'),
    hookDecision: record('hookDecision'),
    queue: record('queue'),
    queueEdit: record('queueEdit'),
    queueRemove: record('queueRemove'),
    steer: record('steer'),
  };
  await dispatchInbound(handlers, { type: 'setMode', mode: 'plan' });
  await dispatchInbound(handlers, { type: 'ready' });
  assert.deepEqual(seen, ['setMode', 'ready']);
});

// Compile-time check (npm run typecheck): a handler table missing a message type does not compile.
// @ts-expect-error — 'export' (and others) are missing.
export const incomplete: InboundHandlers = { ready: () => {} };

test('a failover event shows its notice before the answer and credits the message to the fallback model', () => {
  const state = emptyChatState();
  const env = (seq: number, event: RequestEvent): Envelope => ({ requestId: 'r', seq, ts: seq, event });
  const text = 'main/m failed (main had a server error (500), even after retries.); answered by fallback backup/b.';
  const events: RequestEvent[] = [
    { type: 'started', userMessageId: 'u', assistantMessageId: 'a', text: 'hi', mode: 'chat', model: 'main/m' },
    { type: 'failover', from: 'main/m', to: 'backup/b', reason: 'main had a server error (500)', text },
    { type: 'text_delta', text: 'Hello ' },
    { type: 'text_delta', text: 'there.' },
    { type: 'complete' },
  ];
  for (const [i, e] of events.entries()) applyEnvelope(state, EnvelopeSchema.parse(env(i + 1, e)));
  const answer = state.messages.at(-1);
  assert.equal(answer?.model, 'backup/b');
  assert.equal(answer?.status, 'done');
  assert.deepEqual(answer?.parts, [
    { type: 'notice', notice: { kind: 'fallback', text } },
    { type: 'text', text: 'Hello there.' },
  ]);
  assert.ok(
    !EnvelopeSchema.safeParse(env(1, { type: 'failover', from: 'a', to: 'b' } as unknown as RequestEvent)).success,
  );
});
