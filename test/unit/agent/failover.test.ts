// Failover below the UI: controller → registry (with rate limits and breakers) → real SDKs → two fake
// LLM servers. The primary fails, sextant.fallbackModel answers the rest of the turn, the chat says so
// plainly, the answer is the fallback's text exactly once, usage is costed at the model that answered,
// and every request ends with exactly one terminal event.
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatController } from '../../../extension/core/agent/controller';
import { createToolRegistry } from '../../../extension/core/tools/registry';
import * as anthropic from '../../../extension/core/providers/anthropic';
import * as openai from '../../../extension/core/providers/openai';
import { ProviderGuards } from '../../../extension/core/providers/guarded-provider';
import { mergeProviderConfigs, ProviderRegistry } from '../../../extension/core/providers/registry';
import type { Envelope, Outbound, RequestEvent } from '../../../extension/protocol';
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm';
import { VirtualClock } from '../../fixtures/virtual-clock';
import { assertEnvelopeInvariants, readTool, textOf } from './harness';
import { sdkChatServices } from './chat-services';

let primary: FakeLlm;
let backup: FakeLlm;
before(async () => {
  [primary, backup] = await Promise.all([startFakeLlm(), startFakeLlm()]);
});
after(() => Promise.all([primary.close(), backup.close()]));
beforeEach(() => {
  for (const f of [primary, backup]) {
    f.reset();
    f.onRequest(undefined);
  }
});

const quick500 = { status: 500, headers: { 'retry-after-ms': '1' }, errorMessage: 'overloaded' };

function setup(fallbackModel: string | undefined = 'backup/backup-model', contextWindow?: number) {
  const { configs } = mergeProviderConfigs([
    {
      name: 'main',
      kind: 'openai',
      baseUrl: `${primary.baseUrl}/v1`,
      models: ['main-model'],
      apiKeyEnv: 'MAIN_KEY',
      price: { input: 1, output: 1 },
      ...(contextWindow ? { contextWindow } : {}),
    },
    {
      name: 'backup',
      kind: 'anthropic',
      baseUrl: backup.baseUrl,
      models: ['backup-model'],
      apiKeyEnv: 'BACKUP_KEY',
      price: { input: 10, output: 10 },
    },
  ]);
  const registry = new ProviderRegistry({
    configs,
    secrets: { get: async () => undefined, set: async () => {}, delete: async () => {} },
    env: { MAIN_KEY: 'sk-main', BACKUP_KEY: 'sk-backup' },
    loadKind: async (k) => (k === 'openai' ? openai : anthropic),
    guards: new ProviderGuards({ clock: new VirtualClock() }),
  });
  const posts: Outbound[] = [];
  const toolLog: string[] = [];
  const controller = new ChatController(
    sdkChatServices({
      resolveModel: (ref) => registry.resolve(ref),
      defaultModel: () => 'main/main-model',
      fallbackModel: () => fallbackModel,
      toolsFor: (mode) => (mode === 'agent' ? createToolRegistry([readTool(toolLog, 1)]) : undefined),
      hasWorkspaceFolder: () => true,
      post: (m) => posts.push(structuredClone(m)),
      scheduler: {
        setTimeout: (fn) => setTimeout(fn, 1),
        clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
      },
    }),
  );
  const envelopes = (rid: string): Envelope[] =>
    posts.flatMap((p) => (p.type === 'events' ? p.envelopes : [])).filter((e) => e.requestId === rid);
  const events = (rid: string, type: RequestEvent['type']) => envelopes(rid).filter((e) => e.event.type === type);
  return { controller, envelopes, events, toolLog };
}

test('chat: the primary fails (500s); the fallback answers, the chat says so; next turn uses the primary', async () => {
  const { controller, envelopes, events } = setup();
  primary.onRequest(() => quick500);
  backup.enqueue({ text: 'Answer from the fallback.', usage: { inputTokens: 100, outputTokens: 10 } });
  await controller.send('r1', 'hello', 'chat');

  const envs = envelopes('r1');
  assertEnvelopeInvariants(envs);
  assert.deepEqual(
    envs.map((e) => e.event.type).filter((t) => t !== 'text_delta'),
    ['started', 'failover', 'usage', 'complete'],
  );
  assert.equal(textOf(envs), 'Answer from the fallback.');
  const fo = events('r1', 'failover')[0]?.event;
  assert.ok(fo?.type === 'failover');
  assert.equal(
    fo.text,
    'main/main-model failed (main had a server error (500), even after retries. main said: overloaded); ' +
      'answered by fallback backup/backup-model.',
  );
  assert.match(fo.reason, /main had a server error \(500\)/);
  const usage = events('r1', 'usage').at(-1)?.event;
  assert.ok(usage?.type === 'usage');
  assert.ok(Math.abs((usage.usage.costUsd ?? 0) - (110 * 10) / 1e6) < 1e-12, 'costed at the fallback price');

  const snap = await controller.snapshot();
  const answer = snap.messages.at(-1);
  assert.equal(answer?.model, 'backup/backup-model', 'the message is credited to the model that answered');
  assert.deepEqual(answer?.parts[0], { type: 'notice', notice: { kind: 'fallback', text: fo.text } });
  const shown = answer?.parts.map((p) => (p.type === 'text' ? p.text : '')).join('') ?? '';
  assert.equal(shown.split('Answer from the fallback.').length, 2, 'the answer appears exactly once');
  assert.equal(snap.model, 'main/main-model', "the session's model is unchanged");

  primary.onRequest(undefined);
  primary.enqueue({ text: 'The primary is back.' });
  await controller.send('r2', 'again', 'chat');
  assert.equal(textOf(envelopes('r2')), 'The primary is back.');
  assert.equal(events('r2', 'failover').length, 0);
  assert.equal(backup.requests.length, 1);
});

test('agent: a step-2 failure hands the rest of the turn to the fallback; each step costed at its price', async () => {
  const { controller, envelopes, events, toolLog } = setup();
  primary.enqueue({
    toolCalls: [{ name: 'peek', arguments: { path: 'a.txt' } }],
    usage: { inputTokens: 100, outputTokens: 10 },
  });
  primary.onRequest(() => quick500);
  backup.enqueue({ text: 'Read it; done.', usage: { inputTokens: 200, outputTokens: 20 } });
  await controller.send('t1', 'read a.txt', 'agent');

  const envs = envelopes('t1');
  assertEnvelopeInvariants(envs);
  assert.deepEqual(toolLog, ['start a.txt', 'end a.txt']);
  assert.equal(events('t1', 'failover').length, 1);
  assert.equal(textOf(envs), 'Read it; done.');
  assert.equal(envs.at(-1)?.event.type, 'complete');
  const usage = events('t1', 'usage').at(-1)?.event;
  assert.ok(usage?.type === 'usage');
  assert.equal(usage.usage.inputTokens, 300);
  const expected = (100 + 10) / 1e6 + ((200 + 20) * 10) / 1e6;
  assert.ok(Math.abs((usage.usage.costUsd ?? 0) - expected) < 1e-12, `${usage.usage.costUsd} != ${expected}`);
  // The fallback saw the whole turn so far: the tool call and its result.
  assert.match(JSON.stringify(backup.requests[0].body), /contents of a\.txt/);
});

test('a dropped stream after text: no failover, the partial stays once, one error terminal', async () => {
  const { controller, envelopes, events } = setup();
  primary.enqueue({ text: 'First words then the line goes dead.', dropAfterChunks: 3 });
  await controller.send('d1', 'hello', 'chat');
  const envs = envelopes('d1');
  assertEnvelopeInvariants(envs);
  const partial = textOf(envs);
  assert.ok(partial.length > 0 && 'First words then the line goes dead.'.startsWith(partial), partial);
  assert.equal(events('d1', 'failover').length, 0);
  assert.equal(backup.requests.length, 0);
  const last = envs.at(-1)?.event;
  assert.ok(last?.type === 'error' && last.error.code === 'unreachable' && /mid-answer/.test(last.error.message));
  const snap = await controller.snapshot();
  const shown = snap.messages
    .at(-1)
    ?.parts.map((p) => (p.type === 'text' ? p.text : ''))
    .join('');
  assert.equal(shown, partial);
});

test('both fail: one error terminal naming both, nothing credited to the fallback', async () => {
  const { controller, envelopes, events } = setup();
  primary.onRequest(() => quick500);
  backup.onRequest(() => quick500);
  await controller.send('b1', 'hello', 'chat');
  const envs = envelopes('b1');
  assertEnvelopeInvariants(envs);
  assert.equal(events('b1', 'failover').length, 0);
  const last = envs.at(-1)?.event;
  assert.ok(last?.type === 'error');
  assert.match(last.error.message, /main\/main-model failed .*the fallback backup\/backup-model failed too/);
  assert.equal((await controller.snapshot()).messages.at(-1)?.model, 'main/main-model');
});

test('without sextant.fallbackModel the error is the primary one', async () => {
  const { controller, envelopes } = setup('');
  primary.onRequest(() => quick500);
  await controller.send('n1', 'hello', 'chat');
  const last = envelopes('n1').at(-1)?.event;
  assert.ok(last?.type === 'error' && last.error.code === 'server' && !/fallback/.test(last.error.message));
  assert.equal(backup.requests.length, 0);
});

test('compaction before a turn never fails over (its summary is the chat model’s); the turn then does', async () => {
  // Two long turns fill a 1,500-token window past 80%: the third turn compacts first.
  const { controller, envelopes, events } = setup('backup/backup-model', 1_500);
  const isSummary = (body: unknown) => JSON.stringify(body).includes('You write the working brief');
  const long = { text: `A long answer. ${'lorem ipsum dolor sit amet '.repeat(90)}` };
  primary.enqueue(long, long);
  await controller.send('c1', 'first', 'chat');
  await controller.send('c2', 'second', 'chat');
  assert.equal(primary.requests.filter((r) => isSummary(r.body)).length, 0);
  primary.onRequest(() => quick500);
  backup.onRequest(() => ({ text: 'The fallback, with the whole history.' }));
  await controller.send('c3', 'third', 'chat');

  const envs = envelopes('c3');
  assertEnvelopeInvariants(envs);
  assert.ok(
    primary.requests.some((r) => isSummary(r.body)),
    'the summary was asked of the chat model',
  );
  assert.ok(!backup.requests.some((r) => isSummary(r.body)), 'the fallback never wrote the summary');
  assert.match(JSON.stringify(events('c3', 'notice')), /Could not compact the conversation/);
  assert.equal(events('c3', 'failover').length, 1);
  assert.equal(textOf(envs), 'The fallback, with the whole history.');
  assert.equal(envs.at(-1)?.event.type, 'complete');
});
