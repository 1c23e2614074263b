// The first request's path rehearsed ahead (platform/net/warm-request-path.ts): the real OpenAI and
// Anthropic SDK clients send one request to the throwaway 127.0.0.1 server, which refuses it — once, no
// retry — and the rehearsal ends without an error. The registry's rehearsal client is of the model's kind,
// with a placeholder key and none of the config's headers, and is not the request's client.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { rehearseModelRequest } from '../../../extension/platform/net/warm-request-path';
import { createProvider as openai } from '../../../extension/core/providers/openai';
import { createProvider as anthropic } from '../../../extension/core/providers/anthropic';
import type { Provider, ProviderConfig } from '../../../extension/core/providers/types';
import { mergeProviderConfigs, ProviderRegistry } from '../../../extension/core/providers/registry';

/** Requests Node's HTTP client sends while `run` runs: origin, method and path. */
async function requestsDuring(run: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const onCreate = (message: unknown) => {
    const r = (message as { request: { origin: unknown; method: string; path: string } }).request;
    seen.push(`${r.method} ${String(r.origin)}${r.path}`);
  };
  subscribe('undici:request:create', onCreate);
  try {
    await run();
  } finally {
    unsubscribe('undici:request:create', onCreate);
  }
  return seen;
}

for (const [kind, create] of [
  ['openai', openai],
  ['anthropic', anthropic],
] as const) {
  test(`the ${kind} SDK's request path runs once against a local throwaway server: refused, not retried`, async () => {
    const made: string[] = [];
    const rehearsal = (baseUrl: string): Provider => {
      made.push(baseUrl);
      const config: ProviderConfig = { name: 'rehearsed', kind, baseUrl, models: ['m'] };
      return create(config, 'sextant-warm-up');
    };
    const seen = await requestsDuring(() => rehearseModelRequest(rehearsal, 'm'));
    assert.equal(made.length, 1);
    assert.match(made[0], /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    assert.equal(seen.length, 1, `one request, no retry: ${seen.join(', ')}`);
    assert.ok(seen[0].startsWith(`POST ${made[0].replace(/\/v1$/, '')}`), seen[0]);
  });
}

test("the registry's rehearsal client: the model's kind, a placeholder key, none of the config's headers", async () => {
  const made: Array<{ baseUrl: string | undefined; apiKey: string | undefined; headers: unknown }> = [];
  const { configs } = mergeProviderConfigs([
    { name: 'team', kind: 'openai', baseUrl: 'https://llm.example/v1', models: ['m'], headers: { 'x-team': 't' } },
  ]);
  const registry = new ProviderRegistry({
    configs,
    secrets: {
      get: async (k) => (k === 'sextant.apiKey.team' ? 'sk-real' : undefined),
      set: async () => {},
      delete: async () => {},
    },
    env: {},
    loadKind: async (kind) => ({
      createProvider: (config, apiKey) => {
        made.push({ baseUrl: config.baseUrl, apiKey, headers: config.headers });
        return { name: config.name, kind, stream: async function* () {} };
      },
    }),
  });
  const warmed = await registry.warm('team/m');
  assert.deepEqual(
    { baseUrl: warmed?.baseUrl, kind: warmed?.kind, model: warmed?.model },
    {
      baseUrl: 'https://llm.example/v1',
      kind: 'openai',
      model: 'm',
    },
  );
  const client = warmed?.rehearsal?.('http://127.0.0.1:9/v1');
  assert.ok(client);
  assert.notEqual(client, (await registry.resolve('team/m')).provider, 'not the request’s client');
  assert.deepEqual(made, [
    { baseUrl: 'https://llm.example/v1', apiKey: 'sk-real', headers: { 'x-team': 't' } },
    { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sextant-warm-up', headers: undefined },
  ]);
});
