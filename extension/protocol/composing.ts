// The `composing` message (webview → host): while the user types, the host gets ready for the Send that
// follows — chiefly the connection to the model's server, which Node's HTTP client closes after about
// 4 s idle, so the one opened at start-up is rarely still there when a person has finished typing.
// Both ends throttle with the same interval: the view so it posts little, the host because it never
// trusts the view. Two seconds keeps a connection opened while typing alive for a Send up to ~2 s after
// the last key (2 + 2 < 4), at one small request per 2 s at most, only while someone types.

/** At most one `composing` message (and one re-warm on the host) per this many ms. */
export const COMPOSING_INTERVAL_MS = 2_000;

/** Lets one event through per `intervalMs`; the ones in between are dropped (not delayed). */
export class Throttle {
  private last = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** True when this event may go: the first one, or the first after `intervalMs` since the last that went. */
  take(): boolean {
    const t = this.now();
    if (t - this.last < this.intervalMs) return false;
    this.last = t;
    return true;
  }
}
