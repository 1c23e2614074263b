// Continue on an interrupted session, end to end below the UI: a window died mid-run (its records are in
// the store, its run still marked running by a writer that is gone); the next window's controller opens
// the session, Continue sends the model a valid history through the real SDK to the fake LLM server —
// every tool call answered (a synthetic "interrupted" result), the partial answer kept — and the session
// completes, no longer interrupted, in this window and after a reopen.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { ChatController } from '../../../extension/core/agent/controller';
import { CONTINUE_TEXT } from '../../../extension/core/agent/interrupted-run';
import { ProviderRegistry, mergeProviderConfigs } from '../../../extension/core/providers/registry';
import * as openai from '../../../extension/core/providers/openai';
import * as anthropic from '../../../extension/core/providers/anthropic';
import type { Envelope } from '../../../extension/protocol';
import type { SessionStore } from '../../../extension/core/store';
import { startFakeLlm } from '../../fixtures/fake-llm';
import { sdkChatServices } from './chat-services';
import { open, tempDir } from '../store/helpers';

const fakePromise = startFakeLlm();
after(async () => (await fakePromise).close());

/** A journal writer whose process is gone: pid 2^22 + 1 is above Linux's largest pid. */
const DEAD_WRITER = '4194305-deadbeef';

/** What a window that died while `read_file` ran had journaled (as the request runner journals it). */
function diedDuringTool(store: SessionStore, id: string): void {
  const rid = `${id}-req`;
  let seq = 0;
  const env = (event: Envelope['event']): Envelope => ({ requestId: rid, seq: ++seq, ts: 100 + seq, event });
  store.append({
    kind: 'session_created',
    sessionId: id,
    title: 'fix it',
    mode: 'agent',
    model: 'fake/fake-model',
    at: 1,
  });
  store.append({ kind: 'run_state', sessionId: id, requestId: rid, writer: DEAD_WRITER, at: 2 });
  store.append({
    kind: 'turn_checkpoint',
    sessionId: id,
    checkpoint: { userMessageId: `${id}-u`, requestId: rid, modelIndex: 0 },
    at: 3,
  });
  const started = {
    type: 'started' as const,
    userMessageId: `${id}-u`,
    assistantMessageId: `${id}-a`,
    text: 'Fix the failing test',
    mode: 'agent' as const,
    model: 'fake/fake-model',
  };
  const running = { callId: 'call-1', name: 'run_command', kind: 'execute' as const, subject: 'npm test' };
  store.append({
    kind: 'events',
    sessionId: id,
    at: 4,
    envelopes: [
      env(started),
      env({ type: 'text_delta', text: 'Running the tests first.' }),
      env({ type: 'tool_started', call: { ...running, status: 'running' } }),
    ],
  });
  store.append({
    kind: 'model_messages',
    sessionId: id,
    at: 5,
    messages: [
      { role: 'user', content: 'Fix the failing test' },
      {
        role: 'assistant',
        text: 'Running the tests first.',
        toolCalls: [{ id: 'call-1', name: 'run_command', argumentsJson: '{"command":"npm test"}' }],
      },
    ],
  });
}

/** What a window that died while the first answer streamed had journaled: no model history yet. */
function diedWhileStreaming(store: SessionStore, id: string): void {
  const rid = `${id}-req`;
  let seq = 0;
  const env = (event: Envelope['event']): Envelope => ({ requestId: rid, seq: ++seq, ts: 200 + seq, event });
  store.append({
    kind: 'session_created',
    sessionId: id,
    title: 'explain',
    mode: 'chat',
    model: 'fake/fake-model',
    at: 10,
  });
  store.append({ kind: 'run_state', sessionId: id, requestId: rid, writer: DEAD_WRITER, at: 11 });
  store.append({
    kind: 'turn_checkpoint',
    sessionId: id,
    checkpoint: { userMessageId: `${id}-u`, requestId: rid, modelIndex: 0 },
    at: 12,
  });
  store.append({
    kind: 'events',
    sessionId: id,
    at: 13,
    envelopes: [
      env({
        type: 'started',
        userMessageId: `${id}-u`,
        assistantMessageId: `${id}-a`,
        text: 'Explain closures',
        mode: 'chat',
        model: 'fake/fake-model',
      }),
      env({ type: 'text_delta', text: 'A closure is a function ' }),
      env({ type: 'text_delta', text: 'that keeps' }),
    ],
  });
}

function controllerOn(store: SessionStore, kind: 'openai' | 'anthropic', baseUrl: string): ChatController {
  const { configs, errors } = mergeProviderConfigs([
    { name: 'fake', kind, baseUrl, models: ['fake-model'], apiKeyEnv: 'FAKE_KEY' },
  ]);
  assert.deepEqual(errors, []);
  const registry = new ProviderRegistry({
    configs,
    secrets: { get: async () => undefined, set: async () => {}, delete: async () => {} },
    env: { FAKE_KEY: 'sk-test-123' },
    loadKind: async (k) => (k === 'openai' ? openai : anthropic),
  });
  return new ChatController(
    sdkChatServices({
      resolveModel: (ref) => registry.resolve(ref),
      defaultModel: () => 'fake/fake-model',
      post: () => undefined,
      persistence: store,
    }),
  );
}

type Wire = { role: string; content?: unknown; tool_calls?: Array<{ id: string }>; tool_call_id?: string };

/** Checks the conversation the API got is one it accepts: every tool call answered, roles in turn. */
function assertValidConversation(kind: 'openai' | 'anthropic', body: unknown): string {
  const messages = (body as { messages: Wire[] }).messages;
  if (kind === 'openai') {
    for (const [i, m] of messages.entries()) {
      for (const call of m.tool_calls ?? []) {
        const answer = messages.slice(i + 1).find((x) => x.role === 'tool' && x.tool_call_id === call.id);
        assert.ok(answer, `tool call ${call.id} has a result`);
      }
    }
    assert.equal(messages.at(-1)?.role, 'user');
  } else {
    const blocks = (m: Wire) => (Array.isArray(m.content) ? (m.content as Array<Record<string, unknown>>) : []);
    for (const [i, m] of messages.entries()) {
      if (i > 0) assert.notEqual(m.role, messages[i - 1].role, 'user and assistant alternate');
      for (const use of blocks(m).filter((b) => b.type === 'tool_use')) {
        const next = messages[i + 1];
        assert.ok(
          next && blocks(next).some((b) => b.type === 'tool_result' && b.tool_use_id === use.id),
          `tool_use ${String(use.id)} is answered in the next message`,
        );
      }
    }
    assert.equal(messages.at(-1)?.role, 'user');
  }
  return JSON.stringify(messages);
}

for (const kind of ['openai', 'anthropic'] as const) {
  test(`${kind}: Continue after a crash mid-tool and mid-stream sends a valid history and completes`, async () => {
    const fake = await fakePromise;
    fake.reset();
    const { dir, cleanup } = tempDir(`continue-${kind}`);
    try {
      const dead = await open(dir);
      diedDuringTool(dead, 'T');
      diedWhileStreaming(dead, 'S');
      await dead.close();

      const store = await open(dir);
      assert.deepEqual(
        store
          .interruptedSessions()
          .map((s) => s.id)
          .sort(),
        ['S', 'T'],
      );
      const baseUrl = kind === 'openai' ? `${fake.baseUrl}/v1` : fake.baseUrl;
      const controller = controllerOn(store, kind, baseUrl);

      fake.enqueue({ text: 'The tests pass now.' });
      assert.equal(await controller.continueInterrupted('c1', 'T'), true);
      const sentT = assertValidConversation(kind, fake.requests[0].body);
      assert.match(sentT, /Interrupted — result unknown/, 'the call that ran gets a synthetic result');
      assert.ok(sentT.includes('Running the tests first.') && sentT.includes('Fix the failing test'));
      assert.ok(sentT.includes(CONTINUE_TEXT.slice(0, 40)));

      fake.enqueue({ text: 'its surrounding variables.' });
      assert.equal(await controller.continueInterrupted('c2', 'S'), true);
      const sentS = assertValidConversation(kind, fake.requests[1].body);
      assert.ok(sentS.includes('Explain closures'), 'the user message never recorded in the history is sent');
      assert.ok(sentS.includes('A closure is a function that keeps'), 'the partial answer is sent');

      assert.deepEqual(store.interruptedSessions(), [], 'both completed: no longer interrupted');
      assert.equal(await controller.continueInterrupted('c3', 'S'), false, 'nothing to continue any more');
      await controller.dispose();
      await store.close();

      const again = await open(dir);
      assert.deepEqual(again.interruptedSessions(), []);
      const t = again.getSession('T');
      assert.deepEqual(
        t?.messages.map((m) => [m.role, m.status]),
        [
          ['user', 'done'],
          ['assistant', 'stopped'],
          ['user', 'done'],
          ['assistant', 'done'],
        ],
      );
      assert.equal(t?.messages[3].parts.map((p) => (p.type === 'text' ? p.text : '')).join(''), 'The tests pass now.');
      assert.deepEqual(
        t?.modelMessages.map((m) => m.role),
        ['user', 'assistant', 'tool', 'user', 'assistant'],
      );
      const s = again.getSession('S');
      assert.deepEqual(
        s?.modelMessages.map((m) => m.role),
        ['user', 'assistant', 'user', 'assistant'],
      );
      await again.close();
    } finally {
      cleanup();
    }
  });
}

test('the request runner marks a run: ended when it ends, still running when the window closes mid-run', async () => {
  const fake = await fakePromise;
  fake.reset();
  const { dir, cleanup } = tempDir('run-marks');
  try {
    const store = await open(dir);
    const other = await open(dir); // another window on the same storage
    const controller = controllerOn(store, 'openai', `${fake.baseUrl}/v1`);
    fake.enqueue({ text: 'Done.' });
    await controller.send('r1', 'first', 'chat');
    const id = controller.sessionId;
    assert.equal(other.runningElsewhere(id), false, 'a finished request is not running');
    fake.enqueue({ text: 'partial', hang: true });
    const sending = controller.send('r2', 'second', 'chat');
    await fake.waitForRequests(2);
    assert.equal(other.runningElsewhere(id), true, 'running, as another window sees it');
    // The window closes (reload, quit): the request stops but stays marked running, so the next start
    // lists the session as interrupted and offers Continue.
    await controller.dispose();
    await sending;
    assert.equal(other.runningElsewhere(id), true);
    await Promise.all([store.close(), other.close()]);
  } finally {
    cleanup();
  }
});
