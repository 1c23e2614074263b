// The cost of a run whose price can change part-way: after a failover the fallback model answers at its
// own price, so what was spent before is kept at the old price and only later usage is costed at the new.
// Without a change the figure is exactly costOf(total, price). An unknown price on either side leaves the
// total unknown: a partial sum would be a made-up figure.
import type { Usage } from '../../protocol';
import type { ProviderConfig } from '../providers/types';
import { addUsage } from './budget';
import { costOf } from './cost';

type Price = ProviderConfig['price'];

export class RunningCost {
  private base: Usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
  private baseCost: number | undefined = 0;

  constructor(private price: Price) {}

  /** The cost of the run's usage so far (`total` counts from the start of the run). */
  of(total: Usage): number | undefined {
    const since: Usage = {
      inputTokens: total.inputTokens - this.base.inputTokens,
      outputTokens: total.outputTokens - this.base.outputTokens,
      cachedTokens: total.cachedTokens - this.base.cachedTokens,
      cacheWriteTokens: (total.cacheWriteTokens ?? 0) - (this.base.cacheWriteTokens ?? 0),
    };
    const cost = costOf(since, this.price);
    return this.baseCost === undefined || cost === undefined ? undefined : this.baseCost + cost;
  }

  /** The cost of usage that all came at the current price (one model call). */
  ofStep(usage: Usage): number | undefined {
    return costOf(usage, this.price);
  }

  /**
   * Adds a call priced elsewhere (a tool's own model call) to `total`: its tokens count, its cost is
   * `costUsd` (undefined: unknown, which makes the total unknown), not the turn model's price.
   */
  addPriced(total: Usage, usage: Usage, costUsd: number | undefined): void {
    addUsage(total, usage);
    addUsage(this.base, usage);
    this.baseCost = this.baseCost === undefined || costUsd === undefined ? undefined : this.baseCost + costUsd;
  }

  /** From now on usage is priced at `price`; `total` so far keeps its cost. */
  reprice(total: Usage, price: Price): void {
    this.baseCost = this.of(total);
    this.base = { ...total };
    this.price = price;
  }
}
