// The search client around the providers: failover in the user's order, the circuit breaker that
// skips a failing provider for a while, the client-side rate limit, retry-after that is too long to
// wait for, timeouts, aborts, and the message when no provider has a key. Waits run on a virtual clock.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CircuitBreaker, DEFAULT_BREAKER } from '../../../extension/core/resilience/circuit-breaker';
import { isSearchError, type SearchError } from '../../../extension/core/web/search/errors';
import { RateLimiter } from '../../../extension/core/resilience/rate-limiter';
import { backoffMs, DEFAULT_RETRY } from '../../../extension/core/web/search/retry';
import { startFakeBrave } from '../../fixtures/research/fake-brave';
import { startFakeExa } from '../../fixtures/research/fake-exa';
import { startFakeFirecrawl } from '../../fixtures/research/fake-firecrawl';
import type { FakeSearchServer } from '../../fixtures/research/fake-search-server';
import { startFakeTavily } from '../../fixtures/research/fake-tavily';
import { signal, testClient, VirtualClock } from './helpers';

const EXA_KEY = 'exa-0123456789abcdef0123';
const TAVILY_KEY = 'tvly-0123456789abcdef0123';
const BRAVE_KEY = 'BSA0123456789abcdef0123456';
const FIRECRAWL_KEY = 'fc-0123456789abcdef0123456789ab';
const ENV = {
  EXA_API_KEY: EXA_KEY,
  TAVILY_API_KEY: TAVILY_KEY,
  BRAVE_API_KEY: BRAVE_KEY,
  FIRECRAWL_API_KEY: FIRECRAWL_KEY,
};

async function rejectsWith(p: Promise<unknown>): Promise<SearchError> {
  try {
    await p;
  } catch (err) {
    assert.ok(isSearchError(err), `expected a SearchError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the search to fail');
}

describe('failover between providers', () => {
  let exa: FakeSearchServer;
  let tavily: FakeSearchServer;
  let brave: FakeSearchServer;
  let firecrawl: FakeSearchServer;
  before(async () => {
    [exa, tavily, brave, firecrawl] = await Promise.all([
      startFakeExa({ key: EXA_KEY }),
      startFakeTavily({ key: TAVILY_KEY }),
      startFakeBrave({ key: BRAVE_KEY }),
      startFakeFirecrawl({ key: FIRECRAWL_KEY }),
    ]);
  });
  after(() => Promise.all([exa.close(), tavily.close(), brave.close(), firecrawl.close()]));
  const endpoints = () => ({
    exa: exa.baseUrl,
    tavily: tavily.baseUrl,
    brave: brave.baseUrl,
    firecrawl: firecrawl.baseUrl,
  });

  test("the user's order decides; the first provider that answers wins and the others are not asked", async () => {
    const t = testClient({ providers: ['brave', 'exa'], endpoints: endpoints(), env: ENV });
    const counts = [exa.requests.length, tavily.requests.length, brave.requests.length];
    const out = await t.client.search({ query: 'javascript flatten' }, signal());
    assert.equal(out.provider, 'brave');
    assert.deepEqual(out.skipped, []);
    assert.deepEqual(
      [exa.requests.length, tavily.requests.length, brave.requests.length],
      [counts[0], counts[1], counts[2] + 1],
    );
  });

  test('a provider without a key is passed over, and the outcome says so', async () => {
    const t = testClient({
      providers: ['exa', 'tavily'],
      endpoints: endpoints(),
      env: { TAVILY_API_KEY: TAVILY_KEY },
    });
    const out = await t.client.search({ query: 'javascript flatten' }, signal());
    assert.equal(out.provider, 'tavily');
    assert.equal(out.skipped[0].provider, 'exa');
    assert.match(out.skipped[0].reason, /no API key \(EXA_API_KEY/);
  });

  test('a failing provider fails over to the next one, after its retries', async () => {
    exa.script({ error: 'server' }, { error: 'server' }, { error: 'server' });
    const t = testClient({ providers: ['exa', 'firecrawl'], endpoints: endpoints(), env: ENV });
    const out = await t.client.search({ query: 'javascript flatten' }, signal());
    assert.equal(out.provider, 'firecrawl');
    assert.match(out.skipped[0].reason, /Exa had a server error \(500\)/);
    assert.ok(t.logs.some((l) => l.startsWith('warn web search: Exa had a server error')));
  });

  test('a retry-after longer than a research step can wait fails over at once (and is remembered)', async () => {
    exa.script({ error: 'rate_limit', retryAfter: '3600' });
    const t = testClient({ providers: ['exa', 'tavily'], endpoints: endpoints(), env: ENV });
    const before = exa.requests.length;
    const out = await t.client.search({ query: 'javascript flatten' }, signal());
    assert.equal(out.provider, 'tavily');
    assert.match(out.skipped[0].reason, /wait 3600 s/);
    assert.deepEqual(t.clock.sleeps, []);
    // The next search does not even ask Exa: it is held until the hour is over.
    const again = await t.client.search({ query: 'javascript flatten' }, signal());
    assert.equal(again.provider, 'tavily');
    assert.match(again.skipped[0].reason, /rate-limited for 3600 s more/);
    assert.equal(exa.requests.length - before, 1);
  });

  test('the circuit breaker skips a provider that keeps failing, then lets one trial through', async () => {
    const t = testClient({ providers: ['exa', 'tavily'], endpoints: endpoints(), env: ENV });
    for (let i = 0; i < DEFAULT_BREAKER.failureThreshold; i++) {
      exa.script({ error: 'server' }, { error: 'server' }, { error: 'server' });
      assert.equal((await t.client.search({ query: 'javascript flatten' }, signal())).provider, 'tavily');
    }
    const exaCalls = exa.requests.length;
    const skipped = await t.client.search({ query: 'javascript flatten' }, signal());
    assert.equal(skipped.provider, 'tavily');
    assert.match(skipped.skipped[0].reason, /skipped for 60 s more after failing: Exa had a server error/);
    assert.equal(exa.requests.length, exaCalls, 'an open breaker sends nothing');
    assert.equal((await t.client.status()).find((s) => s.id === 'exa')?.breaker, 'open');

    t.clock.advance(DEFAULT_BREAKER.cooldownMs);
    assert.equal((await t.client.status()).find((s) => s.id === 'exa')?.breaker, 'half-open');
    const back = await t.client.search({ query: 'javascript flatten' }, signal());
    assert.equal(back.provider, 'exa', 'the trial request succeeds and closes the breaker');
    assert.equal((await t.client.status()).find((s) => s.id === 'exa')?.breaker, 'closed');
  });

  test('a refused key opens the breaker at once (it will not fix itself)', async () => {
    const t = testClient({
      providers: ['exa', 'tavily'],
      endpoints: endpoints(),
      env: { ...ENV, EXA_API_KEY: 'exa-revoked-key-000000' },
    });
    await t.client.search({ query: 'javascript flatten' }, signal());
    const before = exa.requests.length;
    const out = await t.client.search({ query: 'javascript flatten' }, signal());
    assert.equal(out.provider, 'tavily');
    assert.match(out.skipped[0].reason, /skipped for 900 s more/);
    assert.equal(exa.requests.length, before);
  });

  test('"provider" is asked first; the others still stand in when it fails', async () => {
    const t = testClient({ providers: ['exa', 'tavily', 'brave'], endpoints: endpoints(), env: ENV });
    assert.equal(
      (await t.client.search({ query: 'javascript flatten', provider: 'brave' }, signal())).provider,
      'brave',
    );
    brave.script({ error: 'auth' });
    const out = await t.client.search({ query: 'javascript flatten', provider: 'brave' }, signal());
    assert.equal(out.provider, 'exa');
    assert.equal(out.skipped[0].provider, 'brave');
    const e = await rejectsWith(t.client.search({ query: 'javascript', provider: 'firecrawl' }, signal()));
    assert.equal(e.code, 'disabled');
    assert.match(e.message, /Firecrawl is not enabled: sextant\.research\.searchProviders lists exa, tavily, brave/);
  });

  test('every provider failing: one error listing each reason', async () => {
    exa.script({ error: 'quota' });
    tavily.script({ status: 404, text: 'not here' });
    const t = testClient({ providers: ['exa', 'tavily'], endpoints: endpoints(), env: ENV });
    const e = await rejectsWith(t.client.search({ query: 'javascript flatten' }, signal()));
    assert.equal(e.code, 'all_failed');
    assert.match(e.message, /^Web search failed with every enabled provider:\n- Exa: .*credits.*\n- Tavily: .*404/);
    assert.deepEqual(
      e.failures.map((f) => f.code),
      ['quota', 'bad_request'],
    );
  });

  test('a slow provider times out and the next one answers', async () => {
    exa.script({ delayMs: 2_000 }, { delayMs: 2_000 }, { delayMs: 2_000 });
    const t = testClient({
      providers: ['exa', 'brave'],
      endpoints: endpoints(),
      env: ENV,
      extra: { timeoutMs: 40, retry: { maxAttempts: 1 } },
    });
    const out = await t.client.search({ query: 'javascript flatten' }, signal());
    assert.equal(out.provider, 'brave');
    assert.match(out.skipped[0].reason, /did not answer within/);
  });

  test('a dropped connection is retried', async () => {
    firecrawl.script('drop');
    const t = testClient({ providers: ['firecrawl'], endpoints: endpoints(), env: ENV });
    const before = firecrawl.requests.length;
    const out = await t.client.search({ query: 'javascript flatten' }, signal());
    assert.equal(out.provider, 'firecrawl');
    assert.equal(firecrawl.requests.length - before, 2);
    assert.equal(firecrawl.requests.at(-2)?.status, undefined, 'the first one got no answer');
  });

  test('abort stops the search at once and is not reported as a provider failure', async () => {
    exa.script({ delayMs: 2_000 });
    const t = testClient({ providers: ['exa', 'tavily'], endpoints: endpoints(), env: ENV });
    const ac = new AbortController();
    const tavilyBefore = tavily.requests.length;
    const p = t.client.search({ query: 'javascript flatten' }, ac.signal);
    setTimeout(() => ac.abort(), 20);
    const e = await rejectsWith(p);
    assert.equal(e.code, 'aborted');
    assert.equal(tavily.requests.length, tavilyBefore, 'no failover after an abort');
    assert.equal((await t.client.status()).find((s) => s.id === 'exa')?.breaker, 'closed');
  });

  test('the client-side rate limit spaces requests to one provider', async () => {
    const sentAt: number[] = [];
    const t = testClient({
      providers: ['brave'],
      endpoints: endpoints(),
      env: ENV,
      extra: {
        fetch: (url, init) => {
          sentAt.push(t.clock.now());
          return fetch(url, init);
        },
      },
    });
    for (let i = 0; i < 3; i++) await t.client.search({ query: 'javascript flatten' }, signal());
    assert.equal(sentAt.length, 3);
    for (let i = 1; i < sentAt.length; i++)
      assert.ok(sentAt[i] - sentAt[i - 1] >= 1100, `Brave: one request per 1.1 s (sent at ${sentAt.join(', ')})`);
  });
});

describe('no key, and keys kept out of messages and logs', () => {
  test('without any key the error says exactly what to configure', async () => {
    const t = testClient({ providers: ['exa', 'tavily', 'brave', 'firecrawl'], endpoints: {} });
    const e = await rejectsWith(t.client.search({ query: 'anything at all' }, signal()));
    assert.equal(e.code, 'no_key');
    assert.match(e.message, /Run "Sextant: Set Search API Key"/);
    assert.match(e.message, /EXA_API_KEY, TAVILY_API_KEY, BRAVE_API_KEY, FIRECRAWL_API_KEY/);
    assert.match(e.message, /dashboard\.exa\.ai/);
    assert.match((await t.client.setupProblem()) ?? '', /Set Search API Key/);
    const off = testClient({ providers: [], endpoints: {} });
    assert.match((await off.client.setupProblem()) ?? '', /sextant\.research\.searchProviders is empty/);
    const ready = testClient({ providers: ['brave'], endpoints: {}, env: { BRAVE_API_KEY: BRAVE_KEY } });
    assert.equal(await ready.client.setupProblem(), undefined);
  });

  test('a key the server echoes back never reaches the message or the log', async () => {
    const secret = 'exa-secret-that-must-not-leak-42';
    const exa = await startFakeExa({ key: secret });
    try {
      exa.script({
        status: 500,
        contentType: 'application/json',
        text: JSON.stringify({ error: `bad key ${secret}` }),
      });
      const t = testClient({
        providers: ['exa'],
        endpoints: { exa: exa.baseUrl },
        env: { EXA_API_KEY: secret },
        extra: { retry: { maxAttempts: 1 } },
      });
      const e = await rejectsWith(t.client.search({ query: 'javascript' }, signal()));
      assert.match(e.message, /\[REDACTED\]/);
      assert.ok(!e.message.includes(secret));
      assert.ok(!t.logs.join('\n').includes(secret));
      assert.ok(!JSON.stringify(await t.client.status()).includes(secret));
    } finally {
      await exa.close();
    }
  });

  test('an unreachable endpoint is named, without the key', async () => {
    const t = testClient({
      providers: ['tavily'],
      endpoints: { tavily: 'http://127.0.0.1:9' },
      env: { TAVILY_API_KEY: TAVILY_KEY },
      extra: { retry: { maxAttempts: 1 } },
    });
    const e = await rejectsWith(t.client.search({ query: 'javascript' }, signal()));
    assert.equal(e.failures[0].code, 'unreachable');
    assert.match(e.message, /Could not reach Tavily at http:\/\/127\.0\.0\.1:9\/search/);
    assert.ok(!e.message.includes(TAVILY_KEY));
  });

  test("bad domain filters are the caller's to fix: no provider is asked", async () => {
    const t = testClient({ providers: ['exa'], endpoints: { exa: 'http://127.0.0.1:9' }, env: ENV });
    const e = await rejectsWith(t.client.search({ query: 'x y', allowedDomains: ['not a domain'] }, signal()));
    assert.equal(e.code, 'bad_request');
    assert.match(e.message, /allowed_domains: "not a domain" is not a domain name/);
    const both = await rejectsWith(
      t.client.search({ query: 'x y', allowedDomains: ['a.com'], blockedDomains: ['A.com'] }, signal()),
    );
    assert.match(both.message, /a\.com is both allowed and blocked/);
  });
});

describe('the parts on their own', () => {
  test('backoff doubles, is capped and jittered into its upper half', () => {
    assert.equal(
      backoffMs(1, DEFAULT_RETRY, () => 0),
      250,
    );
    assert.equal(
      backoffMs(1, DEFAULT_RETRY, () => 1),
      500,
    );
    assert.equal(
      backoffMs(3, DEFAULT_RETRY, () => 1),
      2000,
    );
    assert.equal(
      backoffMs(10, DEFAULT_RETRY, () => 1),
      DEFAULT_RETRY.maxDelayMs,
    );
  });

  test('rate limiter: parallel callers get consecutive slots instead of a burst', async () => {
    const clock = new VirtualClock();
    const limiter = new RateLimiter(1_100, clock);
    await Promise.all([limiter.acquire(signal()), limiter.acquire(signal()), limiter.acquire(signal())]);
    assert.deepEqual(clock.sleeps, [1_100, 2_200]);
  });

  test('rate limiter: holdUntil delays the next slot; waitMs reports it', async () => {
    const clock = new VirtualClock();
    const limiter = new RateLimiter(100, clock);
    await limiter.acquire(signal());
    assert.equal(limiter.waitMs(), 100);
    limiter.holdUntil(clock.now() + 5_000);
    await limiter.acquire(signal());
    assert.deepEqual(clock.sleeps, [5_000]);
  });

  test('breaker: a failed trial doubles the cooldown; success resets it', () => {
    const clock = new VirtualClock();
    const b = new CircuitBreaker({ failureThreshold: 1, cooldownMs: 1_000, maxCooldownMs: 3_000 }, clock);
    b.failure('down');
    assert.equal(b.state, 'open');
    clock.advance(1_000);
    assert.equal(b.check().allowed, true);
    assert.equal(b.check().allowed, false, 'one trial at a time');
    b.failure('still down');
    clock.advance(1_999);
    assert.equal(b.state, 'open');
    clock.advance(1);
    assert.equal(b.check().allowed, true);
    b.success();
    assert.equal(b.state, 'closed');
    b.failure('down again');
    clock.advance(1_000);
    assert.equal(b.state, 'half-open', 'the cooldown is back to its start');
  });
});
