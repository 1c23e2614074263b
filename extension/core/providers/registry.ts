// The provider registry: model references ("provider/model" or a bare provider name) resolved to a
// live Provider. The SDK-backed kinds are loaded through `loadKind` on first use (each is its own
// bundle), so nothing here imports an SDK and activation stays cheap.
import type { ModelChoice } from '../../protocol';
import type { LmModelInfo, SecretsPort } from '../ports';
import { defaultModelOf } from './config';
import type { ProviderGuards } from './guarded-provider';
import { checkKeyDestination, DEFAULT_BASE_URLS, destinationOf, type ConfirmKeyDestination } from './key-binding';
import { lookupApiKey } from './keys';
import { NO_LM_MODEL_MESSAGE } from './vscode-lm';
import { type ModelInfo, ProviderError, type Provider, type ProviderConfig, type ProviderKind } from './types';
import { errorText } from '../util/error-text';
import { markFirstRequest } from '../util/first-request-trace';

export { mergeProviderConfigs, defaultModelOf } from './config';

export interface ProviderModule {
  createProvider(config: ProviderConfig, apiKey: string | undefined): Provider;
}

export type ModelRefResult = { ok: true; config: ProviderConfig; model: string } | { ok: false; error: string };

/** The config as seen for one model: its own context window and price, when the preset has them. */
export function configForModel(config: ProviderConfig, model: string): ProviderConfig {
  const info = config.modelInfo?.[model];
  return {
    ...config,
    contextWindow: info?.contextWindow ?? config.contextWindow,
    price: info?.price ?? config.price,
    images: info?.images ?? config.images,
  };
}

/**
 * Whether to send images to this model. Unknown models get none: an image sent to a text-only
 * model fails the whole request, while a vision model told "no images" still gets a text note.
 */
export function acceptsImages(config: ProviderConfig): boolean {
  return config.images ?? config.kind === 'anthropic';
}

/**
 * Accepts "provider/model" or a bare provider name (its default model). Model ids may contain "/"
 * themselves ("openrouter/anthropic/claude-sonnet-4.5"): only the first "/" separates, since
 * provider names cannot contain one. A model id outside the configured list is allowed — the list
 * feeds the picker, the API decides what exists.
 */
export function resolveModelRef(ref: string, configs: ProviderConfig[]): ModelRefResult {
  const trimmed = ref.trim();
  const known = configs.map((c) => c.name).join(', ');
  if (!trimmed)
    return { ok: false, error: `No model selected. Pick one with "Sextant: Select Model" (providers: ${known}).` };
  const slash = trimmed.indexOf('/');
  const name = slash < 0 ? trimmed : trimmed.slice(0, slash);
  const modelPart = slash < 0 ? '' : trimmed.slice(slash + 1).trim();
  const config =
    configs.find((c) => c.name === name) ?? configs.find((c) => c.name.toLowerCase() === name.toLowerCase());
  if (!config)
    return { ok: false, error: `Unknown provider "${name}" in model "${trimmed}". Known providers: ${known}.` };
  // A bare VS Code provider name means its first installed model (the provider picks it).
  const model = modelPart || defaultModelOf(config) || (config.kind === 'vscode-lm' ? '' : undefined);
  if (model === undefined)
    return { ok: false, error: `Provider "${config.name}" has no default model; use "${config.name}/<model>".` };
  return { ok: true, config: configForModel(config, model), model };
}

function modelsOf(config: ProviderConfig): string[] {
  const models = [...(config.models ?? [])];
  const def = defaultModelOf(config);
  if (def && !models.includes(def)) models.unshift(def);
  return models;
}

/** Which reasoning option the picker offers for a provider's models (see ProviderConfig.reasoning). */
export function reasoningOption(config: ProviderConfig): ModelChoice['reasoning'] {
  if (config.kind === 'anthropic') return config.reasoning === false ? undefined : 'thinking';
  if (config.kind === 'openai') return config.reasoning ? 'effort' : undefined;
  return undefined;
}

/**
 * The picker's entries for a `vscode-lm` provider: the models VS Code has (filtered by the entry's
 * `models`, ids or families, when it lists some), or one entry that cannot be chosen and says none is
 * installed. Undefined `lmModels`: this host has no Language Model API, so nothing is listed.
 */
function lmChoices(c: ProviderConfig, lmModels: LmModelInfo[] | undefined): ModelChoice[] {
  if (!lmModels) return [];
  const wanted = c.models ?? [];
  const models = wanted.length ? lmModels.filter((m) => wanted.includes(m.id) || wanted.includes(m.family)) : lmModels;
  const label = c.label ?? c.name;
  if (models.length === 0)
    return [
      { ref: c.name, label: `${label} · no language model installed`, hasKey: true, unavailable: NO_LM_MODEL_MESSAGE },
    ];
  return models.map((m) => ({ ref: `${c.name}/${m.id}`, label: `${label} · ${m.name}`, hasKey: true }));
}

/**
 * `vscode-lm` providers with each listed model's input limit as its context window (the API says it;
 * compaction and the prompt budget need it), other providers unchanged.
 */
export function withLmModelInfo(configs: ProviderConfig[], lmModels: LmModelInfo[]): ProviderConfig[] {
  if (lmModels.length === 0) return configs;
  return configs.map((c) => {
    if (c.kind !== 'vscode-lm') return c;
    const info: Record<string, ModelInfo> = { ...c.modelInfo };
    for (const m of lmModels)
      if (m.maxInputTokens > 0)
        info[m.id] = { ...info[m.id], contextWindow: info[m.id]?.contextWindow ?? m.maxInputTokens };
    return { ...c, modelInfo: info };
  });
}

/**
 * Every configured model for the picker; `hasKey` is true for keyless providers. `lmModels`: what VS
 * Code's Language Model API lists right now (for `vscode-lm` providers).
 */
export function listModelChoices(
  configs: ProviderConfig[],
  hasKey: (providerName: string) => boolean,
  lmModels?: LmModelInfo[],
): ModelChoice[] {
  return configs.flatMap((c) => {
    if (c.kind === 'vscode-lm') return lmChoices(c, lmModels);
    const reasoning = reasoningOption(c);
    return modelsOf(c).map((model) => ({
      ref: `${c.name}/${model}`,
      label: `${c.label ?? c.name} · ${model}`,
      hasKey: Boolean(c.keyless) || hasKey(c.name),
      ...(reasoning ? { reasoning } : {}),
    }));
  });
}

export interface ProviderRegistryOptions {
  configs: ProviderConfig[];
  secrets: SecretsPort;
  env: Record<string, string | undefined>;
  loadKind: (kind: ProviderKind) => Promise<ProviderModule>;
  /**
   * Asked before a key goes to an origin it is not bound to (key-binding.ts). Without it such a
   * request fails and nothing is sent.
   */
  confirmKeyDestination?: ConfirmKeyDestination;
  /** Rate limit and circuit breaker per provider; shared across registries so they survive a settings change. */
  guards?: ProviderGuards;
}

export interface ResolvedModel {
  provider: Provider;
  model: string;
  /** The provider's config with the model's own context window and price. */
  config: ProviderConfig;
}

/** What warm-up made ready for a model with a key: see ProviderRegistry.warm. */
export interface WarmedModel {
  baseUrl: string;
  kind: ProviderKind;
  model: string;
  /** Absent when the kind's SDK bundle could not be loaded. */
  rehearsal?(baseUrl: string): Provider;
}

/** The key a rehearsal's throwaway client carries: never a real one. */
const REHEARSAL_KEY = 'sextant-warm-up';

export class ProviderRegistry {
  /**
   * One instance per provider name, reused while its (config, key) stays the same; a new key or a
   * changed setting replaces it with a fresh client.
   */
  private readonly instances = new Map<string, { cacheKey: string; provider: Promise<Provider> }>();

  constructor(private readonly opts: ProviderRegistryOptions) {}

  get configs(): ProviderConfig[] {
    return this.opts.configs;
  }

  /**
   * Does ahead what the first request to `ref` needs — its SDK bundle, its key and the key's bound host
   * read from secret storage, its client made — without asking or sending anything, so the first Send goes
   * straight out. Answers the URL that request will go to when a key for it is at hand and bound there (a
   * connection to it may be opened now), with `rehearsal`: a client of the same kind and config for a
   * throwaway server at another URL, with a placeholder key and none of the config's headers, so the SDK's
   * request path can run once on this machine (warm-request-path.ts); undefined otherwise. Best effort: a
   * problem here is met again, and reported, by the request itself.
   */
  async warm(ref: string): Promise<WarmedModel | undefined> {
    const found = resolveModelRef(ref, this.opts.configs);
    if (!found.ok) return undefined;
    const base = this.opts.configs.find((c) => c.name === found.config.name) ?? found.config;
    // Without a question: a key not bound to where the request goes is refused here, and asked about by
    // the request itself.
    const [kind, made] = await Promise.allSettled([this.opts.loadKind(base.kind), this.client(base, undefined)]);
    const baseUrl = base.baseUrl ?? DEFAULT_BASE_URLS[base.kind];
    if (made.status !== 'fulfilled' || !made.value.hasKey || !baseUrl) return undefined;
    if (kind.status !== 'fulfilled') return { baseUrl, kind: base.kind, model: found.model };
    const mod = kind.value;
    const rehearsal = (url: string) => mod.createProvider({ ...base, baseUrl: url, headers: undefined }, REHEARSAL_KEY);
    return { baseUrl, kind: base.kind, model: found.model, rehearsal };
  }

  /**
   * Throws ProviderError: `bad_request` for an unknown reference, `no_key` when a key is missing,
   * `auth` when the user did not let the key go to a server it is not bound to.
   */
  async resolve(ref: string): Promise<ResolvedModel> {
    const found = resolveModelRef(ref, this.opts.configs);
    if (!found.ok) throw new ProviderError('bad_request', found.error);
    const base = this.opts.configs.find((c) => c.name === found.config.name) ?? found.config;
    const { provider } = await this.client(base, this.opts.confirmKeyDestination);
    markFirstRequest('model resolved');
    const guards = this.opts.guards;
    return { provider: guards ? guards.guard(provider, base) : provider, model: found.model, config: found.config };
  }

  /**
   * The provider's client, made once per (config, key): its key looked up and checked against where it
   * would go (`confirm` asks about a key not bound there; without it such a key is refused).
   */
  private async client(
    base: ProviderConfig,
    confirm: ConfirmKeyDestination | undefined,
  ): Promise<{ provider: Provider; hasKey: boolean }> {
    const key = await lookupApiKey(base, this.opts.secrets, this.opts.env);
    if (key) {
      await checkKeyDestination({
        config: base,
        key,
        destination: destinationOf(base),
        secrets: this.opts.secrets,
        confirm,
      });
    }
    const apiKey = key?.value;
    const cacheKey = JSON.stringify([base, apiKey ?? null]);
    let entry = this.instances.get(base.name);
    if (!entry || entry.cacheKey !== cacheKey) {
      const created = { cacheKey, provider: this.create(base, apiKey) };
      entry = created;
      this.instances.set(base.name, created);
      // A failed load must not stick: the next request tries again.
      created.provider.catch(() => {
        if (this.instances.get(base.name) === created) this.instances.delete(base.name);
      });
    }
    return { provider: await entry.provider, hasKey: Boolean(apiKey) };
  }

  private async create(config: ProviderConfig, apiKey: string | undefined): Promise<Provider> {
    let mod: ProviderModule;
    try {
      mod = await this.opts.loadKind(config.kind);
    } catch (err) {
      const why = errorText(err);
      throw new ProviderError(
        'bad_request',
        `The "${config.kind}" provider kind of "${config.name}" could not be loaded: ${why}`,
      );
    }
    return mod.createProvider(config, apiKey);
  }
}
