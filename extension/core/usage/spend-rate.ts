// The spend-rate warning (sextant.budget.maxCostUsdPerMinute): a run — its own model calls and its
// sub-agents' — that spends faster than the user's rate gets one notice saying so. It does not stop the
// run (the caps do that); it tells the user early that fan-out is burning money. The rate is judged
// over at least one minute, so a single expensive first call does not trip it unless it alone costs
// more than a minute's allowance.

export class SpendRateWatch {
  private warned = false;

  constructor(
    private readonly maxPerMinute: number | undefined,
    private readonly startedAt: number,
  ) {}

  /** The warning, once, when `costUsd` spent by `now` is over the rate; undefined otherwise. */
  check(costUsd: number | undefined, now: number): string | undefined {
    if (this.warned || !this.maxPerMinute || costUsd === undefined) return undefined;
    const minutes = Math.max(1, (now - this.startedAt) / 60_000);
    const rate = costUsd / minutes;
    if (costUsd <= this.maxPerMinute * minutes) return undefined;
    this.warned = true;
    return (
      `This run is spending about $${rate.toFixed(2)} a minute ($${costUsd.toFixed(4)} so far), faster than ` +
      `sextant.budget.maxCostUsdPerMinute ($${this.maxPerMinute.toFixed(2)}). Stop it if that is not what you want.`
    );
  }
}
