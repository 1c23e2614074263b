// The model side of the runtime: provider configs from settings and VS Code's language models, the
// provider registry (rebuilt when either changes; rate limits and breakers kept across), the keys
// Sextant holds (for the picker's "no key" marks and for redaction), and the first request's warm-up.
import * as path from 'node:path';
import { confirmKeyDestination } from './key-commands';
import { KeyDirectory } from './key-directory';
import type { LanguageModelsAdapter } from './adapters/language-models';
import { readSettings } from './settings';
import type { Logger, SecretsPort } from '../core/ports';
import { ProviderGuards } from '../core/providers/guarded-provider';
import {
  listModelChoices,
  mergeProviderConfigs,
  ProviderRegistry,
  type ProviderModule,
  withLmModelInfo,
} from '../core/providers/registry';
import type { ProviderConfig, ProviderKind } from '../core/providers/types';
import { createVscodeLmProvider } from '../core/providers/vscode-lm';
import { SEARCH_APIS } from '../core/web/search/catalog';
import { searchKeySecretName } from '../core/web/search/keys';
import { SEARCH_PROVIDER_IDS } from '../core/web/types';
import type { ModelChoice } from '../protocol';

function providerKindLoader(languageModels: LanguageModelsAdapter): (kind: ProviderKind) => Promise<ProviderModule> {
  return (kind) => {
    // VS Code's own models need no SDK: the provider talks to the editor through its port.
    if (kind === 'vscode-lm')
      return Promise.resolve({ createProvider: (config) => createVscodeLmProvider(config, languageModels) });
    // Each SDK is its own bundle, loaded on the first request that needs it.
    return Promise.resolve(require(path.join(__dirname, `provider-${kind}.js`)) as ProviderModule);
  };
}

export class ProvidersHost {
  private registry: ProviderRegistry;
  private readonly guards: ProviderGuards;
  private readonly loadKind: (kind: ProviderKind) => Promise<ProviderModule>;
  readonly keys: KeyDirectory;

  constructor(
    private readonly secrets: SecretsPort,
    private readonly languageModels: LanguageModelsAdapter,
    private readonly log: Logger,
  ) {
    // Rate limits and circuit breakers per provider, kept across settings changes (a new registry).
    this.guards = new ProviderGuards({
      onBreakerChange: (name, state, detail) =>
        (state === 'open' ? log.warn : log.info)(`providers: ${name} circuit breaker ${state}: ${detail}`),
    });
    this.loadKind = providerKindLoader(languageModels);
    this.registry = this.newRegistry();
    this.keys = new KeyDirectory(
      secrets,
      () => this.configs(),
      process.env,
      () => SEARCH_PROVIDER_IDS.map((id) => ({ secret: searchKeySecretName(id), env: SEARCH_APIS[id].envVar })),
    );
  }

  /** sextant.providers merged with the presets, with VS Code's models' context windows. */
  configs(): ProviderConfig[] {
    const merged = mergeProviderConfigs(readSettings().providers);
    for (const e of merged.errors) this.log.warn(`sextant.providers: ${e}`);
    return withLmModelInfo(merged.configs, this.languageModels.cached());
  }

  resolve(ref: string) {
    return this.registry.resolve(ref);
  }

  async modelChoices(): Promise<ModelChoice[]> {
    return listModelChoices(this.configs(), (name) => this.keys.hasKey(name), await this.languageModels.list());
  }

  /** Settings or VS Code's model list changed: the next request uses a registry built from them. */
  reload(): void {
    this.registry = this.newRegistry();
  }

  /** Loads the model's SDK bundle and reads its key now, so the first Send goes straight to the wire. */
  warm(modelRef: string): Promise<void> {
    return this.registry.warm(modelRef);
  }

  private newRegistry(): ProviderRegistry {
    return new ProviderRegistry({
      configs: this.configs(),
      secrets: this.secrets,
      env: process.env,
      loadKind: this.loadKind,
      confirmKeyDestination,
      guards: this.guards,
    });
  }
}
