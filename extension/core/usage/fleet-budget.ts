// Limits for a fleet of sessions in one window, shared by every session's request runner:
// - a counting gate (sextant.agents.maxParallelSessions): a request takes a slot when it starts and gives
//   it back when it ends; a request past the limit waits in line (FIFO) — with a visible "waiting for a free
//   slot" notice and Stop — rather than being refused, because a refusal loses the user's message and makes
//   them retry by hand exactly when a slot frees, which is what a queue does for them;
// - total caps over all sessions (sextant.budget.totalMaxCostUsd / .totalMaxTokens): each session reports
//   what it spends as it spends it; the report that takes the total to a cap trips it (once: the pause
//   listeners hear it once however many sessions report past it), and every running session stops at its
//   next step boundary with Continue, the same pause as a session cap (budget.ts). Raising the cap re-arms it;
//   a Continue run goes past it for that run, as it goes past a session cap;
// - the spend-rate warning (sextant.budget.maxCostUsdPerMinute) over all sessions: the dollars of the
//   trailing minute against the rate, said once until the rate falls back under it.
// Reports and checks are synchronous: the extension host runs one JavaScript thread, so two sessions'
// reports cannot interleave inside one and no update is lost.
import type { BudgetStop } from '../../protocol';
import { capValue } from './budget';

export interface FleetLimits {
  /** Requests that may run at once across the window's sessions; unset or 0: no limit. */
  maxParallelSessions?: number;
  /** Dollars all sessions of the window may spend together. */
  totalMaxCostUsd?: number;
  /** Tokens (sent and received) all sessions of the window may spend together. */
  totalMaxTokens?: number;
  /** Dollars a minute over all sessions before a warning. */
  maxCostUsdPerMinute?: number;
}

export interface FleetSpend {
  tokens: number;
  /** Dollars of the spending whose price is known (a model without a price adds tokens only). */
  costUsd: number;
}

export interface FleetBudgetOptions {
  /** Read on every check, so a changed setting applies at once (call limitsChanged() to wake waiters). */
  limits(): FleetLimits;
  now(): number;
}

export interface AcquireOptions {
  /** Stop while waiting: the wait ends with a FleetWaitAborted error and no slot is taken. */
  signal?: AbortSignal;
  /** Called once when the request has to wait: how many run and the limit. */
  onWait?(running: number, limit: number): void;
}

/** A taken slot; release() gives it back (once; later calls do nothing). */
export interface FleetSlot {
  release(): void;
}

/** What one report changed: a warning to show in the reporting session, and the total cap if tripped. */
export interface FleetReport {
  warning?: string;
  stop?: BudgetStop;
}

export class FleetWaitAborted extends Error {
  constructor() {
    super('Stopped while waiting for a free session slot.');
    this.name = 'FleetWaitAborted';
  }
}

export const TOTAL_COST_SETTING = 'sextant.budget.totalMaxCostUsd';
export const TOTAL_TOKENS_SETTING = 'sextant.budget.totalMaxTokens';
export const MAX_PARALLEL_SETTING = 'sextant.agents.maxParallelSessions';
const RATE_SETTING = 'sextant.budget.maxCostUsdPerMinute';
const RATE_WINDOW_MS = 60_000;

interface Waiter {
  sessionId: string;
  grant(slot: FleetSlot): void;
}

export class FleetBudget {
  private readonly bySession = new Map<string, FleetSpend>();
  private readonly total: FleetSpend = { tokens: 0, costUsd: 0 };
  private readonly held = new Map<FleetSlot, string>();
  private readonly line: Waiter[] = [];
  private readonly pauseListeners = new Set<(stop: BudgetStop) => void>();
  private readonly warningListeners = new Set<(text: string) => void>();
  private readonly changeListeners = new Set<() => void>();
  /** Dollars spent in the trailing minute, as (time, dollars) pairs. */
  private readonly recent: Array<{ at: number; costUsd: number }> = [];
  private tripped: BudgetStop | undefined;
  private rateWarned = false;

  constructor(private readonly options: FleetBudgetOptions) {}

  // ---- slots -------------------------------------------------------------------------------------

  /** Requests running now (slots taken). */
  running(): number {
    return this.held.size;
  }

  /** Requests waiting for a slot. */
  waiting(): number {
    return this.line.length;
  }

  /** The sessions whose request waits for a slot (the Agents view lists them as queued). */
  queuedSessions(): ReadonlySet<string> {
    return new Set(this.line.map((w) => w.sessionId));
  }

  /** A slot for one request of `sessionId`; waits in line while the limit is reached. */
  acquire(sessionId: string, o: AcquireOptions = {}): Promise<FleetSlot> {
    if (o.signal?.aborted) return Promise.reject(new FleetWaitAborted());
    if (!this.line.length && this.hasRoom()) return Promise.resolve(this.take(sessionId));
    o.onWait?.(this.held.size, this.parallelLimit() ?? 0);
    return new Promise<FleetSlot>((resolve, reject) => {
      const waiter: Waiter = {
        sessionId,
        grant: (slot) => {
          o.signal?.removeEventListener('abort', onAbort);
          resolve(slot);
        },
      };
      const onAbort = () => {
        const i = this.line.indexOf(waiter);
        if (i >= 0) this.line.splice(i, 1);
        reject(new FleetWaitAborted());
        this.changed();
      };
      o.signal?.addEventListener('abort', onAbort, { once: true });
      this.line.push(waiter);
      this.changed();
    });
  }

  /** The limit may have been raised: lets waiting requests in while there is room. */
  limitsChanged(): void {
    this.admit();
    this.check();
  }

  // ---- spending ----------------------------------------------------------------------------------

  /** What `sessionId` spent since its last report (tokens sent and received; dollars where priced). */
  report(sessionId: string, spend: { tokens: number; costUsd?: number }): FleetReport {
    const tokens = Math.max(0, spend.tokens);
    const costUsd = Math.max(0, spend.costUsd ?? 0);
    const mine = this.bySession.get(sessionId) ?? { tokens: 0, costUsd: 0 };
    mine.tokens += tokens;
    mine.costUsd += costUsd;
    this.bySession.set(sessionId, mine);
    this.total.tokens += tokens;
    this.total.costUsd += costUsd;
    const now = this.options.now();
    if (costUsd > 0) this.recent.push({ at: now, costUsd });
    const warning = this.rateCheck(now);
    const before = this.tripped;
    const stop = this.check();
    this.changed();
    return { ...(warning ? { warning } : {}), ...(stop && !before ? { stop } : {}) };
  }

  /** All sessions' spending together. */
  spent(): FleetSpend {
    return { ...this.total };
  }

  /** One session's spending (zero when it has reported nothing). */
  spentBy(sessionId: string): FleetSpend {
    return { ...(this.bySession.get(sessionId) ?? { tokens: 0, costUsd: 0 }) };
  }

  /**
   * The total cap reached, checked against the current settings; undefined to go on. The runners ask at
   * each step boundary (through RunBudget.shared), so every running session pauses there.
   */
  check(): BudgetStop | undefined {
    const limits = this.options.limits();
    const cost = capValue(limits.totalMaxCostUsd);
    const tokens = capValue(limits.totalMaxTokens);
    let stop: BudgetStop | undefined;
    if (cost !== undefined && this.total.costUsd >= cost)
      stop = { cap: 'total_cost', setting: TOTAL_COST_SETTING, limit: cost, spent: this.total.costUsd };
    else if (tokens !== undefined && this.total.tokens >= tokens)
      stop = { cap: 'total_tokens', setting: TOTAL_TOKENS_SETTING, limit: tokens, spent: this.total.tokens };
    if (stop && !this.tripped) {
      this.tripped = stop;
      for (const l of [...this.pauseListeners]) l(stop);
    }
    if (!stop) this.tripped = undefined; // under the cap again (it was raised): a later crossing trips anew
    return stop;
  }

  /** Told once each time the total crosses a cap (every running session pauses at its next step). */
  onPause(listener: (stop: BudgetStop) => void): () => void {
    this.pauseListeners.add(listener);
    return () => this.pauseListeners.delete(listener);
  }

  /** Told when all sessions together spend faster than sextant.budget.maxCostUsdPerMinute. */
  onWarning(listener: (text: string) => void): () => void {
    this.warningListeners.add(listener);
    return () => this.warningListeners.delete(listener);
  }

  /** Told when a slot is taken, freed or waited for, and when spending is reported (the Agents view's total). */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** The caps in force now, for a view that shows the total against them. */
  caps(): { costUsd?: number; tokens?: number } {
    const limits = this.options.limits();
    const costUsd = capValue(limits.totalMaxCostUsd);
    const tokens = capValue(limits.totalMaxTokens);
    return { ...(costUsd !== undefined ? { costUsd } : {}), ...(tokens !== undefined ? { tokens } : {}) };
  }

  // ---- inside --------------------------------------------------------------------------------------

  private parallelLimit(): number | undefined {
    const n = this.options.limits().maxParallelSessions;
    return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
  }

  private hasRoom(): boolean {
    const limit = this.parallelLimit();
    return limit === undefined || this.held.size < limit;
  }

  private take(sessionId: string): FleetSlot {
    const slot: FleetSlot = {
      release: () => {
        if (!this.held.delete(slot)) return;
        this.admit();
        this.changed();
      },
    };
    this.held.set(slot, sessionId);
    this.changed();
    return slot;
  }

  /** First come, first served while there is room. */
  private admit(): void {
    while (this.line.length && this.hasRoom()) {
      const next = this.line.shift();
      if (next) next.grant(this.take(next.sessionId));
    }
  }

  private changed(): void {
    for (const l of [...this.changeListeners]) l();
  }

  private rateCheck(now: number): string | undefined {
    const max = capValue(this.options.limits().maxCostUsdPerMinute);
    while (this.recent.length && (this.recent[0]?.at ?? now) <= now - RATE_WINDOW_MS) this.recent.shift();
    const lastMinute = this.recent.reduce((sum, r) => sum + r.costUsd, 0);
    if (max === undefined || lastMinute <= max) {
      this.rateWarned = false;
      return undefined;
    }
    if (this.rateWarned) return undefined;
    this.rateWarned = true;
    const text =
      `All sessions together spent $${lastMinute.toFixed(4)} in the last minute, faster than ${RATE_SETTING} ` +
      `($${max.toFixed(2)}). Stop some of them if that is not what you want.`;
    for (const l of [...this.warningListeners]) l(text);
    return text;
  }
}
