// A stored key goes only to the server it was stored for. Reproduces the security finding — a
// workspace's `sextant.providers` entry pointing a preset at another server — against the real
// provider code and two fake LLM servers, and tests the pure decision underneath.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { userScopeValue } from '../../../extension/core/config/user-scope';
import {
  checkKeyDestination,
  DEFAULT_BASE_URLS,
  defaultKeyOrigin,
  destinationOf,
  displayHosts,
  embedderWithKeyCheck,
  keyBindingName,
  keyVerdict,
  originOf,
  type KeyDestinationAnswer,
  type KeyDestinationQuestion,
} from '../../../extension/core/providers/key-binding';
import { lookupApiKey } from '../../../extension/core/providers/keys';
import { DEFAULT_ANTHROPIC_BASE_URL } from '../../../extension/core/providers/anthropic';
import { createProvider as createOpenAi, DEFAULT_OPENAI_BASE_URL } from '../../../extension/core/providers/openai';
import { mergeProviderConfigs, ProviderRegistry } from '../../../extension/core/providers/registry';
import { ProviderError, type ProviderConfig } from '../../../extension/core/providers/types';
import type { Embedder } from '../../../extension/core/store/embeddings';
import type { SecretsPort } from '../../../extension/core/ports';
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm';
import { collect, request } from './harness';

function memorySecrets(initial: Record<string, string> = {}): SecretsPort & { map: Map<string, string> } {
  const map = new Map(Object.entries(initial));
  return {
    map,
    get: async (k) => map.get(k),
    set: async (k, v) => void map.set(k, v),
    delete: async (k) => void map.delete(k),
  };
}

function asker(answer: KeyDestinationAnswer) {
  const asked: KeyDestinationQuestion[] = [];
  return {
    asked,
    confirm: async (q: KeyDestinationQuestion) => {
      asked.push(q);
      return answer;
    },
  };
}

const openaiPreset = mergeProviderConfigs([]).configs.find((c) => c.name === 'openai') as ProviderConfig;

describe('the finding: a workspace redirects a preset and the stored key follows', () => {
  let real: FakeLlm;
  let evil: FakeLlm;
  before(async () => {
    [real, evil] = await Promise.all([startFakeLlm(), startFakeLlm()]);
  });
  after(async () => {
    await Promise.all([real.close(), evil.close()]);
  });

  function registry(
    providers: unknown,
    secrets: SecretsPort,
    confirm?: (q: KeyDestinationQuestion) => Promise<KeyDestinationAnswer>,
  ) {
    return new ProviderRegistry({
      configs: mergeProviderConfigs(providers).configs,
      secrets,
      env: {},
      loadKind: async () => ({ createProvider: createOpenAi }),
      confirmKeyDestination: confirm,
    });
  }

  test('user-scope settings: the workspace overlay no longer changes where the key goes', async () => {
    // What VS Code's inspect('providers') reports for a cloned repository's .vscode/settings.json.
    const inspected = {
      defaultValue: [],
      globalValue: [{ name: 'mine', kind: 'openai', baseUrl: `${real.baseUrl}/v1`, models: ['m'] }],
      workspaceValue: [{ name: 'mine', baseUrl: `${evil.baseUrl}/v1` }],
    };
    const picked = userScopeValue(inspected);
    assert.deepEqual(picked.ignored, ['workspace']);
    const secrets = memorySecrets({
      'sextant.apiKey.mine': 'sk-stored-secret',
      'sextant.apiKeyOrigin.mine': real.baseUrl,
    });
    const ask = asker('no');
    const { provider } = await registry(picked.value, secrets, ask.confirm).resolve('mine/m');
    real.enqueue({ text: 'hi' });
    const r = await collect(provider.stream(request(), new AbortController().signal));
    assert.equal(r.error, undefined);
    assert.equal(real.requests.length, 1);
    assert.equal(real.requests[0].headers.authorization, 'Bearer sk-stored-secret');
    assert.equal(evil.requests.length, 0, 'the other server got nothing');
    assert.equal(ask.asked.length, 0, 'the user was not asked: the key went where it was stored for');
  });

  test('if a redirect reaches the config anyway, the key is not sent unless the user says so', async () => {
    real.reset();
    evil.reset();
    const secrets = memorySecrets({ 'sextant.apiKey.openai': 'sk-openai-secret' });
    const redirected = [{ name: 'openai', baseUrl: `${evil.baseUrl}/v1` }];
    const ask = asker('no');
    await assert.rejects(registry(redirected, secrets, ask.confirm).resolve('openai/gpt-5'), (err: unknown) => {
      assert.ok(err instanceof ProviderError);
      assert.equal(err.code, 'auth');
      const host = new URL(evil.baseUrl).host;
      assert.ok(err.message.startsWith(`Sextant did not send your openai key to ${host}: `), err.message);
      assert.match(err.message, /it was stored for api\.openai\.com/);
      return true;
    });
    assert.deepEqual(ask.asked, [
      { provider: 'openai', host: new URL(evil.baseUrl).host, boundHost: 'api.openai.com', source: 'stored' },
    ]);
    // Without a way to ask at all, the answer is no as well.
    await assert.rejects(registry(redirected, secrets).resolve('openai/gpt-5'), /did not send your openai key/);
    assert.equal(evil.requests.length, 0, 'nothing was sent');
  });

  test('"Send once" sends this time and asks again next time; "Always" rebinds the key', async () => {
    evil.reset();
    const secrets = memorySecrets({ 'sextant.apiKey.openai': 'sk-openai-secret' });
    const redirected = [{ name: 'openai', baseUrl: `${evil.baseUrl}/v1`, models: ['m'] }];
    const once = asker('once');
    const reg = registry(redirected, secrets, once.confirm);
    const { provider } = await reg.resolve('openai/m');
    evil.enqueue({ text: 'ok' });
    await collect(provider.stream(request(), new AbortController().signal));
    assert.equal(evil.requests[0]?.headers.authorization, 'Bearer sk-openai-secret');
    await reg.resolve('openai/m');
    assert.equal(once.asked.length, 2, '"once" is one request');

    const always = asker('always');
    const reg2 = registry(redirected, secrets, always.confirm);
    await reg2.resolve('openai/m');
    await reg2.resolve('openai/m');
    assert.equal(always.asked.length, 1);
    assert.equal(secrets.map.get('sextant.apiKeyOrigin.openai'), evil.baseUrl);
    // Now bound to the new host, the key no longer goes back to api.openai.com unasked.
    const back = asker('no');
    await assert.rejects(registry([], secrets, back.confirm).resolve('openai'), /to api\.openai\.com/);
    assert.equal(back.asked[0]?.boundHost, new URL(evil.baseUrl).host);
  });
});

describe('key binding', () => {
  test('origins: scheme, host and port; nothing else', () => {
    assert.equal(originOf('https://api.openai.com/v1'), 'https://api.openai.com');
    assert.equal(originOf('HTTPS://API.OpenAI.com:443/v1/'), 'https://api.openai.com');
    assert.equal(originOf('http://127.0.0.1:8080/v1'), 'http://127.0.0.1:8080');
    assert.equal(originOf('file:///etc/passwd'), undefined);
    assert.equal(originOf('not a url'), undefined);
    assert.equal(originOf(undefined), undefined);
  });

  test("a provider's destination; the SDKs' own defaults when no base URL is set", () => {
    assert.equal(DEFAULT_BASE_URLS.openai, DEFAULT_OPENAI_BASE_URL);
    assert.equal(DEFAULT_BASE_URLS.anthropic, DEFAULT_ANTHROPIC_BASE_URL);
    assert.equal(destinationOf({ kind: 'anthropic' }), 'https://api.anthropic.com');
    assert.equal(destinationOf({ kind: 'openai', baseUrl: 'https://x.example:8443/v1' }), 'https://x.example:8443');
    assert.equal(destinationOf({ kind: 'vscode-lm' }), undefined);
  });

  test('the decision is pure: only a bound origin is sent to without a question', () => {
    assert.equal(keyVerdict(['https://api.openai.com'], 'https://api.openai.com'), 'send');
    assert.equal(keyVerdict(['https://api.openai.com'], 'https://evil.example'), 'ask');
    assert.equal(keyVerdict(['https://api.openai.com'], 'http://api.openai.com'), 'ask');
    assert.equal(keyVerdict(['https://api.openai.com'], 'https://api.openai.com:8443'), 'ask');
    assert.equal(keyVerdict([undefined], 'https://api.openai.com'), 'ask');
    assert.equal(keyVerdict([undefined, 'https://a.example'], 'https://a.example'), 'send');
    assert.equal(keyVerdict(['https://api.openai.com'], undefined), 'send', 'nothing goes over the network');
  });

  test("default bindings: a preset's own server; the user's own provider's configured URL", () => {
    const mine = { name: 'mine', kind: 'openai' as const, baseUrl: 'http://10.0.0.5:8000/v1' };
    const redirectedPreset = { ...openaiPreset, baseUrl: 'https://proxy.example/v1' };
    assert.equal(defaultKeyOrigin(redirectedPreset, { source: 'stored' }), 'https://api.openai.com');
    assert.equal(
      defaultKeyOrigin(redirectedPreset, { source: 'env', envName: 'OPENAI_API_KEY' }),
      'https://api.openai.com',
    );
    // A variable the user named themselves (in user settings) goes where they pointed the provider.
    assert.equal(defaultKeyOrigin(redirectedPreset, { source: 'env', envName: 'PROXY_KEY' }), 'https://proxy.example');
    assert.equal(defaultKeyOrigin(mine, { source: 'env', envName: 'MINE_KEY' }), 'http://10.0.0.5:8000');
    assert.equal(defaultKeyOrigin(mine, { source: 'stored' }), 'http://10.0.0.5:8000');
    assert.equal(keyBindingName('mine', { source: 'stored' }), 'sextant.apiKeyOrigin.mine');
    assert.equal(keyBindingName('mine', { source: 'env', envName: 'K' }), 'sextant.envKeyOrigin.mine.K');
  });

  test('a key stored before bindings existed is bound on first use, for good', async () => {
    const secrets = memorySecrets({ 'sextant.apiKey.mine': 'k' });
    const mine: ProviderConfig = { name: 'mine', kind: 'openai', baseUrl: 'https://a.example/v1' };
    const key = await lookupApiKey(mine, secrets, {});
    assert.deepEqual(key, { value: 'k', source: 'stored' });
    await checkKeyDestination({ config: mine, key: key!, destination: destinationOf(mine), secrets });
    assert.equal(secrets.map.get('sextant.apiKeyOrigin.mine'), 'https://a.example');
    const moved = { ...mine, baseUrl: 'https://b.example/v1' };
    await assert.rejects(
      checkKeyDestination({ config: moved, key: key!, destination: destinationOf(moved), secrets }),
      /did not send your mine key to b\.example: it was stored for a\.example/,
    );
  });

  test('an environment key of a preset is asked about when the preset points elsewhere', async () => {
    const config = { ...openaiPreset, baseUrl: 'https://proxy.example/v1' };
    const key = await lookupApiKey(config, memorySecrets(), { OPENAI_API_KEY: 'sk-env' });
    assert.deepEqual(key, { value: 'sk-env', source: 'env', envName: 'OPENAI_API_KEY' });
    const ask = asker('always');
    const secrets = memorySecrets();
    await checkKeyDestination({ config, key: key!, destination: destinationOf(config), secrets, confirm: ask.confirm });
    assert.deepEqual(ask.asked, [
      {
        provider: 'openai',
        host: 'proxy.example',
        boundHost: 'api.openai.com',
        source: 'env',
        envName: 'OPENAI_API_KEY',
      },
    ]);
    assert.equal(secrets.map.get('sextant.envKeyOrigin.openai.OPENAI_API_KEY'), 'https://proxy.example');
    // Rebound, and the preset's own server stays allowed for its own variable.
    await checkKeyDestination({ config, key: key!, destination: 'https://proxy.example', secrets });
    await checkKeyDestination({ config, key: key!, destination: 'https://api.openai.com', secrets });
  });

  test('a confirm port that fails counts as no', async () => {
    const config = { ...openaiPreset, baseUrl: 'https://proxy.example/v1' };
    await assert.rejects(
      checkKeyDestination({
        config,
        key: { value: 'k', source: 'stored' },
        destination: destinationOf(config),
        secrets: memorySecrets(),
        confirm: async () => {
          throw new Error('dialog failed');
        },
      }),
      /did not send your openai key to proxy\.example/,
    );
  });

  test('hosts shown: the host, or the whole origin when only the scheme differs', () => {
    assert.deepEqual(displayHosts('https://evil.example', 'https://api.openai.com'), {
      host: 'evil.example',
      boundHost: 'api.openai.com',
    });
    assert.deepEqual(displayHosts('http://api.openai.com', 'https://api.openai.com'), {
      host: 'http://api.openai.com',
      boundHost: 'https://api.openai.com',
    });
  });

  test('embeddings: checked before the first request; the answer holds for the embedder', async () => {
    let calls = 0;
    const inner: Embedder = { model: 'e', embed: async (texts) => texts.map(() => new Float32Array([1])) };
    const spy: Embedder = {
      model: 'e',
      embed: async (t, s) => {
        calls++;
        return inner.embed(t, s);
      },
    };
    const config = { ...openaiPreset };
    const secrets = memorySecrets();
    const ask = asker('no');
    const guarded = embedderWithKeyCheck(spy, () =>
      checkKeyDestination({
        config,
        key: { value: 'k', source: 'stored' },
        destination: 'https://embed.example',
        secrets,
        confirm: ask.confirm,
        setting: 'sextant.memory.embeddings',
      }),
    );
    await assert.rejects(guarded.embed(['a']), /Check the base URL in sextant\.memory\.embeddings/);
    await assert.rejects(guarded.embed(['b']));
    assert.equal(calls, 0, 'nothing was sent');
    assert.equal(ask.asked.length, 1, 'asked once, not on every search');

    const ok = embedderWithKeyCheck(spy, async () => undefined);
    assert.equal((await ok.embed(['a', 'b'])).length, 2);
    assert.equal(calls, 1);
  });
});
