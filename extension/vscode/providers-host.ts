// The model side of the runtime in VS Code: the engine's providers (extension/engine/providers.ts)
// with VS Code's language models, the modal key-destination question and the user's settings.
import type { LanguageModelsAdapter } from './adapters/language-models';
import { confirmKeyDestination } from './key-commands';
import { readSettings, vscodeSettings } from './settings';
import type { Logger, SecretsPort } from '../core/ports';
import { ProvidersHost as EngineProviders } from '../engine/providers';

export class ProvidersHost extends EngineProviders {
  constructor(
    secrets: SecretsPort,
    languageModels: LanguageModelsAdapter,
    log: Logger,
    /** Requires an SDK bundle through V8's code cache (code-cache.ts), as the runtime is. */
    requireBundle?: (file: string) => unknown,
  ) {
    super({
      ...(requireBundle ? { requireBundle } : {}),
      secrets,
      log,
      languageModels,
      providersSetting: () => readSettings().providers,
      env: process.env,
      confirmKeyDestination,
      bundleDir: __dirname,
      managed: () => vscodeSettings.managed?.() ?? {},
    });
  }
}
