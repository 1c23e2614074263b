// Both provider kinds through their real SDKs against the fake LLM server: streamed text, usage,
// thinking, tool-call accumulation and abort mid-stream.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm';
import { collect, KINDS, request } from './harness';

let fake: FakeLlm;
before(async () => {
  fake = await startFakeLlm();
});
after(() => fake.close());
beforeEach(() => fake.reset());

for (const k of KINDS) {
  describe(`${k.kind} provider streaming`, () => {
    test('streams text in chunks and ends with usage and done', async () => {
      fake.enqueue({
        text: 'Hello there, how can I help?',
        usage: { inputTokens: 120, outputTokens: 7, cachedTokens: 40 },
      });
      const r = await collect(k.make(fake).stream(request(), new AbortController().signal));
      assert.equal(r.error, undefined);
      assert.equal(r.text, 'Hello there, how can I help?');
      assert.ok(r.events.filter((e) => e.type === 'text').length > 1, 'text arrives in several deltas');
      const usage = r.events.find((e) => e.type === 'usage');
      assert.deepEqual(usage, { type: 'usage', usage: { inputTokens: 120, outputTokens: 7, cachedTokens: 40 } });
      assert.deepEqual(r.events.at(-1), { type: 'done', stopReason: 'end' });
      assert.equal(r.events.at(-2)?.type, 'usage');
    });

    test('sends the key, the model and the system prompt', async () => {
      await collect(k.make(fake, 'sk-secret-123').stream(request('What is 2+2?'), new AbortController().signal));
      const req = fake.requests[0];
      assert.ok(req);
      assert.equal(req.api, k.kind);
      const auth = req.headers.authorization ?? req.headers['x-api-key'] ?? '';
      assert.match(auth, /sk-secret-123/);
      const body = req.body as {
        model: string;
        stream: boolean;
        system?: unknown;
        messages: Array<{ role: string; content: unknown }>;
      };
      assert.equal(body.model, 'fake-model');
      assert.equal(body.stream, true);
      assert.match(JSON.stringify(body), /You are terse\./);
      assert.match(JSON.stringify(body.messages.at(-1)), /What is 2\+2\?/);
    });

    test('streams thinking before the answer', async () => {
      fake.enqueue({ thinking: 'Let me think about it.', thinkingSignature: 'sig-xyz', text: 'Four.' });
      const r = await collect(k.make(fake).stream(request(), new AbortController().signal));
      assert.equal(r.error, undefined);
      assert.equal(r.thinking, 'Let me think about it.');
      assert.equal(r.text, 'Four.');
      const firstThinking = r.events.findIndex((e) => e.type === 'thinking');
      const firstText = r.events.findIndex((e) => e.type === 'text');
      assert.ok(firstThinking >= 0 && firstThinking < firstText);
      const signatures = r.events.flatMap((e) => (e.type === 'thinking' && e.signature ? [e.signature] : []));
      // Only Anthropic has signatures (needed to replay thinking blocks).
      assert.deepEqual(signatures, k.kind === 'anthropic' ? ['sig-xyz'] : []);
    });

    test('accumulates tool-call deltas into complete calls', async () => {
      fake.enqueue({
        text: 'Let me look.',
        toolCalls: [
          { id: 'c1', name: 'read_file', arguments: { path: 'src/a.ts', offset: 10 }, argumentChunks: 4 },
          { id: 'c2', name: 'grep', arguments: { pattern: 'TODO' } },
        ],
      });
      const r = await collect(k.make(fake).stream(request(), new AbortController().signal));
      assert.equal(r.error, undefined);
      const calls = r.events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));
      assert.deepEqual(calls, [
        { id: 'c1', name: 'read_file', argumentsJson: '{"path":"src/a.ts","offset":10}' },
        { id: 'c2', name: 'grep', argumentsJson: '{"pattern":"TODO"}' },
      ]);
      assert.equal(r.text, 'Let me look.');
      assert.deepEqual(r.events.at(-1), { type: 'done', stopReason: 'tool_calls' });
    });

    test('abort mid-stream ends with ProviderError aborted and closes the connection', async () => {
      fake.enqueue({ text: 'one two three four', hang: true });
      const controller = new AbortController();
      const r = await collect(k.make(fake).stream(request(), controller.signal), (e) => {
        if (e.type === 'text') controller.abort();
      });
      assert.equal(r.error?.code, 'aborted');
      assert.equal(r.error?.afterFirstToken, true);
      assert.ok(r.text.length > 0);
      assert.ok(!r.events.some((e) => e.type === 'done'));
      assert.equal(await fake.requests[0]?.settled, 'client-closed');
    });

    test('an already aborted signal sends nothing', async () => {
      const controller = new AbortController();
      controller.abort();
      const r = await collect(k.make(fake).stream(request(), controller.signal));
      assert.equal(r.error?.code, 'aborted');
      assert.equal(fake.requests.length, 0);
    });

    test('a long streamed answer arrives whole', async () => {
      fake.enqueue({ tokens: 300, tokensPerChunk: 3 });
      const r = await collect(k.make(fake).stream(request(), new AbortController().signal));
      assert.equal(r.error, undefined);
      assert.equal(r.text.trim().split(' ').length, 300);
      assert.ok(r.text.startsWith('tok0 tok1 tok2 '));
    });
  });
}

describe('openai-compatible reasoning fields', () => {
  for (const field of ['reasoning', 'reasoning_details'] as const) {
    test(`reads ${field} deltas as thinking`, async () => {
      fake.enqueue({ thinking: 'Hmm, ok.', reasoningField: field, text: 'Done.' });
      const kind = KINDS.find((c) => c.kind === 'openai');
      assert.ok(kind);
      const r = await collect(kind.make(fake).stream(request(), new AbortController().signal));
      assert.equal(r.thinking, 'Hmm, ok.');
      assert.equal(r.text, 'Done.');
    });
  }

  test('asks for usage in the stream', async () => {
    const kind = KINDS.find((c) => c.kind === 'openai');
    assert.ok(kind);
    await collect(kind.make(fake).stream(request(), new AbortController().signal));
    const body = fake.requests[0]?.body as { stream_options?: unknown } | undefined;
    assert.deepEqual(body?.stream_options, { include_usage: true });
  });
});
