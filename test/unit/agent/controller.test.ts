import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { defineTool } from '../../../extension/core/tools/types';
import { ScriptedProvider } from '../../fixtures/scripted-provider';
import { ProviderError, type ProviderEvent } from '../../../extension/core/providers/types';
import { chatStateFromSnapshot, applyEnvelope } from '../../../extension/protocol';
import { assertEnvelopeInvariants, createHarness, readTool, textOf, writeTool } from './harness';
import { MAX_CALLS_PER_STEP } from '../../../extension/core/agent/turn';

const tokens = (n: number, word = 'tok'): ProviderEvent[] =>
  Array.from({ length: n }, (_, i) => ({ type: 'text', text: `${word}${i} ` }));
const done: ProviderEvent = { type: 'done', stopReason: 'end' };

test('a chat request streams batched deltas, journals before posting, and ends with one terminal event', async () => {
  const provider = new ScriptedProvider([
    [...tokens(200), { type: 'usage', usage: { inputTokens: 10, outputTokens: 200, cachedTokens: 0 } }, done],
  ]);
  const h = createHarness({ provider });
  await h.controller.send('r1', 'hello', 'chat');
  const envs = h.envelopes('r1');
  assertEnvelopeInvariants(envs);
  assert.equal(
    textOf(envs),
    tokens(200)
      .map((t) => (t.type === 'text' ? t.text : ''))
      .join(''),
  );
  // 200 tokens arrive in far fewer envelopes than tokens (batched per frame).
  const deltas = envs.filter((e) => e.event.type === 'text_delta').length;
  assert.ok(deltas < 200, `expected batching, got ${deltas} delta envelopes`);
  assert.equal(envs.at(-1)!.event.type, 'complete');
  assert.deepEqual(h.postedBeforeJournal, []);
  const usage = envs.find((e) => e.event.type === 'usage')!.event;
  assert.equal(usage.type === 'usage' && usage.usage.costUsd, (10 * 1 + 200 * 2) / 1e6);
});

test('the conversation keeps its context across turns', async () => {
  const provider = new ScriptedProvider([
    [{ type: 'text', text: 'Paris.' }, done],
    [{ type: 'text', text: 'About 2 million.' }, done],
  ]);
  const h = createHarness({ provider });
  await h.controller.send('r1', 'Capital of France?', 'chat');
  await h.controller.send('r2', 'Its population?', 'chat');
  const second = provider.requests[1];
  assert.deepEqual(
    second.messages.map((m) =>
      m.role === 'assistant' ? `a:${m.text}` : m.role === 'user' ? `u:${m.content}` : 'tool',
    ),
    ['u:Capital of France?', 'a:Paris.', 'u:Its population?'],
  );
  assert.equal(second.system, 'system for chat');
});

test('Stop keeps the partial answer, marks it stopped, and nothing follows the aborted event', async () => {
  const provider = new ScriptedProvider([[...tokens(5), done]]);
  let release!: () => void;
  provider.holdNextStepUntil(new Promise<void>((r) => (release = r)));
  const h = createHarness({ provider });
  const sending = h.controller.send('r1', 'write a long essay', 'chat');
  await new Promise((r) => setTimeout(r, 30));
  await h.controller.abort('r1');
  await sending;
  release();
  const envs = h.envelopes('r1');
  assertEnvelopeInvariants(envs);
  const last = envs.at(-1)!.event;
  assert.deepEqual(last, { type: 'aborted', partialSaved: true });
  const snap = await h.controller.snapshot();
  const answer = snap.messages.at(-1)!;
  assert.equal(answer.status, 'stopped');
  assert.match(answer.parts.map((p) => (p.type === 'text' ? p.text : '')).join(''), /tok0 tok1 tok2 tok3 tok4/);
  // The partial answer is part of the context of the next turn.
  const stored = h.persistence.getSession(h.controller.sessionId)!;
  assert.equal(stored.modelMessages.at(-1)!.role, 'assistant');
  assert.equal(stored.messages.at(-1)!.status, 'stopped');
});

test('a new send aborts the request in flight (one in-flight request per session)', async () => {
  const provider = new ScriptedProvider([
    [...tokens(3), done],
    [{ type: 'text', text: 'second' }, done],
  ]);
  provider.holdNextStepUntil(new Promise<void>(() => {}));
  const h = createHarness({ provider });
  const first = h.controller.send('r1', 'one', 'chat');
  await new Promise((r) => setTimeout(r, 20));
  await h.controller.send('r2', 'two', 'chat');
  await first;
  assert.equal(h.envelopes('r1').at(-1)!.event.type, 'aborted');
  assert.equal(h.envelopes('r2').at(-1)!.event.type, 'complete');
  assertEnvelopeInvariants(h.envelopes());
});

test('provider errors become one recoverable inline error, and Retry re-runs the last message', async () => {
  const provider = new ScriptedProvider([
    new ProviderError('auth', 'The API key for "scripted" was refused (401).', 401),
    [{ type: 'text', text: 'ok now' }, done],
  ]);
  const h = createHarness({ provider });
  await h.controller.send('r1', 'hi', 'chat');
  const err = h.envelopes('r1').at(-1)!.event;
  assert.equal(err.type, 'error');
  assert.equal(err.type === 'error' && err.error.code, 'auth');
  assert.equal(err.type === 'error' && err.error.recoverable, true);
  await h.controller.retry('r2');
  assert.equal(textOf(h.envelopes('r2')), 'ok now');
  // The failed attempt left nothing in the model's history: the retry sends the question once.
  assert.deepEqual(
    provider.requests[1].messages.map((m) => m.role),
    ['user'],
  );
  assertEnvelopeInvariants(h.envelopes());
});

test('the snapshot rebuilds the same conversation; events of an in-flight request keep applying to it', async () => {
  const provider = new ScriptedProvider([
    [...tokens(4), done],
    [...tokens(3, 'x'), done],
  ]);
  let release!: () => void;
  const h = createHarness({ provider });
  await h.controller.send('r1', 'first', 'chat');
  provider.holdNextStepUntil(new Promise<void>((r) => (release = r)));
  const sending = h.controller.send('r2', 'second', 'chat');
  await new Promise((r) => setTimeout(r, 20));
  const snap = await h.controller.snapshot();
  assert.equal(snap.inFlightRequestId, 'r2');
  const view = chatStateFromSnapshot(structuredClone(snap));
  const after = h.envelopes('r2').filter((e) => e.seq > (snap.inFlightLastSeq ?? 0)).length;
  release();
  await sending;
  for (const e of h.envelopes('r2').filter((e) => e.seq > (snap.inFlightLastSeq ?? 0))) applyEnvelope(view, e);
  assert.ok(h.envelopes('r2').length > after);
  const final = await h.controller.snapshot();
  assert.deepEqual(view.messages, final.messages);
});

test('agent mode: reads run in parallel, a writer waits for approval, a denial goes back to the model', async () => {
  const log: string[] = [];
  const provider = new ScriptedProvider([
    [
      { type: 'tool_call', call: { id: 'c1', name: 'peek', argumentsJson: '{"path":"a"}' } },
      { type: 'tool_call', call: { id: 'c2', name: 'peek', argumentsJson: '{"path":"b"}' } },
      { type: 'tool_call', call: { id: 'c3', name: 'poke', argumentsJson: '{"path":"c"}' } },
      { type: 'tool_call', call: { id: 'c4', name: 'poke', argumentsJson: '{"path":"d"}' } },
      { type: 'done', stopReason: 'tool_calls' },
    ],
    [{ type: 'text', text: 'all done' }, done],
  ]);
  const h = createHarness({ provider, tools: [readTool(log), writeTool(log)] });
  h.controller.setMode('agent');
  const sending = h.controller.send('r1', 'do it', 'agent');
  const waitFor = async (pred: () => boolean) => {
    // A generous bound, not a timing check.
    for (let i = 0; i < 5000 && !pred(); i++) await new Promise((r) => setTimeout(r, 2));
    assert.ok(pred());
  };
  const approvalFor = (id: string) => () =>
    h.envelopes('r1').some((e) => e.event.type === 'approval_needed' && e.event.approval.callId === id);
  await waitFor(approvalFor('c3#1.2'));
  // Both reads started before either ended: they ran in parallel; the writer had not run yet.
  assert.deepEqual(log.slice(0, 2).sort(), ['start a', 'start b']);
  assert.ok(!log.includes('write c'));
  h.controller.approve('c3#1.2', { decision: 'approve' });
  await waitFor(approvalFor('c4#1.3'));
  h.controller.approve('c4#1.3', { decision: 'deny', reason: 'not that file' });
  await sending;
  assert.deepEqual(
    log.filter((l) => l.startsWith('write')),
    ['write c'],
  );
  const toolResults = provider.requests[1].messages.filter((m) => m.role === 'tool');
  assert.equal(toolResults.length, 4);
  const denied = toolResults.find((m) => m.role === 'tool' && m.toolCallId === 'c4');
  assert.ok(denied && denied.role === 'tool' && denied.isError);
  assert.match(JSON.stringify(denied), /not that file/);
  const snap = await h.controller.snapshot();
  const cards = snap.messages.at(-1)!.parts.flatMap((p) => (p.type === 'tool' ? [p.call] : []));
  assert.deepEqual(
    cards.map((c) => `${c.name}:${c.subject}:${c.status}`),
    ['peek:a:ok', 'peek:b:ok', 'poke:c:ok', 'poke:d:denied'],
  );
  assert.equal(cards[2].liveOutput, 'working…');
  assertEnvelopeInvariants(h.envelopes());
});

test('maxSteps ends a looping agent turn with a clear message', async () => {
  const call = (id: string): ProviderEvent[] => [
    { type: 'tool_call', call: { id, name: 'peek', argumentsJson: '{"path":"x"}' } },
    { type: 'done', stopReason: 'tool_calls' },
  ];
  const provider = new ScriptedProvider([call('a'), call('b'), call('c'), call('d')]);
  const h = createHarness({ provider, tools: [readTool([], 1)], maxSteps: 3 });
  await h.controller.send('r1', 'loop', 'agent');
  assert.equal(provider.requests.length, 3);
  assert.match(textOf(h.envelopes('r1')) + JSON.stringify(h.envelopes('r1')), /sextant\.agent\.maxSteps/);
  assert.equal(h.envelopes('r1').at(-1)!.event.type, 'complete');
});

test('new chat keeps the old one in history, and resume restores its messages and context', async () => {
  const provider = new ScriptedProvider([
    [{ type: 'text', text: 'first answer' }, done],
    [{ type: 'text', text: 'resumed' }, done],
  ]);
  const h = createHarness({ provider });
  await h.controller.send('r1', 'first question', 'chat');
  const oldId = h.controller.sessionId;
  await h.controller.newChat();
  assert.notEqual(h.controller.sessionId, oldId);
  assert.equal((await h.controller.snapshot()).messages.length, 0);
  await h.controller.postHistory();
  const history = h.posts.filter((p) => p.type === 'history').at(-1);
  assert.ok(
    history &&
      history.type === 'history' &&
      history.sessions.some((s) => s.id === oldId && s.title === 'First question'),
  );
  assert.equal(await h.controller.resume(oldId), true);
  const snap = await h.controller.snapshot();
  assert.equal(snap.messages.length, 2);
  await h.controller.send('r2', 'again', 'chat');
  assert.deepEqual(
    provider.requests[1].messages.map((m) => m.role),
    ['user', 'assistant', 'user'],
  );
});

test('history pages of 100 with hasMore, the next page from an offset, a reload keeps what was loaded', async () => {
  const h = createHarness({ provider: new ScriptedProvider([]) });
  for (let i = 0; i < 250; i++)
    h.persistence.append({
      kind: 'session_created',
      sessionId: `s${i}`,
      title: `T${i}`,
      mode: 'chat',
      model: 'm',
      at: i,
    });
  const history = () => {
    const last = h.posts.filter((p) => p.type === 'history').at(-1);
    assert.ok(last?.type === 'history');
    return last;
  };
  await h.controller.postHistory();
  assert.equal(history().sessions.length, 100);
  assert.equal(history().sessions[0].id, 's249', 'newest first');
  assert.equal(history().hasMore, true);
  await h.controller.postHistory(undefined, { offset: 100 });
  assert.equal(history().offset, 100);
  assert.equal(history().sessions[0].id, 's149');
  await h.controller.postHistory(undefined, { offset: 200 });
  assert.deepEqual([history().sessions.length, history().hasMore, history().sessions.at(-1)?.id], [50, false, 's0']);
  // After a rename (or delete, undo) the view's 250 loaded rows come back in one message from the top.
  await h.controller.postHistory(undefined, { reload: true });
  assert.deepEqual([history().offset, history().sessions.length, history().hasMore], [0, 250, false]);
});

test('a failing journal never crashes a turn', async () => {
  const provider = new ScriptedProvider([[{ type: 'text', text: 'fine' }, done]]);
  const h = createHarness({ provider });
  h.persistence.failNextAppend = true;
  await h.controller.send('r1', 'hi', 'chat');
  assert.equal(h.envelopes('r1').at(-1)!.event.type, 'complete');
});

test('cards stay apart and in order when a server reuses tool-call ids on every step', async () => {
  const log: string[] = [];
  const step = (path: string, text: string): ProviderEvent[] => [
    { type: 'text', text },
    { type: 'tool_call', call: { id: 'call_0', name: 'peek', argumentsJson: JSON.stringify({ path }) } },
    { type: 'done', stopReason: 'tool_calls' },
  ];
  const provider = new ScriptedProvider([
    step('a', 'first. '),
    step('b', 'second. '),
    [{ type: 'text', text: 'end.' }, done],
  ]);
  const h = createHarness({ provider, tools: [readTool(log, 1)] });
  await h.controller.send('r1', 'go', 'agent');
  const parts = (await h.controller.snapshot()).messages.at(-1)!.parts;
  assert.deepEqual(
    parts.map((p) => (p.type === 'tool' ? `tool:${p.call.subject}` : p.type === 'text' ? p.text : p.type)),
    ['first. ', 'tool:a', 'second. ', 'tool:b', 'end.'],
  );
  // The model still sees its own ids.
  assert.deepEqual(
    provider.requests[2].messages.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])),
    ['call_0', 'call_0'],
  );
});

test('without a permission policy, "Always allow" approves that call only (nowhere to save a rule)', async () => {
  const log: string[] = [];
  const call = (id: string, path: string): ProviderEvent[] => [
    { type: 'tool_call', call: { id, name: 'poke', argumentsJson: JSON.stringify({ path }) } },
    { type: 'done', stopReason: 'tool_calls' },
  ];
  const provider = new ScriptedProvider([call('a', 'x'), call('b', 'y'), [{ type: 'text', text: 'ok' }, done]]);
  const h = createHarness({ provider, tools: [writeTool(log)] });
  const sending = h.controller.send('r1', 'write twice', 'agent');
  for (let i = 0; i < 5000 && !h.envelopes('r1').some((e) => e.event.type === 'approval_needed'); i++)
    await new Promise((r) => setTimeout(r, 2));
  h.controller.approve('a#1.0', { decision: 'always' });
  for (let i = 0; i < 5000 && h.envelopes('r1').filter((e) => e.event.type === 'approval_needed').length < 2; i++)
    await new Promise((r) => setTimeout(r, 2));
  h.controller.approve('b#2.0', { decision: 'approve' });
  await sending;
  assert.deepEqual(log, ['write x', 'write y']);
  assert.equal(h.envelopes('r1').filter((e) => e.event.type === 'approval_needed').length, 2, 'asked again');
});

test('one parse per call serves its card, approval and run; invalid arguments fail without asking', async () => {
  let parses = 0;
  const counted = defineTool({
    name: 'poke',
    description: 'writes',
    kind: 'write',
    permission: { subject: 'text', text: () => '' },
    modes: ['agent'],
    input: z.object({ path: z.string() }).transform((i) => {
      parses++;
      return i;
    }),
    subject: (i) => i.path,
    describeForApproval: async (i) => `write ${i.path}`,
    execute: async (i) => ({ forModel: `wrote ${i.path}`, forUi: `wrote ${i.path}`, isError: false }),
  });
  const provider = new ScriptedProvider([
    [
      { type: 'tool_call', call: { id: 'a', name: 'poke', argumentsJson: '{"path":"x"}' } },
      { type: 'tool_call', call: { id: 'b', name: 'poke', argumentsJson: '{"paht":"y"}' } },
      { type: 'done', stopReason: 'tool_calls' },
    ],
    [{ type: 'text', text: 'ok' }, done],
  ]);
  const h = createHarness({ provider, tools: [counted] });
  const sending = h.controller.send('r1', 'write', 'agent');
  const approvals = () =>
    h.envelopes('r1').flatMap((e) => (e.event.type === 'approval_needed' ? [e.event.approval] : []));
  for (let i = 0; i < 5000 && approvals().length === 0; i++) await new Promise((r) => setTimeout(r, 2));
  assert.deepEqual(
    approvals().map((a) => [a.callId, a.detail]),
    [['a#1.0', 'write x']],
  );
  h.controller.approve('a#1.0', { decision: 'approve' });
  await sending;
  assert.equal(parses, 1, 'the valid call was parsed once');
  assert.equal(approvals().length, 1, 'the invalid call asked for nothing');
  const results = provider.requests[1].messages.flatMap((m) => (m.role === 'tool' ? [m] : []));
  assert.deepEqual(
    results.map((m) => m.isError),
    [false, true],
  );
  assert.match(JSON.stringify(results[1].content), /Invalid arguments for poke/);
  const snap = await h.controller.snapshot();
  const cards = snap.messages.at(-1)?.parts.flatMap((p) => (p.type === 'tool' ? [p.call] : [])) ?? [];
  assert.deepEqual(
    cards.map((c) => c.status),
    ['ok', 'error'],
  );
});

test('a step with more tool calls than the limit runs the first ones and asks for the rest again', async () => {
  const log: string[] = [];
  const calls: ProviderEvent[] = Array.from({ length: MAX_CALLS_PER_STEP + 4 }, (_, i) => ({
    type: 'tool_call' as const,
    call: { id: `c${i}`, name: 'peek', argumentsJson: JSON.stringify({ path: `f${i}` }) },
  }));
  const provider = new ScriptedProvider([
    [...calls, { type: 'done', stopReason: 'tool_calls' }],
    [{ type: 'text', text: 'ok' }, done],
  ]);
  const h = createHarness({ provider, tools: [readTool(log, 0)] });
  await h.controller.send('r1', 'read many', 'agent');
  assert.equal(log.filter((l) => l.startsWith('start')).length, MAX_CALLS_PER_STEP);
  const results = provider.requests[1].messages.filter((m) => m.role === 'tool');
  assert.equal(results.length, MAX_CALLS_PER_STEP + 4, 'every call gets an answer');
  assert.match(JSON.stringify(results.at(-1)), /at most 16 tool calls/);
});
