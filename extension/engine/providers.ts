// The model side of an engine: provider configs from the host's settings (and, in VS Code, its language
// models), the provider registry (rebuilt when either changes; rate limits and breakers kept across),
// the keys Sextant holds (for the picker's "no key" marks and for redaction), and the first request's
// warm-up. Host-neutral: the extension (extension/vscode/providers-host.ts) and the command line
// (extension/cli) each hand it their own language models, key-destination question and SDK loader.
import * as path from 'node:path';
import type { LanguageModelsPort, LmModelInfo, Logger, SecretsPort } from '../core/ports';
import type { KeyDestinationAnswer, KeyDestinationQuestion } from '../core/providers/key-binding';
import { ProviderGuards } from '../core/providers/guarded-provider';
import {
  listModelChoices,
  mergeProviderConfigs,
  ProviderRegistry,
  type ProviderModule,
  resolveModelRef,
  withLmModelInfo,
  type WarmedModel,
} from '../core/providers/registry';
import { type ManagedState, managedModelRefusal } from '../core/config/managed-settings';
import { ProviderError } from '../core/providers/types';
import { PRESETS } from '../core/providers/presets';
import type { ProviderConfig, ProviderKind } from '../core/providers/types';
import { createVscodeLmProvider } from '../core/providers/vscode-lm';
import { SEARCH_APIS } from '../core/web/search/catalog';
import { searchKeySecretName } from '../core/web/search/keys';
import { SEARCH_PROVIDER_IDS } from '../core/web/types';
import type { ModelChoice } from '../protocol';
import { KeyDirectory } from './key-directory';

/** An editor's own models (VS Code's Language Model API); absent on the command line. */
export interface HostLanguageModels extends LanguageModelsPort {
  /** The models as last listed. */
  cached(): LmModelInfo[];
}

export interface ProvidersDeps {
  secrets: SecretsPort;
  log: Logger;
  /** `sextant.providers` as the user set it (merged with the presets here). */
  providersSetting(): unknown;
  env: Record<string, string | undefined>;
  /** Asked before a key goes to a host other than the one it was stored for. */
  confirmKeyDestination(q: KeyDestinationQuestion): Promise<KeyDestinationAnswer>;
  /** VS Code's models; without them `vscode-lm` providers say they need VS Code. */
  languageModels?: HostLanguageModels;
  /** The folder the provider SDK bundles (`provider-<kind>.js`) sit in. */
  bundleDir: string;
  /** How a bundle is required (the extension's goes through V8's code cache); absent: `require`. */
  requireBundle?(file: string): unknown;
  /** The administrator's managed settings (denied providers and models); absent: none. */
  managed?(): ManagedState;
}

/** No editor: a `vscode-lm` model is refused with a line that says why, not a stack. */
const noLanguageModels: HostLanguageModels = {
  cached: () => [],
  list: async () => [],
  send: async () => {
    throw new Error("VS Code's language models (vscode-lm) are only available inside VS Code.");
  },
  countTokens: async () => 0,
};

export class ProvidersHost {
  private registry: ProviderRegistry;
  private readonly guards: ProviderGuards;
  private readonly languageModels: HostLanguageModels;
  readonly keys: KeyDirectory;

  constructor(private readonly deps: ProvidersDeps) {
    const log = deps.log;
    this.languageModels = deps.languageModels ?? noLanguageModels;
    // Rate limits and circuit breakers per provider, kept across settings changes (a new registry).
    this.guards = new ProviderGuards({
      onBreakerChange: (name, state, detail) =>
        (state === 'open' ? log.warn : log.info)(`providers: ${name} circuit breaker ${state}: ${detail}`),
    });
    this.registry = this.newRegistry();
    this.keys = new KeyDirectory(
      deps.secrets,
      () => this.configs(),
      deps.env,
      () => SEARCH_PROVIDER_IDS.map((id) => ({ secret: searchKeySecretName(id), env: SEARCH_APIS[id].envVar })),
    );
  }

  /** sextant.providers merged with the presets, with the editor's models' context windows. */
  configs(): ProviderConfig[] {
    const merged = mergeProviderConfigs(this.deps.providersSetting());
    for (const e of merged.errors) this.deps.log.warn(`sextant.providers: ${e}`);
    return withLmModelInfo(merged.configs, this.languageModels.cached());
  }

  /** The model for a request; refused (before any key is read) when the managed settings deny it. */
  resolve(ref: string) {
    const refused = this.managedRefusal(ref);
    if (refused) return Promise.reject(new ProviderError('bad_request', refused));
    return this.registry.resolve(ref);
  }

  /** Why the managed settings refuse this model (undefined: they do not, or it is not a model at all). */
  managedRefusal(ref: string): string | undefined {
    const managed = this.deps.managed?.();
    if (!managed || (!managed.policy && !managed.error)) return undefined;
    const configs = this.configs();
    const found = resolveModelRef(ref, configs);
    if (!found.ok) return managed.error ? managedModelRefusal(managed, { provider: '', model: '' }, []) : undefined;
    const target = { provider: found.config.name, model: found.model, baseUrl: found.config.baseUrl };
    // The presets too: a denied preset's host stays denied when the user redefines that name.
    return managedModelRefusal(managed, target, [...PRESETS, ...configs]);
  }

  async modelChoices(): Promise<ModelChoice[]> {
    const choices = listModelChoices(
      this.configs(),
      (name) => this.keys.hasKey(name),
      await this.languageModels.list(),
    );
    // A denied model is not offered in the picker (and refused if named anyway).
    return choices.filter((c) => !this.managedRefusal(c.ref));
  }

  /** Settings or the editor's model list changed: the next request uses a registry built from them. */
  reload(): void {
    this.registry = this.newRegistry();
  }

  /**
   * Loads the model's SDK bundle, reads its key and makes its client now, so the first request goes
   * straight to the wire; answers the URL that request goes to when a key for it is at hand (and a
   * throwaway client of its kind to rehearse the request path with, ProviderRegistry.warm).
   */
  warm(modelRef: string): Promise<WarmedModel | undefined> {
    return this.registry.warm(modelRef);
  }

  private loadKind = (kind: ProviderKind): Promise<ProviderModule> => {
    // The editor's own models need no SDK: the provider talks to the editor through its port.
    if (kind === 'vscode-lm')
      return Promise.resolve({ createProvider: (config) => createVscodeLmProvider(config, this.languageModels) });
    // Each SDK is its own bundle, loaded on the first request that needs it.
    const file = path.join(this.deps.bundleDir, `provider-${kind}.js`);
    return Promise.resolve((this.deps.requireBundle ? this.deps.requireBundle(file) : require(file)) as ProviderModule);
  };

  private newRegistry(): ProviderRegistry {
    return new ProviderRegistry({
      configs: this.configs(),
      secrets: this.deps.secrets,
      env: this.deps.env,
      loadKind: this.loadKind,
      confirmKeyDestination: this.deps.confirmKeyDestination,
      guards: this.guards,
    });
  }
}
