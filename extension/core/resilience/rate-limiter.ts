// Client-side rate limit for one provider: requests are spaced at least `minIntervalMs` apart (slots
// are reserved in call order, so parallel searches queue instead of bursting), and a server that says
// "not before T" (retry-after, Brave's X-RateLimit-Reset) holds every later request until then.
import type { Clock } from './clock';

export class RateLimiter {
  /** Earliest time the next request may start. */
  private next = 0;

  constructor(
    private readonly minIntervalMs: number,
    private readonly clock: Clock,
  ) {}

  /** How long a request starting now would wait. */
  waitMs(): number {
    return Math.max(0, this.next - this.clock.now());
  }

  /** Waits for this request's slot. */
  async acquire(signal: AbortSignal): Promise<void> {
    const now = this.clock.now();
    const start = Math.max(now, this.next);
    this.next = start + this.minIntervalMs;
    if (start > now) await this.clock.sleep(start - now, signal);
  }

  /** The server asked for nothing before `at` (epoch ms). */
  holdUntil(at: number): void {
    this.next = Math.max(this.next, at);
  }
}
