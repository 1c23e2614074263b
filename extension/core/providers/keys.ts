// API key lookup, a documented contract users rely on: SecretStorage first (set by "Sextant: Set API
// Key"), then the environment variable the provider names in `apiKeyEnv`. Keys are never read from
// settings and never logged.
import type { SecretsPort } from '../ports';
import { ProviderError, type ProviderConfig } from './types';

export function secretKeyName(providerName: string): string {
  return `sextant.apiKey.${providerName}`;
}

export function noKeyMessage(config: Pick<ProviderConfig, 'name' | 'apiKeyEnv'>): string {
  const env = config.apiKeyEnv ? ` or set the environment variable ${config.apiKeyEnv}` : '';
  return `No API key for "${config.name}". Run "Sextant: Set API Key"${env}.`;
}

/** Where a key came from: SecretStorage ("Sextant: Set API Key") or the environment variable. */
export type KeySource = 'stored' | 'env';

export interface ResolvedKey {
  value: string;
  source: KeySource;
  /** The variable it was read from, for `env`. */
  envName?: string;
}

/**
 * The key for a provider and where it came from, or undefined for a keyless one (Ollama, LM
 * Studio) that has none. Throws ProviderError `no_key` when a provider that needs a key has none.
 */
export async function lookupApiKey(
  config: ProviderConfig,
  secrets: SecretsPort,
  env: Record<string, string | undefined>,
): Promise<ResolvedKey | undefined> {
  // VS Code's language models need no key, and none is ever looked up or sent for them.
  if (config.kind === 'vscode-lm') return undefined;
  const stored = (await secrets.get(secretKeyName(config.name)))?.trim();
  if (stored) return { value: stored, source: 'stored' };
  const fromEnv = config.apiKeyEnv ? env[config.apiKeyEnv]?.trim() : undefined;
  if (fromEnv) return { value: fromEnv, source: 'env', envName: config.apiKeyEnv };
  if (config.keyless) return undefined;
  throw new ProviderError('no_key', noKeyMessage(config));
}

/**
 * The key for a provider, or undefined for a keyless one (Ollama, LM Studio) that has none.
 * Throws ProviderError `no_key` when a provider that needs a key has none anywhere.
 */
export async function resolveApiKey(
  config: ProviderConfig,
  secrets: SecretsPort,
  env: Record<string, string | undefined>,
): Promise<string | undefined> {
  return (await lookupApiKey(config, secrets, env))?.value;
}
