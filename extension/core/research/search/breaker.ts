// A circuit breaker per provider: after repeated failures the provider is skipped for a while (the
// client fails over to the next one at once instead of paying timeouts and retries again), then one
// trial request decides whether it is back. A refused key or an exhausted plan opens it at once —
// those do not fix themselves within a research run.
import type { Clock } from './clock';
import type { SearchErrorCode } from './errors';

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

  failure(code: SearchErrorCode, reason: string): void {
    this.lastReason = reason;
    this.failures++;
    const wasTrial = this.stateNow === 'half-open';
    this.trialInFlight = false;
    if (wasTrial) {
      this.cooldown = Math.min(this.policy.maxCooldownMs, this.cooldown * 2);
      this.open();
    } else if (code === 'auth' || code === 'quota') {
      this.cooldown = this.policy.maxCooldownMs;
      this.open();
    } else if (this.failures >= this.policy.failureThreshold) {
      this.open();
    }
  }

  /** The request ended without an answer either way (aborted): a trial slot is given back. */
  abandon(): void {
    this.trialInFlight = false;
  }

  private open(): void {
    this.stateNow = 'open';
    this.openedAt = this.clock.now();
  }
}
