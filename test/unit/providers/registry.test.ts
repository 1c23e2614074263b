// Presets, merging of the `sextant.providers` setting, model references, the picker list, key
// lookup order and the registry that ties them together.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { noKeyMessage, resolveApiKey, secretKeyName } from '../../../extension/core/providers/keys';
import { PRESETS } from '../../../extension/core/providers/presets';
import {
  acceptsImages,
  listModelChoices,
  mergeProviderConfigs,
  ProviderRegistry,
  resolveModelRef,
  withLmModelInfo,
  type ProviderModule,
} from '../../../extension/core/providers/registry';
import { ProviderError, type ProviderConfig, type ProviderKind } from '../../../extension/core/providers/types';
import type { SecretsPort } from '../../../extension/core/ports';

function memorySecrets(initial: Record<string, string> = {}): SecretsPort & { reads: string[] } {
  const store = new Map(Object.entries(initial));
  const reads: string[] = [];
  return {
    reads,
    get: async (k) => {
      reads.push(k);
      return store.get(k);
    },
    set: async (k, v) => void store.set(k, v),
    delete: async (k) => void store.delete(k),
  };
}

function configs(user?: unknown): ProviderConfig[] {
  return mergeProviderConfigs(user).configs;
}

describe('presets', () => {
  test('cover the built-in providers, minimax first with its default model and key variable', () => {
    const names = PRESETS.map((p) => p.name);
    assert.deepEqual(names, [
      'minimax',
      'openrouter',
      'openai',
      'anthropic',
      'gemini',
      'moonshot',
      'deepseek',
      'ollama',
      'lmstudio',
      'vscode-lm',
    ]);
    const minimax = PRESETS.find((p) => p.name === 'minimax');
    assert.equal(minimax?.default, 'MiniMax-M2.1');
    assert.equal(minimax?.apiKeyEnv, 'MINIMAX_API_KEY');
    assert.equal(minimax?.kind, 'openai');
    assert.equal(PRESETS.find((p) => p.name === 'anthropic')?.kind, 'anthropic');
  });

  test('local servers need no key; every other preset names its key variable', () => {
    for (const p of PRESETS) {
      if (p.kind === 'vscode-lm') {
        // VS Code's own models: no server, no key, the models come from the editor.
        assert.deepEqual([p.keyless, p.baseUrl, p.apiKeyEnv, p.models], [true, undefined, undefined, undefined]);
        continue;
      }
      assert.ok(p.baseUrl && new URL(p.baseUrl), p.name);
      assert.ok(p.default && p.models?.includes(p.default), `${p.name} default is listed`);
      if (p.name === 'ollama' || p.name === 'lmstudio') {
        assert.equal(p.keyless, true);
        assert.match(p.baseUrl ?? '', /^http:\/\/localhost:(11434|1234)\/v1$/);
      } else {
        assert.match(p.apiKeyEnv ?? '', /^[A-Z_]+_API_KEY$/, p.name);
      }
    }
  });
});

describe('mergeProviderConfigs', () => {
  test('without settings returns the presets and no errors', () => {
    const r = mergeProviderConfigs(undefined);
    assert.equal(r.configs.length, PRESETS.length);
    assert.deepEqual(r.errors, []);
  });

  test('a user entry overrides a preset field-wise', () => {
    const r = mergeProviderConfigs([{ name: 'ollama', baseUrl: 'http://gpu-box:11434/v1', model: 'qwen3-coder' }]);
    assert.deepEqual(r.errors, []);
    const ollama = r.configs.find((c) => c.name === 'ollama');
    assert.equal(ollama?.baseUrl, 'http://gpu-box:11434/v1');
    assert.equal(ollama?.default, 'qwen3-coder');
    assert.equal(ollama?.keyless, true, 'untouched fields keep the preset value');
    assert.equal(ollama?.kind, 'openai');
    assert.equal(r.configs.length, PRESETS.length);
  });

  test('a price set by the user wins over the preset per-model table', () => {
    const r = mergeProviderConfigs([{ name: 'openai', price: { input: 9, output: 99 } }]);
    const ref = resolveModelRef('openai/gpt-5', r.configs);
    assert.ok(ref.ok);
    assert.deepEqual(ref.config.price, { input: 9, output: 99 });
  });

  test('adds new providers, defaulting to the openai kind', () => {
    const r = mergeProviderConfigs([
      {
        name: 'work-proxy',
        baseUrl: 'https://llm.example.com/v1',
        models: ['big', 'small'],
        default: 'small',
        apiKeyEnv: 'WORK_KEY',
      },
      { name: 'claude-proxy', kind: 'anthropic', baseUrl: 'https://claude.example.com', model: 'claude-x' },
    ]);
    assert.deepEqual(r.errors, []);
    const work = r.configs.find((c) => c.name === 'work-proxy');
    assert.equal(work?.kind, 'openai');
    assert.equal(work?.default, 'small');
    assert.deepEqual(work?.models, ['big', 'small']);
    assert.equal(r.configs.find((c) => c.name === 'claude-proxy')?.kind, 'anthropic');
  });

  test('bad entries are skipped with a clear error, good ones still apply', () => {
    const r = mergeProviderConfigs([
      { name: 'no-model', baseUrl: 'https://x.example.com/v1' },
      { name: 'has/slash', model: 'm' },
      { name: 'bad-url', baseUrl: 'ftp://x', model: 'm' },
      { name: 'bad-kind', kind: 'cohere', model: 'm' },
      'just a string',
      { name: 'fine', model: 'm', baseUrl: 'http://127.0.0.1:9/v1' },
    ]);
    assert.equal(r.errors.length, 5, r.errors.join('\n'));
    assert.match(r.errors[0] ?? '', /"no-model".*needs "model" or "models"/);
    assert.match(r.errors[1] ?? '', /"has\/slash".*name/);
    assert.match(r.errors[2] ?? '', /"bad-url".*baseUrl must be an http\(s\) URL/);
    assert.match(r.errors[3] ?? '', /"bad-kind".*kind/);
    assert.match(r.errors[4] ?? '', /entry 5 was skipped/);
    assert.ok(r.configs.some((c) => c.name === 'fine'));
    assert.ok(!r.configs.some((c) => c.name === 'no-model' || c.name === 'bad-url'));
  });

  test('a non-array setting is ignored with an error; it never throws', () => {
    const r = mergeProviderConfigs({ name: 'x' });
    assert.equal(r.configs.length, PRESETS.length);
    assert.match(r.errors[0] ?? '', /must be an array/);
  });

  test('an API key pasted into settings is ignored and never echoed', () => {
    const r = mergeProviderConfigs([{ name: 'openai', apiKey: 'sk-LEAKED-123' }]);
    assert.equal(r.errors.length, 1);
    assert.match(r.errors[0] ?? '', /API keys do not belong in settings/);
    assert.doesNotMatch(JSON.stringify(r), /sk-LEAKED-123/);
  });
});

describe('resolveModelRef', () => {
  const all = configs();

  test('provider/model', () => {
    const r = resolveModelRef('deepseek/deepseek-v4-pro', all);
    assert.ok(r.ok);
    assert.equal(r.config.name, 'deepseek');
    assert.equal(r.model, 'deepseek-v4-pro');
  });

  test('a bare provider name means its default model', () => {
    const r = resolveModelRef('minimax', all);
    assert.ok(r.ok);
    assert.equal(r.model, 'MiniMax-M2.1');
    assert.equal(r.config.contextWindow, 204_800);
  });

  test('model ids may contain "/" themselves', () => {
    const r = resolveModelRef('openrouter/anthropic/claude-sonnet-4', all);
    assert.ok(r.ok);
    assert.equal(r.config.name, 'openrouter');
    assert.equal(r.model, 'anthropic/claude-sonnet-4');
  });

  test('the model gets its own price and context window', () => {
    const mini = resolveModelRef('openai/gpt-5-mini', all);
    const big = resolveModelRef('openai/gpt-4.1', all);
    assert.ok(mini.ok && big.ok);
    assert.deepEqual(mini.config.price, { input: 0.25, output: 2, cachedInput: 0.025 });
    assert.equal(big.config.contextWindow, 1_047_576);
  });

  test('unknown provider or empty reference is an error naming the known providers', () => {
    const r = resolveModelRef('nope/model', all);
    assert.ok(!r.ok);
    assert.match(r.error, /Unknown provider "nope"/);
    assert.match(r.error, /minimax, openrouter/);
    assert.ok(!resolveModelRef('  ', all).ok);
  });
});

describe('listModelChoices', () => {
  test('lists every model as provider/model with key status', () => {
    const choices = listModelChoices(configs(), (name) => name === 'anthropic');
    assert.ok(choices.some((c) => c.ref === 'minimax/MiniMax-M2.1' && !c.hasKey));
    assert.ok(choices.some((c) => c.ref === 'anthropic/claude-sonnet-4-5' && c.hasKey));
    assert.ok(
      choices.some((c) => c.ref === 'ollama/llama3.2' && c.hasKey),
      'keyless providers count as having a key',
    );
    assert.equal(new Set(choices.map((c) => c.ref)).size, choices.length);
  });

  test('offers the reasoning option where the provider takes one: Anthropic thinking, OpenAI/Gemini effort', () => {
    const choices = listModelChoices(configs(), () => true);
    const of = (ref: string) => choices.find((c) => c.ref === ref)?.reasoning;
    assert.equal(of('anthropic/claude-sonnet-4-5'), 'thinking');
    assert.equal(of('openai/gpt-5'), 'effort');
    assert.equal(of('gemini/gemini-2.5-pro'), 'effort');
    assert.equal(of('minimax/MiniMax-M2.1'), undefined);
    assert.equal(of('deepseek/deepseek-v4-flash'), undefined);
    // A user entry may turn it on for an OpenAI-compatible server, or off for Anthropic.
    const user = mergeProviderConfigs([
      { name: 'deepseek', reasoning: true },
      { name: 'anthropic', reasoning: false },
    ]).configs;
    const mine = listModelChoices(user, () => true);
    assert.equal(mine.find((c) => c.ref === 'deepseek/deepseek-v4-flash')?.reasoning, 'effort');
    assert.equal(mine.find((c) => c.ref === 'anthropic/claude-sonnet-4-5')?.reasoning, undefined);
  });

  test("lists VS Code's language models when the host has some, else one entry saying none is installed", () => {
    const lm = [
      { id: 'copilot-gpt-4o', name: 'GPT-4o', vendor: 'copilot', family: 'gpt-4o', maxInputTokens: 64_000 },
      { id: 'copilot-claude', name: 'Claude', vendor: 'copilot', family: 'claude-sonnet', maxInputTokens: 80_000 },
    ];
    const some = listModelChoices(configs(), () => false, lm).filter((c) => c.ref.startsWith('vscode-lm'));
    assert.deepEqual(some, [
      { ref: 'vscode-lm/copilot-gpt-4o', label: 'VS Code · GPT-4o', hasKey: true },
      { ref: 'vscode-lm/copilot-claude', label: 'VS Code · Claude', hasKey: true },
    ]);
    const none = listModelChoices(configs(), () => false, []).filter((c) => c.ref.startsWith('vscode-lm'));
    assert.equal(none.length, 1);
    assert.match(none[0]?.unavailable ?? '', /No VS Code language model is installed.*GitHub Copilot Chat/);
    // No Language Model API at all (lmModels undefined): nothing is listed.
    assert.equal(listModelChoices(configs(), () => false).filter((c) => c.ref.startsWith('vscode-lm')).length, 0);
    // A user's vscode-lm entry narrows the list by id or family.
    const narrowed = mergeProviderConfigs([{ name: 'copilot', kind: 'vscode-lm', models: ['claude-sonnet'] }]).configs;
    assert.deepEqual(
      listModelChoices(narrowed, () => false, lm)
        .filter((c) => c.ref.startsWith('copilot'))
        .map((c) => c.ref),
      ['copilot/copilot-claude'],
    );
  });
});

describe('vscode-lm provider entries', () => {
  test('need no key: none is looked up, and a baseUrl or apiKeyEnv given is dropped with a note', async () => {
    const merged = mergeProviderConfigs([
      { name: 'copilot', kind: 'vscode-lm', baseUrl: 'https://example.com', apiKeyEnv: 'COPILOT_API_KEY' },
    ]);
    const copilot = merged.configs.find((c) => c.name === 'copilot') as ProviderConfig;
    assert.deepEqual([copilot.keyless, copilot.baseUrl, copilot.apiKeyEnv], [true, undefined, undefined]);
    assert.match(merged.errors.join('\n'), /needs no baseUrl or apiKeyEnv/);
    const secrets = memorySecrets({ 'sextant.apiKey.copilot': 'sk-should-not-be-read' });
    assert.equal(await resolveApiKey(copilot, secrets, { COPILOT_API_KEY: 'x' }), undefined);
    assert.deepEqual(secrets.reads, []);
  });

  test("a listed model's input limit becomes its context window", () => {
    const lm = [{ id: 'm1', name: 'M1', vendor: 'v', family: 'f', maxInputTokens: 128_000 }];
    const all = withLmModelInfo(configs(), lm);
    const r = resolveModelRef('vscode-lm/m1', all);
    assert.ok(r.ok && r.config.contextWindow === 128_000);
    assert.deepEqual(
      all.filter((c) => c.kind !== 'vscode-lm'),
      configs().filter((c) => c.kind !== 'vscode-lm'),
    );
  });

  test('a bare "vscode-lm" reference resolves with an empty model id (the provider takes the first model)', () => {
    const r = resolveModelRef('vscode-lm', configs());
    assert.ok(r.ok);
    assert.equal(r.model, '');
    const withId = resolveModelRef('vscode-lm/copilot-gpt-4o', configs());
    assert.ok(withId.ok && withId.model === 'copilot-gpt-4o');
  });
});

describe('keys', () => {
  const minimax = configs().find((c) => c.name === 'minimax') as ProviderConfig;

  test('secret names', () => {
    assert.equal(secretKeyName('minimax'), 'sextant.apiKey.minimax');
  });

  test('SecretStorage comes before the environment variable', async () => {
    const secrets = memorySecrets({ 'sextant.apiKey.minimax': 'from-secrets' });
    assert.equal(await resolveApiKey(minimax, secrets, { MINIMAX_API_KEY: 'from-env' }), 'from-secrets');
  });

  test('the environment variable is used when SecretStorage has nothing', async () => {
    const secrets = memorySecrets();
    assert.equal(await resolveApiKey(minimax, secrets, { MINIMAX_API_KEY: 'from-env' }), 'from-env');
    assert.deepEqual(secrets.reads, ['sextant.apiKey.minimax']);
  });

  test('a missing key is no_key with the exact instructions', async () => {
    await assert.rejects(resolveApiKey(minimax, memorySecrets(), {}), (err: unknown) => {
      assert.ok(err instanceof ProviderError);
      assert.equal(err.code, 'no_key');
      assert.equal(
        err.message,
        'No API key for "minimax". Run "Sextant: Set API Key" or set the environment variable MINIMAX_API_KEY.',
      );
      return true;
    });
    assert.equal(noKeyMessage({ name: 'x' }), 'No API key for "x". Run "Sextant: Set API Key".');
  });

  test('keyless providers never need one', async () => {
    const ollama = configs().find((c) => c.name === 'ollama') as ProviderConfig;
    assert.equal(await resolveApiKey(ollama, memorySecrets(), {}), undefined);
  });
});

describe('ProviderRegistry', () => {
  function fakeLoader() {
    const created: Array<{ kind: ProviderKind; name: string; apiKey: string | undefined }> = [];
    const loads: ProviderKind[] = [];
    const loadKind = async (kind: ProviderKind): Promise<ProviderModule> => {
      loads.push(kind);
      return {
        createProvider: (config, apiKey) => {
          created.push({ kind, name: config.name, apiKey });
          return { name: config.name, kind, stream: async function* () {} };
        },
      };
    };
    return { created, loads, loadKind };
  }

  test('resolves a reference to a provider with its key, loading the kind lazily and caching it', async () => {
    const loader = fakeLoader();
    const secrets = memorySecrets({ 'sextant.apiKey.anthropic': 'sk-ant' });
    const registry = new ProviderRegistry({ configs: configs(), secrets, env: {}, loadKind: loader.loadKind });
    assert.deepEqual(loader.loads, [], 'nothing is loaded up front');
    const a = await registry.resolve('anthropic/claude-haiku-4-5');
    const b = await registry.resolve('anthropic');
    assert.equal(a.provider, b.provider);
    assert.equal(a.model, 'claude-haiku-4-5');
    assert.equal(b.model, 'claude-sonnet-4-5');
    assert.deepEqual(a.config.price, { input: 1, output: 5, cachedInput: 0.1, cacheWrite: 1.25 });
    assert.deepEqual(loader.created, [{ kind: 'anthropic', name: 'anthropic', apiKey: 'sk-ant' }]);
  });

  test('warm loads the kind, reads the key and its binding and makes the client; it asks nothing', async () => {
    const loader = fakeLoader();
    const secrets = memorySecrets({ 'sextant.apiKey.openai': 'sk-openai' });
    let asked = 0;
    const registry = new ProviderRegistry({
      configs: configs(),
      secrets,
      env: {},
      loadKind: loader.loadKind,
      confirmKeyDestination: async () => {
        asked++;
        return 'no';
      },
    });
    const warmed = await registry.warm('openai');
    assert.equal(warmed?.baseUrl, 'https://api.openai.com/v1', 'where the first request will go');
    assert.ok(loader.loads.includes('openai'));
    assert.deepEqual([...new Set(secrets.reads)], ['sextant.apiKey.openai', 'sextant.apiKeyOrigin.openai']);
    assert.deepEqual(loader.created, [{ kind: 'openai', name: 'openai', apiKey: 'sk-openai' }]);
    assert.equal(asked, 0);
    // The first request finds the client made.
    await registry.resolve('openai');
    assert.equal(loader.created.length, 1);
    // An unknown reference or a provider without a key: no connection to open, and no error.
    assert.equal(await registry.warm('nowhere/model'), undefined);
    assert.equal(await registry.warm('deepseek'), undefined);
  });

  test('warm with a key not bound to where the request goes: nothing asked, no client, no connection', async () => {
    const loader = fakeLoader();
    const secrets = memorySecrets({
      'sextant.apiKey.openai': 'sk-openai',
      'sextant.apiKeyOrigin.openai': 'https://elsewhere.example',
    });
    let asked = 0;
    const registry = new ProviderRegistry({
      configs: configs(),
      secrets,
      env: {},
      loadKind: loader.loadKind,
      confirmKeyDestination: async () => {
        asked++;
        return 'no';
      },
    });
    assert.equal(await registry.warm('openai'), undefined);
    assert.equal(asked, 0);
    assert.deepEqual(loader.created, []);
  });

  test('a new key gives a new instance', async () => {
    const loader = fakeLoader();
    const secrets = memorySecrets({ 'sextant.apiKey.openai': 'k1' });
    const registry = new ProviderRegistry({ configs: configs(), secrets, env: {}, loadKind: loader.loadKind });
    const first = await registry.resolve('openai');
    await secrets.set('sextant.apiKey.openai', 'k2');
    const second = await registry.resolve('openai');
    assert.notEqual(first.provider, second.provider);
    assert.deepEqual(
      loader.created.map((c) => c.apiKey),
      ['k1', 'k2'],
    );
  });

  test('throws no_key for a missing key and bad_request for an unknown reference', async () => {
    const registry = new ProviderRegistry({
      configs: configs(),
      secrets: memorySecrets(),
      env: {},
      loadKind: fakeLoader().loadKind,
    });
    await assert.rejects(
      registry.resolve('minimax'),
      (err: unknown) => err instanceof ProviderError && err.code === 'no_key',
    );
    await assert.rejects(
      registry.resolve('mystery/model'),
      (err: unknown) => err instanceof ProviderError && err.code === 'bad_request',
    );
  });

  test('keyless providers resolve without any key', async () => {
    const loader = fakeLoader();
    const registry = new ProviderRegistry({
      configs: configs(),
      secrets: memorySecrets(),
      env: {},
      loadKind: loader.loadKind,
    });
    const r = await registry.resolve('lmstudio');
    assert.equal(r.provider.name, 'lmstudio');
    assert.deepEqual(loader.created, [{ kind: 'openai', name: 'lmstudio', apiKey: undefined }]);
  });

  test('a kind that fails to load is a ProviderError, and the next attempt tries again', async () => {
    let fail = true;
    const registry = new ProviderRegistry({
      configs: configs(),
      secrets: memorySecrets(),
      env: {},
      loadKind: async (kind) => {
        if (fail) throw new Error('bundle missing');
        return fakeLoader().loadKind(kind);
      },
    });
    await assert.rejects(
      registry.resolve('ollama'),
      (err: unknown) => err instanceof ProviderError && /bundle missing/.test(err.message),
    );
    fail = false;
    assert.equal((await registry.resolve('ollama')).provider.name, 'ollama');
  });
});

describe('image capability', () => {
  const { configs: merged } = mergeProviderConfigs([
    { name: 'mine', kind: 'openai', baseUrl: 'http://127.0.0.1:1/v1', models: ['m'] },
    { name: 'openai', images: false },
  ]);
  const resolved = (ref: string): ProviderConfig => {
    const r = resolveModelRef(ref, merged);
    assert.ok(r.ok, ref);
    return r.ok ? r.config : (undefined as never);
  };
  test('text-only models get no images; vision models and Anthropic do; a setting overrides a preset', () => {
    assert.equal(acceptsImages(resolved('minimax/MiniMax-M2.1')), false, 'MiniMax M2.1 is text-only');
    assert.equal(acceptsImages(resolved('mine/m')), false, 'an unknown OpenAI-compatible model gets no images');
    assert.equal(acceptsImages(resolved('anthropic')), true);
    assert.equal(acceptsImages(resolved('gemini/gemini-2.5-pro')), true);
    assert.equal(acceptsImages(resolved('openrouter/anthropic/claude-sonnet-4.5')), true);
    assert.equal(acceptsImages(resolved('openrouter/deepseek/deepseek-v4-flash')), false);
    assert.equal(acceptsImages(resolved('openai/gpt-5')), false, 'the user turned images off for openai');
  });
});
