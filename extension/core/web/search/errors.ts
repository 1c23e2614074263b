// Every way a search can fail, as one error type with a code and a message written for the person
// (and the model) who must act on it: which provider, what happened, what to set or wait for.
// Messages never contain an API key (the client scrubs the key from anything a server sends back).
import type { SearchProviderId } from '../types';

export type SearchErrorCode =
  /** No provider has a key (the message names the command and the environment variables). */
  | 'no_key'
  /** The user did not let a key go to an overridden endpoint on another host. */
  | 'key_refused'
  /** The provider refused the key (401/403, Brave's 422 SUBSCRIPTION_TOKEN_INVALID). */
  | 'auth'
  /** Credits or plan limit used up (402, Tavily 432/433). */
  | 'quota'
  | 'rate_limit'
  | 'server'
  | 'unreachable'
  | 'timeout'
  /** The request was rejected as malformed (400/422): usually the query or a domain filter. */
  | 'bad_request'
  /** A 200 whose body is not the provider's documented shape (wrong endpoint, proxy page). */
  | 'bad_response'
  | 'aborted'
  /** The provider asked for is not in sextant.research.searchProviders. */
  | 'disabled'
  /** Every provider was tried and failed; `failures` says why, one by one. */
  | 'all_failed';

export interface SearchFailure {
  provider: SearchProviderId;
  code: SearchErrorCode;
  message: string;
}

export class SearchError extends Error {
  constructor(
    readonly code: SearchErrorCode,
    message: string,
    readonly provider?: SearchProviderId,
    readonly status?: number,
    /** For rate limits: how long the server asked us to wait. */
    readonly retryAfterMs?: number,
    readonly failures: readonly SearchFailure[] = [],
  ) {
    super(message);
    this.name = 'SearchError';
  }
}

/** Failures worth another attempt at the same provider after a pause. */
export function isRetryable(code: SearchErrorCode): boolean {
  return code === 'rate_limit' || code === 'server' || code === 'unreachable' || code === 'timeout';
}

/** Failures that say the provider (not the query) is unusable for now: they count against its breaker. */
export function countsAgainstProvider(code: SearchErrorCode): boolean {
  return isRetryable(code) || code === 'auth' || code === 'quota' || code === 'bad_response';
}

/** Works across bundles (each bundle has its own copy of the class). */
export function isSearchError(err: unknown): err is SearchError {
  return (
    err instanceof SearchError ||
    (err instanceof Error && err.name === 'SearchError' && typeof (err as { code?: unknown }).code === 'string')
  );
}
