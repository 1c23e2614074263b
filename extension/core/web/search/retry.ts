// Retries of one provider's request: bounded exponential backoff with jitter on rate limits, server
// errors, dropped connections and timeouts, waiting exactly as long as a `retry-after` asks — unless
// it asks for longer than a research step can sit through; then the error goes up at once and the
// client fails over to the next provider.
import type { Clock } from '../../resilience/clock';
import { isRetryable, isSearchError } from './errors';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A retry-after longer than this is not waited for. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
};

/** The pause before attempt `attempt + 1`: base · 2^(attempt−1), capped, with half of it jittered. */
export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number): number {
  const full = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(full / 2 + (full / 2) * random());
}

export interface RetryOptions {
  policy: RetryPolicy;
  clock: Clock;
  random: () => number;
  signal: AbortSignal;
  /** Told before each pause (for the log and to hold the rate limiter). */
  onRetry?(error: Error, waitMs: number, attempt: number): void;
}

export async function withRetries<T>(fn: (attempt: number) => Promise<T>, o: RetryOptions): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (!isSearchError(err) || !isRetryable(err.code) || attempt >= o.policy.maxAttempts || o.signal.aborted)
        throw err;
      const asked = err.retryAfterMs;
      if (asked !== undefined && asked > o.policy.maxRetryAfterMs) throw err;
      const wait = asked ?? backoffMs(attempt, o.policy, o.random);
      o.onRetry?.(err, wait, attempt);
      await o.clock.sleep(wait, o.signal);
    }
  }
}
