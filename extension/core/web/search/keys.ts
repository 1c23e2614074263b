// Search API keys: SecretStorage first ("Sextant: Set Search API Key"), then the provider's
// environment variable (EXA_API_KEY, TAVILY_API_KEY, BRAVE_API_KEY, FIRECRAWL_API_KEY). Like LLM
// keys, each is bound to the origin it was meant for (providers/key-binding.ts): a key stored for
// api.exa.ai does not go to an endpoint override on another host unless the user says so.
import type { SecretsPort } from '../../ports';
import { confirmBoundKey, originOf, refusedKeyMessage, type ConfirmKeyDestination } from '../../providers/key-binding';
import type { ResolvedKey } from '../../providers/keys';
import type { SearchProviderId } from '../types';
import type { SearchApi } from './api';
import { SEARCH_APIS } from './catalog';
import { SearchError } from './errors';

export const SET_SEARCH_KEY_COMMAND = 'Sextant: Set Search API Key';

export function searchKeySecretName(id: SearchProviderId): string {
  return `sextant.searchApiKey.${id}`;
}

/** Where the origin a search key is bound to is recorded (SecretStorage, beside the key). */
export function searchKeyBindingName(id: SearchProviderId, key: Pick<ResolvedKey, 'source' | 'envName'>): string {
  return key.source === 'stored'
    ? `sextant.searchKeyOrigin.${id}`
    : `sextant.searchEnvKeyOrigin.${id}.${key.envName ?? ''}`;
}

export async function lookupSearchKey(
  api: SearchApi,
  secrets: SecretsPort,
  env: Record<string, string | undefined>,
): Promise<ResolvedKey | undefined> {
  const stored = (await secrets.get(searchKeySecretName(api.id)))?.trim();
  if (stored) return { value: stored, source: 'stored' };
  const fromEnv = env[api.envVar]?.trim();
  return fromEnv ? { value: fromEnv, source: 'env', envName: api.envVar } : undefined;
}

/** What to configure when no enabled provider has a key: the command, the variables, where to get keys. */
export function noSearchKeyMessage(enabled: readonly SearchProviderId[]): string {
  const apis = enabled.map((id) => SEARCH_APIS[id]);
  if (apis.length === 0) return noProvidersEnabledMessage();
  const several = apis.length > 1;
  const variables = several ? 'one of the environment variables' : 'the environment variable';
  const labels = apis.map((a) => a.label).join(', ');
  return (
    `Web search needs an API key for ${several ? `one of ${labels}` : labels}. Run "${SET_SEARCH_KEY_COMMAND}" ` +
    `(the key goes to VS Code's SecretStorage), or set ${variables} ` +
    `${apis.map((a) => a.envVar).join(', ')} before starting VS Code. Keys: ` +
    `${apis.map((a) => `${a.label} ${a.keyUrl}`).join('; ')}.`
  );
}

export function noProvidersEnabledMessage(): string {
  return (
    'Web search is switched off: sextant.research.searchProviders is empty. Add one or more of "exa", "tavily", ' +
    '"brave", "firecrawl" to it in your settings.'
  );
}

export interface SearchKeyCheck {
  api: SearchApi;
  key: ResolvedKey;
  /** The origin the request is about to go to. */
  destination: string | undefined;
  secrets: SecretsPort;
  confirm?: ConfirmKeyDestination;
}

/** Resolves when the key may go to `destination`; throws SearchError `key_refused` when the user declined. */
export async function checkSearchKeyDestination(c: SearchKeyCheck): Promise<void> {
  const verdict = await confirmBoundKey({
    bindingName: searchKeyBindingName(c.api.id, c.key),
    // Stored or from the environment, a search key belongs to the provider's own server.
    defaultOrigin: originOf(c.api.defaultBaseUrl),
    provider: c.api.label,
    key: c.key,
    destination: c.destination,
    secrets: c.secrets,
    confirm: c.confirm,
  });
  if (verdict.ok) return;
  const message = refusedKeyMessage(verdict.question, `sextant.research.endpoints.${c.api.id}`);
  throw new SearchError('key_refused', message, c.api.id);
}
