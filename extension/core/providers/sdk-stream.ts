// How every SDK-backed provider starts a stream: one error context for the request, a Stop before
// anything is sent, and the SDK's create call with its failure mapped to a ProviderError. The rest of
// each stream (its events) is the provider's own.
import { abortedError, type ErrorContext, type SdkErrorClasses, toProviderError } from './errors';
import type { ProviderConfig } from './types';

/** Tool input must be an object; a call whose JSON did not parse is replayed with an empty input. */
export function toolInput(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json || '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export async function openSdkStream<T>(
  config: ProviderConfig,
  baseUrl: string,
  signal: AbortSignal,
  sdkErrors: SdkErrorClasses,
  create: () => Promise<T>,
): Promise<{ ctx: ErrorContext; events: T }> {
  const ctx: ErrorContext = {
    providerName: config.name,
    baseUrl,
    apiKeyEnv: config.apiKeyEnv,
    signal,
    afterFirstToken: false,
  };
  if (signal.aborted) throw abortedError(ctx);
  try {
    return { ctx, events: await create() };
  } catch (err) {
    throw toProviderError(err, ctx, sdkErrors);
  }
}
