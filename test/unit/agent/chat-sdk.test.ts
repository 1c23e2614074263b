// Chat mode end to end below the UI: controller → registry → real SDK → fake LLM server, both kinds.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { ChatController } from '../../../extension/core/agent/controller';
import { ProviderRegistry, mergeProviderConfigs } from '../../../extension/core/providers/registry';
import * as openai from '../../../extension/core/providers/openai';
import * as anthropic from '../../../extension/core/providers/anthropic';
import type { Envelope, Outbound } from '../../../extension/protocol';
import { startFakeLlm } from '../../fixtures/fake-llm';
import { assertEnvelopeInvariants, textOf } from './harness';
import { sdkChatServices } from './chat-services';

const fakePromise = startFakeLlm();
after(async () => (await fakePromise).close());

async function setup(kind: 'openai' | 'anthropic', opts: { env?: Record<string, string>; baseUrl?: string } = {}) {
  const fake = await fakePromise;
  const baseUrl = opts.baseUrl ?? (kind === 'openai' ? `${fake.baseUrl}/v1` : fake.baseUrl);
  const { configs, errors } = mergeProviderConfigs([
    { name: 'fake', kind, baseUrl, models: ['fake-model'], apiKeyEnv: 'FAKE_KEY', price: { input: 1, output: 1 } },
  ]);
  assert.deepEqual(errors, []);
  const registry = new ProviderRegistry({
    configs,
    secrets: { get: async () => undefined, set: async () => {}, delete: async () => {} },
    env: opts.env ?? { FAKE_KEY: 'sk-test-123' },
    loadKind: async (k) => (k === 'openai' ? openai : anthropic),
  });
  const posts: Outbound[] = [];
  const controller = new ChatController(
    sdkChatServices({
      resolveModel: (ref) => registry.resolve(ref),
      defaultModel: () => 'fake/fake-model',
      post: (m) => posts.push(m),
    }),
  );
  const envelopes = (rid: string): Envelope[] =>
    posts.flatMap((p) => (p.type === 'events' ? p.envelopes : [])).filter((e) => e.requestId === rid);
  return { fake, controller, envelopes };
}

for (const kind of ['openai', 'anthropic'] as const) {
  test(`${kind}: streams an answer with usage, and the next turn carries the context`, async () => {
    const { fake, controller, envelopes } = await setup(kind);
    fake.reset();
    fake.enqueue({ text: 'Hello **world**, here is a table.', usage: { inputTokens: 11, outputTokens: 7 } });
    fake.enqueue({ text: 'Second answer.' });
    await controller.send('a1', 'first question', 'chat');
    assert.equal(textOf(envelopes('a1')), 'Hello **world**, here is a table.');
    const usage = envelopes('a1').find((e) => e.event.type === 'usage')?.event;
    assert.ok(usage && usage.type === 'usage' && usage.usage.inputTokens === 11 && usage.usage.outputTokens === 7);
    await controller.send('a2', 'follow-up', 'chat');
    const body = JSON.stringify(fake.requests[1].body);
    for (const piece of ['first question', 'Hello **world**', 'follow-up', 'You are a test.'])
      assert.ok(body.includes(piece), `second request lacks ${piece}`);
    const h = fake.requests[0].headers;
    assert.ok(
      h.authorization === 'Bearer sk-test-123' || h['x-api-key'] === 'sk-test-123',
      'the key from apiKeyEnv is sent',
    );
    assertEnvelopeInvariants([...envelopes('a1'), ...envelopes('a2')]);
  });

  test(`${kind}: Stop mid-stream closes the connection and keeps the partial answer`, async () => {
    const { fake, controller, envelopes } = await setup(kind);
    fake.reset();
    fake.enqueue({
      text: ['partial ', 'answer ', ...Array.from({ length: 500 }, (_, i) => `more${i} `)],
      chunkDelayMs: 20,
    });
    const sending = controller.send('b1', 'long one', 'chat');
    const [req] = await fake.waitForRequests(1);
    for (let i = 0; i < 4000 && !textOf(envelopes('b1')).includes('more2 '); i++)
      await new Promise((r) => setTimeout(r, 5));
    await controller.abort('b1');
    await sending;
    assert.equal(await req.settled, 'client-closed');
    assert.deepEqual(envelopes('b1').at(-1)!.event, { type: 'aborted', partialSaved: true });
    const partial = textOf(envelopes('b1'));
    assert.ok(partial.startsWith('partial answer more0 more1 more2 ') && !partial.includes('more499'), partial);
    const snap = await controller.snapshot();
    assert.equal(snap.messages.at(-1)!.status, 'stopped');
  });

  test(`${kind}: errors are clear and recoverable — no key, key refused, unreachable`, async () => {
    const noKey = await setup(kind, { env: {} });
    await noKey.controller.send('c1', 'hi', 'chat');
    const e1 = noKey.envelopes('c1').at(-1)!.event;
    assert.ok(
      e1.type === 'error' &&
        e1.error.code === 'no_key' &&
        /Sextant: Set API Key/.test(e1.error.message) &&
        /FAKE_KEY/.test(e1.error.message),
    );

    const refused = await setup(kind);
    refused.fake.reset();
    refused.fake.enqueue({ status: 401, errorMessage: 'invalid key' });
    await refused.controller.send('c2', 'hi', 'chat');
    const e2 = refused.envelopes('c2').at(-1)!.event;
    assert.ok(e2.type === 'error' && e2.error.code === 'auth' && e2.error.recoverable, JSON.stringify(e2));
    assert.ok(!JSON.stringify(refused.envelopes('c2')).includes('sk-test-123'), 'the key never reaches the chat');

    const down = await setup(kind, { baseUrl: 'http://127.0.0.1:9/v1' });
    await down.controller.send('c3', 'hi', 'chat');
    const e3 = down.envelopes('c3').at(-1)!.event;
    assert.ok(
      e3.type === 'error' && e3.error.code === 'unreachable' && e3.error.message.includes('127.0.0.1:9'),
      JSON.stringify(e3),
    );
  });
}
