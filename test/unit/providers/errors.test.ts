// Every failure of both provider kinds surfaces as a ProviderError with a message for the user:
// 401, 429 (retried by the SDK, then surfaced; or recovered), 500, a dropped connection, an
// unreachable endpoint. Retry delays are kept tiny with `retry-after-ms: 1`.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { retryAfterMs } from '../../../extension/core/providers/errors';
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm';
import { collect, KINDS, request } from './harness';

let fake: FakeLlm;
before(async () => {
  fake = await startFakeLlm();
});
after(() => fake.close());
beforeEach(() => fake.reset());

const QUICK_RETRY = { 'retry-after-ms': '1' };

/** A port that nothing listens on: bound once, then released. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

for (const k of KINDS) {
  describe(`${k.kind} provider errors`, () => {
    test('401 is reported as a refused key, without retrying', async () => {
      fake.enqueue({ status: 401, errorMessage: 'invalid x-api-key' });
      const r = await collect(k.make(fake).stream(request(), new AbortController().signal));
      assert.equal(r.error?.code, 'auth');
      assert.equal(r.error?.status, 401);
      assert.match(r.error?.message ?? '', /^The API key for fakeai was refused \(401\)/);
      assert.match(r.error?.message ?? '', /Sextant: Set API Key/);
      assert.match(r.error?.message ?? '', /FAKE_KEY/);
      assert.doesNotMatch(r.error?.message ?? '', /sk-test/, 'the key itself is never in the message');
      assert.equal(fake.requests.length, 1);
    });

    test('429 is retried by the SDK, then surfaced as rate_limit with the wait it asked for', async () => {
      for (let i = 0; i < 3; i++) fake.enqueue({ status: 429, headers: { ...QUICK_RETRY } });
      const r = await collect(k.make(fake).stream(request(), new AbortController().signal));
      assert.equal(r.error?.code, 'rate_limit');
      assert.equal(r.error?.status, 429);
      assert.match(r.error?.message ?? '', /rate-limiting/);
      assert.equal(r.error?.retryAfterMs, 1);
      assert.equal(fake.requests.length, 3, 'one request and two retries');
    });

    test('a 429 followed by a success streams the answer', async () => {
      fake.enqueue({ status: 429, headers: { ...QUICK_RETRY } }, { text: 'Recovered fine.' });
      const r = await collect(k.make(fake).stream(request(), new AbortController().signal));
      assert.equal(r.error, undefined);
      assert.equal(r.text, 'Recovered fine.');
      assert.equal(fake.requests.length, 2);
    });

    test('500 after retries is a server error quoting the API', async () => {
      for (let i = 0; i < 3; i++)
        fake.enqueue({ status: 500, headers: { ...QUICK_RETRY }, errorMessage: 'upstream exploded' });
      const r = await collect(k.make(fake).stream(request(), new AbortController().signal));
      assert.equal(r.error?.code, 'server');
      assert.equal(r.error?.status, 500);
      assert.match(r.error?.message ?? '', /server error \(500\)/);
      assert.match(r.error?.message ?? '', /upstream exploded/);
      assert.equal(fake.requests.length, 3);
    });

    test('400 is a bad request, not retried', async () => {
      fake.enqueue({ status: 400, errorMessage: 'messages: field required' });
      const r = await collect(k.make(fake).stream(request(), new AbortController().signal));
      assert.equal(r.error?.code, 'bad_request');
      assert.match(r.error?.message ?? '', /field required/);
      assert.equal(fake.requests.length, 1);
    });

    test('a connection dropped mid-stream is unreachable, after the first token', async () => {
      fake.enqueue({ text: 'alpha beta gamma delta epsilon zeta eta theta', dropAfterChunks: 5 });
      const r = await collect(k.make(fake).stream(request(), new AbortController().signal));
      assert.equal(r.error?.code, 'unreachable');
      assert.equal(r.error?.afterFirstToken, true);
      assert.ok(r.text.length > 0 && r.text !== 'alpha beta gamma delta epsilon zeta eta theta');
      assert.ok(r.error?.message.includes(k.baseUrlOf(fake)), r.error?.message);
      assert.ok(!r.events.some((e) => e.type === 'done'));
      assert.equal(await fake.requests[0]?.settled, 'dropped');
    });

    test('a connection dropped right after the headers is unreachable, before the first token', async () => {
      fake.enqueue({ text: 'never seen', dropAfterChunks: 0 });
      const r = await collect(k.make(fake).stream(request(), new AbortController().signal));
      assert.equal(r.error?.code, 'unreachable');
      assert.equal(r.error?.afterFirstToken, false);
      assert.equal(r.text, '');
    });
  });
}

test('an unreachable endpoint names its base URL (both kinds, after the SDK retries)', async () => {
  const port = await deadPort();
  const dead = { baseUrl: `http://127.0.0.1:${port}` };
  const results = await Promise.all(
    KINDS.map((k) => collect(k.make(dead).stream(request(), new AbortController().signal))),
  );
  KINDS.forEach((k, i) => {
    const error = results[i]?.error;
    assert.equal(error?.code, 'unreachable', k.kind);
    assert.ok(error?.message.includes(k.baseUrlOf(dead)), error?.message);
    assert.match(error?.message ?? '', /fakeai/);
    assert.match(error?.message ?? '', /connection refused/);
  });
});

for (const k of KINDS) {
  test(`${k.kind}: a stream that ends cleanly but early is not taken for a whole answer`, async () => {
    fake.reset();
    fake.enqueue({ text: 'one two three four five', endAfterChunks: 4 });
    const r = await collect(k.make(fake).stream(request(), new AbortController().signal));
    assert.equal(r.error?.code, 'unreachable');
    assert.match(r.error?.message ?? '', /ended before the answer was complete/);
    assert.ok(!r.events.some((e) => e.type === 'done'));
  });
}

describe('retryAfterMs', () => {
  test('reads retry-after-ms, then retry-after seconds or HTTP date', () => {
    assert.equal(retryAfterMs(new Headers({ 'retry-after-ms': '250' })), 250);
    assert.equal(retryAfterMs(new Headers({ 'retry-after': '3' })), 3000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }), now), 10_000);
    assert.equal(retryAfterMs(new Headers({})), undefined);
    assert.equal(retryAfterMs(undefined), undefined);
  });
});

for (const k of KINDS) {
  test(`${k.kind}: a 429 asking for a long wait is surfaced at once, saying how long`, async () => {
    fake.reset();
    fake.enqueue({ status: 429, headers: { 'retry-after': '3600' } }, { text: 'should not be reached' });
    const r = await collect(k.make(fake).stream(request(), new AbortController().signal));
    assert.equal(r.error?.code, 'rate_limit');
    assert.equal(r.error?.retryAfterMs, 3_600_000);
    assert.match(r.error?.message ?? '', /wait 3600 s/);
    assert.equal(fake.requests.length, 1);
  });
}

for (const k of KINDS) {
  test(`${k.kind}: an error event inside the stream is a server error quoting it`, async () => {
    fake.reset();
    fake.enqueue({
      text: 'partial answer here and more',
      streamError: { afterChunks: 4, message: 'Overloaded right now' },
    });
    const r = await collect(k.make(fake).stream(request(), new AbortController().signal));
    assert.equal(r.error?.code, 'server');
    assert.match(r.error?.message ?? '', /Overloaded right now/);
    assert.equal(r.error?.afterFirstToken, true);
  });
}
