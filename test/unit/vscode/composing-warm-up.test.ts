// The `composing` message while the user types: the view throttles it (composing-signal.ts), and the host
// (first-request-warm-up.ts) opens the model's connection again — through the real provider registry and
// Node's fetch to a local server — at most once per interval, with no key sent, no body and never a model
// request (the SDK's request path is rehearsed on a throwaway local client at each warm-up, and the
// project's rules read, read-only); with no key for the model, nothing is sent at all.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { COMPOSING_INTERVAL_MS, type Inbound, Throttle } from '../../../extension/protocol';
import { ComposingSignal } from '../../../webview/composing-signal';
import { RequestWarmUp } from '../../../extension/vscode/first-request-warm-up';
import { mergeProviderConfigs, ProviderRegistry } from '../../../extension/core/providers/registry';
import type { ProviderKind } from '../../../extension/core/providers/types';
import type { SecretsPort } from '../../../extension/core/ports';

const KEY = 'sk-composing-test-key';

/** A clock the test moves by hand. */
function clock(start = 1_000_000) {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

describe('throttle', () => {
  test('lets the first event through, then one per interval; the ones in between are dropped', () => {
    const c = clock();
    const throttle = new Throttle(2_000, c.now);
    const went: boolean[] = [];
    for (const step of [0, 500, 1_499, 1]) {
      c.advance(step);
      went.push(throttle.take());
    }
    // 0 → goes; 500, 1999 → dropped; 2000 → goes.
    assert.deepEqual(went, [true, false, false, true]);
    c.advance(1_999);
    assert.equal(throttle.take(), false);
    c.advance(1);
    assert.equal(throttle.take(), true);
  });
});

describe('the view’s composing signal', () => {
  function signal(online = true) {
    const c = clock();
    const posted: Inbound[] = [];
    const s = new ComposingSignal(
      (m) => posted.push(m),
      c.now,
      () => online,
    );
    return { s, c, posted };
  }

  test('typing posts one `composing` (nothing of the draft) per interval', () => {
    const { s, c, posted } = signal();
    for (const draft of ['H', 'He', 'Hel', 'Hell', 'Hello']) {
      s.typed(draft, false);
      c.advance(100);
    }
    assert.deepEqual(posted, [{ type: 'composing' }]);
    c.advance(COMPOSING_INTERVAL_MS);
    s.typed('Hello there', false);
    assert.deepEqual(posted, [{ type: 'composing' }, { type: 'composing' }]);
  });

  test('nothing for an empty or blank box, while a request runs, or offline', () => {
    const idle = signal();
    idle.s.typed('', false);
    idle.s.typed('   \n', false);
    idle.s.typed('while it runs', true);
    assert.deepEqual(idle.posted, []);
    // The first text after those still goes at once: the dropped ones did not use up the interval.
    idle.s.typed('now', false);
    assert.deepEqual(idle.posted, [{ type: 'composing' }]);
    const offline = signal(false);
    offline.s.typed('Hello', false);
    assert.deepEqual(offline.posted, []);
  });
});

describe('the host’s re-warm while the user types', () => {
  let server: Server;
  let baseUrl = '';
  const seen: Array<{ method: string; url: string; headers: IncomingHttpHeaders; body: string }> = [];

  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    assert.ok(address && typeof address === 'object');
    baseUrl = `http://127.0.0.1:${address.port}/v1`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** The real registry over the local server; `stream` counts model requests (there must be none). */
  function warmUpWith(secrets: Record<string, string>) {
    const store = new Map(Object.entries(secrets));
    const port: SecretsPort = {
      get: async (k) => store.get(k),
      set: async (k, v) => void store.set(k, v),
      delete: async (k) => void store.delete(k),
    };
    /** Every client made, by where it sends: the configured server's or a rehearsal's throwaway one. */
    const made: Array<{ baseUrl: string | undefined; apiKey: string | undefined; headers: unknown }> = [];
    const streamed: Array<string | undefined> = [];
    const { configs, errors } = mergeProviderConfigs([
      { name: 'local', kind: 'openai', baseUrl, models: ['m'], headers: { 'x-team-token': 'team-secret' } },
    ]);
    assert.deepEqual(errors, []);
    const registry = new ProviderRegistry({
      configs,
      secrets: port,
      env: {},
      loadKind: async (kind: ProviderKind) => ({
        createProvider: (config, apiKey) => {
          made.push({ baseUrl: config.baseUrl, apiKey, headers: config.headers });
          return {
            name: config.name,
            kind,
            stream: async function* () {
              streamed.push(config.baseUrl);
              yield* [];
            },
          };
        },
      }),
    });
    const c = clock();
    /** Each time the project's part of a request was run ahead (its result dropped). */
    let prepared = 0;
    const warmUp = new RequestWarmUp({
      warmModel: (model) => registry.warm(model),
      now: c.now,
      prepare: async () => void prepared++,
    });
    /** Model requests to the configured server (there must be none). */
    const modelRequests = () => streamed.filter((u) => u === baseUrl).length;
    return { warmUp, c, made, streamed, modelRequests, prepared: () => prepared };
  }

  test('with a key: one GET to the configured base URL per interval — no key, no body, no model request', async () => {
    seen.length = 0;
    const { warmUp, c, made, streamed, modelRequests, prepared } = warmUpWith({ 'sextant.apiKey.local': KEY });
    // A burst of keys within the interval: one connection warm-up.
    await Promise.all([warmUp.composing('local/m'), warmUp.composing('local/m'), warmUp.composing('local/m')]);
    c.advance(COMPOSING_INTERVAL_MS - 1);
    await warmUp.composing('local/m');
    assert.equal(seen.length, 1);
    assert.deepEqual(
      { method: seen[0].method, url: seen[0].url, body: seen[0].body },
      {
        method: 'GET',
        url: '/v1',
        body: '',
      },
    );
    assert.equal(seen[0].headers.authorization, undefined, 'the key never goes with a warm-up');
    assert.ok(!JSON.stringify(seen[0].headers).includes(KEY));
    // Typing on after the interval opens it again (the client closes an idle one after ~4 s).
    c.advance(1);
    await warmUp.composing('local/m');
    assert.deepEqual(
      seen.map((r) => r.method),
      ['GET', 'GET'],
    );
    assert.equal(modelRequests(), 0, 'composing never sends a model request');
    // The SDK's request path ran at each warm-up (compiled code V8 drops when idle is compiled again), on
    // throwaway clients: another URL on this machine, a placeholder key, none of the config's headers.
    assert.equal(streamed.length, 2);
    const rehearsals = made.filter((m) => m.baseUrl !== baseUrl);
    assert.equal(rehearsals.length, 2, 'a throwaway client per rehearsal');
    for (const rehearsal of rehearsals) {
      assert.ok(rehearsal.baseUrl?.startsWith('http://127.0.0.1:') && streamed.includes(rehearsal.baseUrl));
      assert.notEqual(rehearsal.apiKey, KEY);
      assert.equal(rehearsal.headers, undefined);
    }
    assert.equal(prepared(), 2, "the project's rules read ahead at each warm-up");
  });

  test('without a key, or for an unknown model: nothing is sent at all', async () => {
    seen.length = 0;
    const { warmUp, c, made, streamed, prepared } = warmUpWith({});
    await warmUp.composing('local/m');
    c.advance(COMPOSING_INTERVAL_MS);
    await warmUp.composing('nowhere/model');
    assert.deepEqual(seen, []);
    assert.equal(prepared(), 2, 'the local read-ahead still runs (nothing leaves the machine)');
    assert.deepEqual(streamed, [], 'no request, not even a rehearsal');
    assert.ok(made.every((m) => m.baseUrl === baseUrl && m.apiKey === undefined));
  });
});
