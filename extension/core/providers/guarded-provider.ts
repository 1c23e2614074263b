// Per-provider guards around every model request: a client-side rate limit (requests wait their turn,
// abortably, instead of drawing 429s) and a circuit breaker. The breaker counts failures the SDK's own
// retries could not fix — rate limits, server errors, unreachable servers, streams cut off — and after
// FAILURE_THRESHOLD in a row fails requests at once, with a message naming the provider and when it is
// tried again, instead of making every request sit through the same retries. A refused key or a
// rejected request says nothing about the server's health: those neither open nor close it.
// The guards outlive a registry (a settings change builds a new one) so a broken server stays known.
import { CircuitBreaker, type BreakerPolicy, type BreakerState } from '../resilience/circuit-breaker';
import { systemClock, type Clock } from '../resilience/clock';
import { RateLimiter } from '../resilience/rate-limiter';
import { abortedError, isProviderError } from './errors';
import { ProviderError, type Provider, type ProviderConfig, type ProviderErrorCode, type ProviderEvent } from './types';

export const PROVIDER_BREAKER: BreakerPolicy = {
  failureThreshold: 3,
  cooldownMs: 30_000,
  maxCooldownMs: 5 * 60_000,
};

/** Failures that say the provider is unhealthy (each already after the SDK's retries). */
const HEALTH_FAILURES: ReadonlySet<ProviderErrorCode> = new Set(['rate_limit', 'server', 'unreachable']);

export interface ProviderGuardsOptions {
  clock?: Clock;
  breaker?: Partial<BreakerPolicy>;
  /** Told when a provider's breaker opens or closes again (for the log). */
  onBreakerChange?(providerName: string, state: 'open' | 'closed', detail: string): void;
}

interface GuardState {
  breaker: CircuitBreaker;
  limiter?: RateLimiter;
  requestsPerMinute?: number;
  /** The code of the failure that opened the breaker, reused by fast failures. */
  lastCode: ProviderErrorCode;
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

export class ProviderGuards {
  private readonly states = new Map<string, GuardState>();
  private readonly clock: Clock;
  private readonly policy: BreakerPolicy;

  constructor(private readonly opts: ProviderGuardsOptions = {}) {
    this.clock = opts.clock ?? systemClock;
    this.policy = { ...PROVIDER_BREAKER, ...opts.breaker };
  }

  /** The breaker state of a provider (closed when it was never used). */
  breakerState(providerName: string): BreakerState {
    return this.states.get(providerName)?.breaker.state ?? 'closed';
  }

  /** The provider with its rate limit and breaker applied to every `stream` call. */
  guard(provider: Provider, config: ProviderConfig): Provider {
    const stream = (request: Parameters<Provider['stream']>[0], signal: AbortSignal) =>
      this.guardedStream(provider, this.stateFor(config), request, signal);
    return { name: provider.name, kind: provider.kind, stream };
  }

  private stateFor(config: ProviderConfig): GuardState {
    let state = this.states.get(config.name);
    if (!state) {
      state = { breaker: new CircuitBreaker(this.policy, this.clock), lastCode: 'server' };
      this.states.set(config.name, state);
    }
    // A changed setting takes effect on the next request; the breaker's memory stays.
    const rpm = config.rateLimit?.requestsPerMinute;
    if (rpm !== state.requestsPerMinute) {
      state.requestsPerMinute = rpm;
      state.limiter = rpm ? new RateLimiter(60_000 / rpm, this.clock) : undefined;
    }
    return state;
  }

  private async *guardedStream(
    provider: Provider,
    state: GuardState,
    request: Parameters<Provider['stream']>[0],
    signal: AbortSignal,
  ): AsyncGenerator<ProviderEvent> {
    const name = provider.name;
    const gate = state.breaker.check();
    if (!gate.allowed) {
      throw new ProviderError(
        state.lastCode,
        `${name} is paused: it failed ${this.policy.failureThreshold} or more times in a row (last: ` +
          `${gate.reason}). Sextant tries it again in ${seconds(gate.retryInMs)} s.`,
      );
    }
    let settled = false;
    try {
      if (state.limiter) {
        try {
          await state.limiter.acquire(signal);
        } catch {
          throw abortedError({ providerName: name, afterFirstToken: false });
        }
      }
      for await (const ev of provider.stream(request, signal)) yield ev;
      settled = true;
      const wasOpen = state.breaker.state !== 'closed';
      state.breaker.success();
      if (wasOpen) this.opts.onBreakerChange?.(name, 'closed', `${name} answered again`);
    } catch (err) {
      settled = true;
      throw this.failed(name, state, err, signal);
    } finally {
      // The consumer stopped reading early (or the limiter wait was aborted): no verdict either way.
      if (!settled) state.breaker.abandon();
    }
  }

  /** Records a failure and returns the error to throw: the same one, or one that says the breaker opened. */
  private failed(name: string, state: GuardState, err: unknown, signal: AbortSignal): unknown {
    if (signal.aborted || !isProviderError(err) || !HEALTH_FAILURES.has(err.code)) {
      state.breaker.abandon();
      return err;
    }
    const before = state.breaker.state;
    state.breaker.failure(err.message, { retryAfterMs: err.retryAfterMs });
    const retryAt = state.breaker.retryAt();
    if (before !== 'closed' && before !== 'half-open') return err;
    if (retryAt === undefined) return err;
    state.lastCode = err.code;
    const wait = seconds(retryAt - this.clock.now());
    const why =
      before === 'half-open' ? 'it is still failing' : `it failed ${state.breaker.consecutiveFailures} times in a row`;
    const note = `Sextant will not call ${name} again for ${wait} s (${why}).`;
    this.opts.onBreakerChange?.(name, 'open', note);
    return new ProviderError(err.code, `${err.message} ${note}`, err.status, err.afterFirstToken, err.retryAfterMs);
  }
}
