// One request's place in the window's fleet (core/usage/fleet-budget.ts): the slot it takes when it starts
// (waiting, said in the chat, while sextant.agents.maxParallelSessions run), what it spends reported as the
// usage events come, and the total caps asked at its step boundaries. Without a fleet it does nothing.
import type { Usage } from '../../protocol';
import { type FleetBudget, type FleetSlot, FleetWaitAborted, MAX_PARALLEL_SETTING } from '../usage/fleet-budget';
import { tokensOf } from '../usage/budget';
import { markFirstRequest } from '../util/first-request-trace';

export type Fleet = Pick<FleetBudget, 'acquire' | 'report' | 'check'>;

export class FleetSeat {
  private slot: FleetSlot | undefined;
  private reported = { tokens: 0, costUsd: 0 };

  constructor(
    private readonly fleet: Fleet | undefined,
    private readonly sessionId: string,
  ) {}

  /** Whether there is a fleet to count against. */
  get active(): boolean {
    return this.fleet !== undefined;
  }

  /** Takes a slot (saying so while it waits); false when Stop came first. */
  async take(signal: AbortSignal, say: (text: string) => void): Promise<boolean> {
    if (!this.fleet) return true;
    try {
      this.slot = await this.fleet.acquire(this.sessionId, {
        signal,
        onWait: (running, limit) =>
          say(
            `Waiting for a free slot (${running} running; ${MAX_PARALLEL_SETTING} is ${limit}). ` +
              'It starts by itself when one ends; Stop cancels it.',
          ),
      });
      markFirstRequest('fleet seat');
      return true;
    } catch (err) {
      if (err instanceof FleetWaitAborted) return false;
      throw err;
    }
  }

  /** The run's running total after a usage event: the part not reported yet goes to the fleet. A warning to show. */
  usage(total: Usage): string | undefined {
    return this.spend({ tokens: tokensOf(total), costUsd: total.costUsd });
  }

  /**
   * The run's spending so far (its own calls and its sub-agents', live, from agent-turn.ts), or its usage
   * total: both are running totals of the same run, so only what goes past the highest one reported is new
   * (nothing is counted twice when both report). A warning to show.
   */
  spend(run: { tokens: number; costUsd?: number | undefined }): string | undefined {
    if (!this.fleet) return undefined;
    const tokens = Math.max(this.reported.tokens, run.tokens);
    const costUsd = Math.max(this.reported.costUsd, run.costUsd ?? 0);
    const delta = { tokens: tokens - this.reported.tokens, costUsd: costUsd - this.reported.costUsd };
    this.reported = { tokens, costUsd };
    if (delta.tokens <= 0 && delta.costUsd <= 0) return undefined;
    return this.fleet.report(this.sessionId, delta).warning;
  }

  /** The total caps, for RunBudget.shared; undefined without a fleet. */
  get shared(): (() => ReturnType<Fleet['check']>) | undefined {
    const fleet = this.fleet;
    return fleet ? () => fleet.check() : undefined;
  }

  release(): void {
    this.slot?.release();
    this.slot = undefined;
  }
}
