// The fake LLM server itself: wire details the SDK tests do not pin down, scripting by responder
// and queue, and the standalone CLI process that end-to-end tests and benchmarks use.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastUserText, startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm';
import { buildFakeLlmCli, spawnFakeLlm } from '../../fixtures/fake-llm-spawn';
import { collect, KINDS, request } from './harness';

let fake: FakeLlm;
before(async () => {
  fake = await startFakeLlm({ models: ['m1', 'm2'] });
});
after(() => fake.close());
beforeEach(() => {
  fake.reset();
  fake.onRequest(undefined);
});

async function rawStream(path: string, body: unknown): Promise<string[]> {
  const res = await fetch(fake.baseUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(res.headers.get('content-type'), 'text/event-stream');
  return (await res.text()).split('\n\n').filter(Boolean);
}

describe('fake LLM wire format', () => {
  test('OpenAI: tool-call arguments split across chunks, usage chunk, then [DONE]', async () => {
    fake.enqueue({ toolCalls: [{ name: 'grep', arguments: { pattern: 'abc' }, argumentChunks: 3 }] });
    const frames = await rawStream('/v1/chat/completions', {
      model: 'x',
      stream: true,
      stream_options: { include_usage: true },
      messages: [],
    });
    assert.equal(frames.at(-1), 'data: [DONE]');
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f.slice('data: '.length)));
    const argParts = chunks
      .flatMap((c) => c.choices[0]?.delta?.tool_calls ?? [])
      .map((t: { function: { arguments: string } }) => t.function.arguments);
    assert.equal(argParts.filter(Boolean).length, 3);
    assert.equal(argParts.join(''), '{"pattern":"abc"}');
    assert.ok(chunks.at(-1).usage.prompt_tokens > 0);
    assert.equal(chunks.at(-2).choices[0].finish_reason, 'tool_calls');
  });

  test('Anthropic: named events from message_start to message_stop', async () => {
    fake.enqueue({ thinking: 'hm', text: 'hi', toolCalls: [{ name: 't', arguments: {} }] });
    const frames = await rawStream('/v1/messages', { model: 'x', stream: true, messages: [] });
    const events = frames.map((f) => f.split('\n')[0]?.replace('event: ', ''));
    assert.equal(events[0], 'message_start');
    assert.deepEqual(events.slice(-2), ['message_delta', 'message_stop']);
    const starts = frames
      .filter((f) => f.startsWith('event: content_block_start'))
      .map((f) => JSON.parse(f.split('data: ')[1] ?? '').content_block.type);
    assert.deepEqual(starts, ['thinking', 'text', 'tool_use']);
    assert.ok(frames.some((f) => f.includes('signature_delta')));
  });

  test('GET /v1/models lists the configured models; unknown routes are 404', async () => {
    const models = (await (await fetch(`${fake.baseUrl}/v1/models`)).json()) as { data: Array<{ id: string }> };
    assert.deepEqual(
      models.data.map((m) => m.id),
      ['m1', 'm2'],
    );
    assert.equal((await fetch(`${fake.baseUrl}/v2/nothing`)).status, 404);
  });

  test('the queue is used before the responder, which sees the parsed request', async () => {
    fake.onRequest((req) => ({ text: `echo: ${lastUserText(req.body)}` }));
    fake.enqueue({ text: 'queued first' });
    const k = KINDS[0];
    assert.ok(k);
    const first = await collect(k.make(fake).stream(request('ping'), new AbortController().signal));
    const second = await collect(k.make(fake).stream(request('pong'), new AbortController().signal));
    assert.equal(first.text, 'queued first');
    assert.equal(second.text, 'echo: pong');
    assert.equal(fake.queued(), 0);
    assert.deepEqual(
      fake.requests.map((r) => r.seq),
      [1, 2],
    );
  });

  test('the same script drives both formats to the same events', async () => {
    const script = {
      thinking: 'a b',
      text: 'one two three',
      toolCalls: [{ id: 'x1', name: 'ls', arguments: { path: '.' } }],
      usage: { inputTokens: 50, outputTokens: 9, cachedTokens: 10 },
    };
    const results = [];
    for (const k of KINDS) {
      fake.enqueue(script);
      const r = await collect(k.make(fake).stream(request(), new AbortController().signal));
      results.push(r.events.filter((e) => e.type !== 'thinking' || e.text !== ''));
    }
    // Thinking signatures exist only on Anthropic; everything else must match exactly.
    const strip = (events: unknown[]) =>
      JSON.parse(JSON.stringify(events, (k, v) => (k === 'signature' ? undefined : v)));
    assert.deepEqual(strip(results[0] ?? []), strip(results[1] ?? []));
  });
});

describe('fake LLM as a separate process', () => {
  test('prints its base URL, answers by script and by --tokens, exposes its request log', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fake-llm-'));
    const cli = await buildFakeLlmCli(process.cwd(), join(dir, 'cli.cjs'));
    const scriptFile = join(dir, 'script.json');
    writeFileSync(scriptFile, JSON.stringify({ rules: [{ match: 'weather', reply: { text: 'Sunny.' } }] }));
    const proc = await spawnFakeLlm(cli, ['--tokens', '20', '--chunk-delay-ms', '0', '--script', scriptFile]);
    try {
      assert.match(proc.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
      for (const k of KINDS) {
        const scripted = await collect(
          k.make(proc).stream(request('What is the weather?'), new AbortController().signal),
        );
        assert.equal(scripted.text, 'Sunny.', k.kind);
        const filler = await collect(k.make(proc).stream(request('Anything else'), new AbortController().signal));
        assert.equal(filler.text.trim().split(' ').length, 20, k.kind);
      }
      const log = (await (await fetch(`${proc.baseUrl}/_fake/requests`)).json()) as Array<{ api: string }>;
      assert.deepEqual(
        log.map((r) => r.api),
        ['openai', 'openai', 'anthropic', 'anthropic'],
      );
    } finally {
      await proc.stop();
    }
  });
});
