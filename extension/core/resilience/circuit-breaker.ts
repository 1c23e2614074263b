// A circuit breaker per remote service (a search API, a model provider): after repeated failures the
// service is skipped for a while (callers fail over or fail fast at once instead of paying timeouts
// and retries again), then one trial request decides whether it is back. The caller decides what
// counts as a failure; some (a refused search key, an exhausted plan) open it at once, since they
// do not fix themselves within minutes, and a server that says when to come back is believed.
import type { Clock } from './clock';

export interface BreakerPolicy {
  /** Consecutive failed searches (each after its retries) that open the breaker. */
  failureThreshold: number;
  /** How long it stays open the first time; doubled after each failed trial, up to maxCooldownMs. */
  cooldownMs: number;
  maxCooldownMs: number;
}

export const DEFAULT_BREAKER: BreakerPolicy = {
  failureThreshold: 2,
  cooldownMs: 60_000,
  maxCooldownMs: 15 * 60_000,
};

export type BreakerState = 'closed' | 'open' | 'half-open';

export type BreakerCheck = { allowed: true } | { allowed: false; retryInMs: number; reason: string };

export class CircuitBreaker {
  private stateNow: BreakerState = 'closed';
  private failures = 0;
  private openedAt = 0;
  private cooldown: number;
  private trialInFlight = false;
  private lastReason = '';

  constructor(
    private readonly policy: BreakerPolicy,
    private readonly clock: Clock,
  ) {
    this.cooldown = policy.cooldownMs;
  }

  get state(): BreakerState {
    if (this.stateNow === 'open' && this.clock.now() >= this.openedAt + this.cooldown) return 'half-open';
    return this.stateNow;
  }

  /** Failures in a row since the last success. */
  get consecutiveFailures(): number {
    return this.failures;
  }

  /** The failure that opened (or last kept open) the breaker. */
  get reason(): string {
    return this.lastReason;
  }

  /** Whether a request may go now; in half-open state only one trial goes at a time. */
  check(): BreakerCheck {
    const state = this.state;
    if (state === 'closed') return { allowed: true };
    if (state === 'half-open' && !this.trialInFlight) {
      this.stateNow = 'half-open';
      this.trialInFlight = true;
      return { allowed: true };
    }
    const retryInMs = state === 'open' ? this.openedAt + this.cooldown - this.clock.now() : this.cooldown;
    return { allowed: false, retryInMs: Math.max(0, retryInMs), reason: this.lastReason };
  }

  success(): void {
    this.stateNow = 'closed';
    this.failures = 0;
    this.cooldown = this.policy.cooldownMs;
    this.trialInFlight = false;
  }

  /**
   * A request failed. `openNow`: a failure that will not fix itself soon opens the breaker at once for
   * the longest cooldown. `retryAfterMs`: the server asked for that long; an opening cooldown is not shorter.
   */
  failure(reason: string, opts: { openNow?: boolean; retryAfterMs?: number } = {}): void {
    this.lastReason = reason;
    this.failures++;
    const wasTrial = this.stateNow === 'half-open';
    this.trialInFlight = false;
    if (wasTrial) {
      this.cooldown = Math.min(this.policy.maxCooldownMs, this.cooldown * 2);
      this.open(opts.retryAfterMs);
    } else if (opts.openNow) {
      this.cooldown = this.policy.maxCooldownMs;
      this.open(opts.retryAfterMs);
    } else if (this.stateNow === 'closed' && this.failures >= this.policy.failureThreshold) {
      this.open(opts.retryAfterMs);
    }
  }

  /** The request ended without an answer either way (aborted): a trial slot is given back. */
  abandon(): void {
    this.trialInFlight = false;
  }

  /** When the breaker lets a trial through again (epoch ms); undefined while closed. */
  retryAt(): number | undefined {
    return this.stateNow === 'closed' ? undefined : this.openedAt + this.cooldown;
  }

  private open(retryAfterMs: number | undefined): void {
    this.stateNow = 'open';
    this.openedAt = this.clock.now();
    if (retryAfterMs !== undefined && retryAfterMs > this.cooldown)
      this.cooldown = Math.min(this.policy.maxCooldownMs, retryAfterMs);
  }
}
