// sextant.memory.embeddings → the store's embedder (memory search fuses BM25 with it), re-applied when
// the setting or the providers change. A provider's key goes to the embeddings URL only if it is bound
// there or the user says so.
import type { Logger, SecretsPort } from '../core/ports';
import { checkKeyDestination, destinationOfUrl, embedderWithKeyCheck } from '../core/providers/key-binding';
import { lookupApiKey } from '../core/providers/keys';
import type { ProviderConfig } from '../core/providers/types';
import { type LazySessionStore, openAiEmbedder } from '../core/store';
import { confirmKeyDestination } from './key-commands';
import { readSettings } from './settings';

type Store = Pick<LazySessionStore, 'setEmbedder'>;

export async function configureEmbeddings(
  store: Store,
  configs: () => ProviderConfig[],
  secrets: SecretsPort,
  log: Logger,
): Promise<void> {
  const e = readSettings().embeddings;
  if (!e) return store.setEmbedder(undefined);
  const provider = configs().find((c) => c.name === e.provider);
  const baseUrl = e.baseUrl ?? provider?.baseUrl;
  if (!baseUrl) {
    log.warn(
      'sextant.memory.embeddings: set "baseUrl", or "provider" naming a provider with one; memory search uses ' +
        'BM25 alone.',
    );
    return store.setEmbedder(undefined);
  }
  const key = provider ? await lookupApiKey(provider, secrets, process.env).catch(() => undefined) : undefined;
  const apiKey = provider ? key?.value : e.apiKeyEnv ? process.env[e.apiKeyEnv] : undefined;
  const embedder = openAiEmbedder({ baseUrl, model: e.model, apiKey });
  const check = () =>
    key && provider
      ? checkKeyDestination({
          config: provider,
          key,
          destination: destinationOfUrl(baseUrl),
          secrets,
          confirm: confirmKeyDestination,
          setting: 'sextant.memory.embeddings',
        })
      : Promise.resolve();
  store.setEmbedder(embedderWithKeyCheck(embedder, check));
  log.info(`memory search fuses BM25 with ${e.model} embeddings`);
}
