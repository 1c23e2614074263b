// Provider resilience through the real SDKs against fake LLM servers: a 429 storm, 500s, a stream
// dropped mid-way and a provider that is down open the circuit breaker, which fails fast and closes
// again after its cooldown (a virtual clock, no real waiting); the client-side rate limit spaces
// requests; failover to the fallback model is announced, never duplicates or loses text, and keeps
// the key-binding rules.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import * as anthropic from '../../../extension/core/providers/anthropic';
import * as openai from '../../../extension/core/providers/openai';
import { failoverText, withFailover } from '../../../extension/core/providers/failover';
import { ProviderGuards } from '../../../extension/core/providers/guarded-provider';
import { originOf } from '../../../extension/core/providers/key-binding';
import { mergeProviderConfigs, ProviderRegistry } from '../../../extension/core/providers/registry';
import type { ProviderEvent } from '../../../extension/core/providers/types';
import type { SecretsPort } from '../../../extension/core/ports';
import { replyText, startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm';
import { VirtualClock } from '../../fixtures/virtual-clock';
import { collect, request } from './harness';

/** A 127.0.0.1 port with nothing listening: connections are refused (a provider that is down). */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

function memorySecrets(initial: Record<string, string> = {}): SecretsPort {
  const map = new Map(Object.entries(initial));
  return {
    get: async (k) => map.get(k),
    set: async (k, v) => void map.set(k, v),
    delete: async (k) => void map.delete(k),
  };
}

let primary: FakeLlm;
let backup: FakeLlm;
let downUrl: string;
before(async () => {
  [primary, backup] = await Promise.all([startFakeLlm(), startFakeLlm()]);
  downUrl = `http://127.0.0.1:${await deadPort()}/v1`;
});
after(() => Promise.all([primary.close(), backup.close()]));
beforeEach(() => {
  primary.reset();
  primary.onRequest(undefined);
  backup.reset();
  backup.onRequest(undefined);
});

/** Retryable answers carry a 1 ms retry-after so the SDKs' own retries take no real time. */
const quick = { 'retry-after-ms': '1' };

function setup(o: { guards?: ProviderGuards; secrets?: SecretsPort; rateLimit?: number } = {}) {
  const clock = new VirtualClock();
  const guards = o.guards ?? new ProviderGuards({ clock });
  const { configs, errors } = mergeProviderConfigs([
    {
      name: 'main',
      kind: 'openai',
      baseUrl: `${primary.baseUrl}/v1`,
      models: ['main-model'],
      apiKeyEnv: 'MAIN_KEY',
      price: { input: 1, output: 1 },
      ...(o.rateLimit ? { rateLimit: { requestsPerMinute: o.rateLimit } } : {}),
    },
    { name: 'down', kind: 'openai', baseUrl: downUrl, models: ['down-model'], apiKeyEnv: 'MAIN_KEY' },
    {
      name: 'backup',
      kind: 'anthropic',
      baseUrl: backup.baseUrl,
      models: ['backup-model'],
      apiKeyEnv: 'BACKUP_KEY',
      price: { input: 10, output: 10 },
    },
  ]);
  assert.deepEqual(errors, []);
  const registry = new ProviderRegistry({
    configs,
    secrets: o.secrets ?? memorySecrets(),
    env: { MAIN_KEY: 'sk-main', BACKUP_KEY: 'sk-backup' },
    loadKind: async (k) => (k === 'openai' ? openai : anthropic),
    guards,
  });
  return { clock, guards, registry };
}

const signal = () => new AbortController().signal;

describe('circuit breaker (real SDK, fake server)', () => {
  test('a 429 storm with retry-after opens it after 3 failures, fails fast, closes after the cooldown', async () => {
    const { clock, guards, registry } = setup();
    primary.onRequest(() => ({ status: 429, headers: quick, errorMessage: 'slow down' }));
    const errors: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { provider } = await registry.resolve('main');
      const r = await collect(provider.stream(request(), signal()));
      assert.equal(r.error?.code, 'rate_limit');
      errors.push(r.error?.message ?? '');
    }
    // Each failure came after the SDK's own retries (3 HTTP requests each).
    assert.equal(primary.requests.length, 9);
    assert.doesNotMatch(errors[1], /will not call/);
    assert.match(errors[2], /Sextant will not call main again for 30 s \(it failed 3 times in a row\)/);
    assert.equal(guards.breakerState('main'), 'open');

    const fast = await collect((await registry.resolve('main')).provider.stream(request(), signal()));
    assert.equal(fast.error?.code, 'rate_limit');
    assert.match(fast.error?.message ?? '', /main is paused: .*slow down.*tries it again in 30 s/);
    assert.equal(primary.requests.length, 9, 'no request while the breaker is open');

    clock.advance(30_000);
    assert.equal(guards.breakerState('main'), 'half-open');
    primary.onRequest(undefined);
    primary.enqueue({ text: 'Back again.' });
    const ok = await collect((await registry.resolve('main')).provider.stream(request(), signal()));
    assert.equal(ok.error, undefined);
    assert.equal(ok.text, 'Back again.');
    assert.equal(guards.breakerState('main'), 'closed');
  });

  test('a retry-after longer than the cooldown keeps it open that long', async () => {
    const { clock, guards, registry } = setup();
    primary.onRequest(() => ({ status: 429, headers: { 'retry-after': '120' } }));
    for (let i = 0; i < 3; i++) await collect((await registry.resolve('main')).provider.stream(request(), signal()));
    // Over the SDK wait bound (retry.ts): one HTTP request per call, surfaced at once.
    assert.equal(primary.requests.length, 3);
    clock.advance(60_000);
    assert.equal(guards.breakerState('main'), 'open');
    clock.advance(60_000);
    assert.equal(guards.breakerState('main'), 'half-open');
  });

  test('500s open it; a failed trial opens it again for twice as long', async () => {
    const { clock, guards, registry } = setup();
    primary.onRequest(() => ({ status: 500, headers: quick }));
    for (let i = 0; i < 3; i++) {
      const r = await collect((await registry.resolve('main')).provider.stream(request(), signal()));
      assert.equal(r.error?.code, 'server');
    }
    assert.equal(guards.breakerState('main'), 'open');
    clock.advance(30_000);
    const trial = await collect((await registry.resolve('main')).provider.stream(request(), signal()));
    assert.match(trial.error?.message ?? '', /will not call main again for 60 s \(it is still failing\)/);
    clock.advance(59_000);
    assert.equal(guards.breakerState('main'), 'open');
    clock.advance(1_000);
    primary.onRequest(undefined);
    const ok = await collect((await registry.resolve('main')).provider.stream(request(), signal()));
    assert.equal(ok.error, undefined);
    assert.equal(guards.breakerState('main'), 'closed');
  });

  test('a stream dropped mid-way counts as a failure and keeps the text shown, once', async () => {
    const { guards, registry } = setup();
    const reply = { text: 'One two three four five six seven eight.', dropAfterChunks: 4 };
    primary.onRequest(() => reply);
    let shown = '';
    for (let i = 0; i < 3; i++) {
      const r = await collect((await registry.resolve('main')).provider.stream(request(), signal()));
      assert.equal(r.error?.code, 'unreachable');
      assert.equal(r.error?.afterFirstToken, true);
      assert.ok(r.text.length > 0 && replyText(reply).startsWith(r.text), 'a prefix of the answer, not repeated');
      shown = r.text;
    }
    assert.ok(shown.length < replyText(reply).length);
    // No SDK retry after the first token: one request per call.
    assert.equal(primary.requests.length, 3);
    assert.equal(guards.breakerState('main'), 'open');
  });

  test('a provider that is down (connection refused) opens it', async () => {
    // One failure is enough here: the SDKs back off between connection retries in real time.
    const clock = new VirtualClock();
    const { guards, registry } = setup({ guards: new ProviderGuards({ clock, breaker: { failureThreshold: 1 } }) });
    const r = await collect((await registry.resolve('down')).provider.stream(request(), signal()));
    assert.equal(r.error?.code, 'unreachable');
    assert.match(r.error?.message ?? '', /Could not reach down .*connection refused.*will not call down again/);
    assert.equal(guards.breakerState('down'), 'open');
    const fast = await collect((await registry.resolve('down')).provider.stream(request(), signal()));
    assert.match(fast.error?.message ?? '', /down is paused/);
  });

  test('a refused key or a rejected request neither opens nor counts', async () => {
    const { guards, registry } = setup();
    primary.onRequest(() => ({ status: 401 }));
    for (let i = 0; i < 4; i++) {
      const r = await collect((await registry.resolve('main')).provider.stream(request(), signal()));
      assert.equal(r.error?.code, 'auth');
    }
    primary.onRequest(() => ({ status: 400 }));
    await collect((await registry.resolve('main')).provider.stream(request(), signal()));
    assert.equal(guards.breakerState('main'), 'closed');
  });
});

describe('client-side rate limit', () => {
  test('requests per minute space the requests; waits take the virtual clock, not real time', async () => {
    const { clock, registry } = setup({ rateLimit: 30 });
    for (let i = 0; i < 3; i++) {
      const r = await collect((await registry.resolve('main')).provider.stream(request(), signal()));
      assert.equal(r.error, undefined);
    }
    assert.deepEqual(clock.sleeps, [2_000, 2_000]);
    assert.equal(primary.requests.length, 3);
  });

  test('a request waiting for its slot can be stopped, and nothing is sent', async () => {
    const { clock, registry } = setup({ rateLimit: 1 });
    await collect((await registry.resolve('main')).provider.stream(request(), signal()));
    const { provider } = await registry.resolve('main');
    const stop = new AbortController();
    const pending = collect(provider.stream(request(), stop.signal));
    stop.abort(); // while it waits for its slot, a minute after the first request
    const r = await pending;
    assert.deepEqual(clock.sleeps, [60_000]);
    assert.equal(r.error?.code, 'aborted');
    assert.equal(primary.requests.length, 1);
  });

  test('unlimited without the setting', async () => {
    const { clock, registry } = setup();
    for (let i = 0; i < 3; i++) await collect((await registry.resolve('main')).provider.stream(request(), signal()));
    assert.deepEqual(clock.sleeps, []);
  });
});

function failoverEvents(events: ProviderEvent[]) {
  return events.filter((e): e is Extract<ProviderEvent, { type: 'failover' }> => e.type === 'failover');
}

describe('failover to the fallback model', () => {
  async function turnTarget(registry: ProviderRegistry, ref = 'main') {
    return withFailover(await registry.resolve(ref), {
      fallbackRef: 'backup/backup-model',
      resolve: (r) => registry.resolve(r),
    });
  }

  test('500s before any text: the fallback answers, announced first, and takes the rest of the turn', async () => {
    const { registry } = setup();
    primary.onRequest(() => ({ status: 500, headers: quick, errorMessage: 'boom' }));
    backup.enqueue({ text: 'The fallback answers.' }, { text: 'Second step.' });
    const target = await turnTarget(registry);
    const r = await collect(target.provider.stream(request(), signal()));
    assert.equal(r.error, undefined);
    assert.equal(r.text, 'The fallback answers.');
    const fo = failoverEvents(r.events);
    assert.equal(fo.length, 1);
    assert.equal(r.events[0], fo[0], 'announced before anything the fallback says');
    assert.equal(fo[0].from, 'main/main-model');
    assert.equal(fo[0].to, 'backup/backup-model');
    assert.match(fo[0].reason, /main had a server error \(500\).*boom/);
    assert.deepEqual(fo[0].price, { input: 10, output: 10 });
    assert.equal((backup.requests[0].body as { model: string }).model, 'backup-model');
    assert.equal(primary.requests.length, 3);

    // The next model call of the same turn goes straight to the fallback, without another notice.
    const next = await collect(target.provider.stream(request('next'), signal()));
    assert.equal(next.text, 'Second step.');
    assert.equal(failoverEvents(next.events).length, 0);
    assert.equal(primary.requests.length, 3);
  });

  test('a provider that is down fails over', async () => {
    const { registry } = setup();
    backup.enqueue({ text: 'Still here.' });
    const r = await collect((await turnTarget(registry, 'down')).provider.stream(request(), signal()));
    assert.equal(r.error, undefined);
    assert.equal(r.text, 'Still here.');
    assert.match(failoverEvents(r.events)[0]?.reason ?? '', /Could not reach down/);
  });

  test('an open breaker fails over at once, without calling the primary', async () => {
    const { guards, registry } = setup();
    primary.onRequest(() => ({ status: 429, headers: quick }));
    for (let i = 0; i < 3; i++) await collect((await registry.resolve('main')).provider.stream(request(), signal()));
    assert.equal(guards.breakerState('main'), 'open');
    const before = primary.requests.length;
    backup.enqueue({ text: 'Covered.' });
    const r = await collect((await turnTarget(registry)).provider.stream(request(), signal()));
    assert.equal(r.text, 'Covered.');
    assert.match(failoverEvents(r.events)[0]?.reason ?? '', /main is paused/);
    assert.equal(primary.requests.length, before);
  });

  test('a stream dropped after the first token does not fail over: the partial text stays, once', async () => {
    const { registry } = setup();
    const reply = { text: 'Alpha beta gamma delta epsilon zeta.', dropAfterChunks: 3 };
    primary.enqueue(reply);
    const r = await collect((await turnTarget(registry)).provider.stream(request(), signal()));
    assert.equal(r.error?.code, 'unreachable');
    assert.ok(r.text && replyText(reply).startsWith(r.text) && r.text.length < replyText(reply).length);
    assert.equal(failoverEvents(r.events).length, 0);
    assert.equal(backup.requests.length, 0);
  });

  test('a refused key is not failed over', async () => {
    const { registry } = setup();
    primary.enqueue({ status: 401 });
    const r = await collect((await turnTarget(registry)).provider.stream(request(), signal()));
    assert.equal(r.error?.code, 'auth');
    assert.equal(backup.requests.length, 0);
  });

  test('when the fallback fails too, one error names both', async () => {
    const { registry } = setup();
    primary.onRequest(() => ({ status: 500, headers: quick }));
    backup.onRequest(() => ({ status: 503, headers: quick }));
    const r = await collect((await turnTarget(registry)).provider.stream(request(), signal()));
    assert.equal(r.error?.code, 'server');
    assert.match(
      r.error?.message ?? '',
      /^main\/main-model failed \(main had a server error \(500\).*\); the fallback/,
    );
    assert.match(r.error?.message ?? '', /backup\/backup-model failed too: backup had a server error \(503\)/);
    assert.equal(failoverEvents(r.events).length, 0, 'never reported as answered by the fallback');
    assert.equal(r.text, '');
  });

  test("the fallback's stored key still goes only to the server it was bound to", async () => {
    const secrets = memorySecrets({
      'sextant.apiKey.backup': 'sk-stored-backup',
      // Bound to another server: without the user's yes it must not go to the fallback's base URL.
      'sextant.apiKeyOrigin.backup': originOf(primary.baseUrl) ?? '',
    });
    const { registry } = setup({ secrets });
    primary.onRequest(() => ({ status: 500, headers: quick }));
    const r = await collect((await turnTarget(registry)).provider.stream(request(), signal()));
    assert.equal(r.error?.code, 'server');
    assert.match(
      r.error?.message ?? '',
      /The fallback model backup\/backup-model could not be used: Sextant did not send/,
    );
    assert.equal(backup.requests.length, 0);
  });
});

test('the failover notice names both models and the reason, without a doubled full stop', () => {
  assert.equal(
    failoverText('a/m', 'b/n', 'a had a server error (500), even after retries. '),
    'a/m failed (a had a server error (500), even after retries); answered by fallback b/n.',
  );
});

describe('rateLimit in sextant.providers', () => {
  test('is kept when valid and skips the entry with a clear error when not', () => {
    const ok = mergeProviderConfigs([{ name: 'x', models: ['m'], rateLimit: { requestsPerMinute: 12 } }]);
    assert.deepEqual(ok.errors, []);
    assert.deepEqual(ok.configs.find((c) => c.name === 'x')?.rateLimit, { requestsPerMinute: 12 });
    const bad = mergeProviderConfigs([{ name: 'y', models: ['m'], rateLimit: { requestsPerMinute: 0 } }]);
    assert.equal(
      bad.configs.find((c) => c.name === 'y'),
      undefined,
    );
    assert.match(bad.errors[0] ?? '', /entry 1 \("y"\) was skipped: rateLimit\.requestsPerMinute/);
  });
});
