// Turns a stream of request events into envelopes and hands them over in batches: about one batch
// per animation frame (~16 ms), never one post per token. Adjacent text deltas are merged, so the
// cost of a flush depends on what arrived since the last one, never on the length of the chat.
// Invariants kept here: seq strictly increasing per request; exactly one terminal event; nothing after it.
import { isTerminal, type Envelope, type RequestEvent } from '../../protocol';

export interface Scheduler {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realScheduler: Scheduler = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

interface Pending {
  requestId: string;
  event: RequestEvent;
}

export class Outbox {
  private pending: Pending[] = [];
  private timer: unknown;
  private readonly seqs = new Map<string, number>();
  /** Requests that ended (terminal sent) or are stopping (only a terminal event may follow). */
  private readonly closed = new Set<string>();
  private readonly stopping = new Set<string>();

  constructor(
    private readonly sink: (envelopes: Envelope[]) => void,
    private readonly now: () => number,
    private readonly scheduler: Scheduler = realScheduler,
    private readonly intervalMs = 16,
  ) {}

  /** Queues an event; returns false when the request can no longer receive it. */
  emit(requestId: string, event: RequestEvent): boolean {
    if (this.closed.has(requestId)) return false;
    if (this.stopping.has(requestId) && !isTerminal(event)) return false;
    if (isTerminal(event)) this.closed.add(requestId);
    const last = this.pending[this.pending.length - 1];
    if (last && last.requestId === requestId && mergeInto(last.event, event)) {
      // merged
    } else {
      this.pending.push({ requestId, event: cloneMergeable(event) });
    }
    if (isTerminal(event) || event.type === 'started') this.flush();
    else if (this.timer === undefined) this.timer = this.scheduler.setTimeout(() => this.flush(), this.intervalMs);
    return true;
  }

  /** After this, only a terminal event is accepted for the request (abort stops events at once). */
  stop(requestId: string): void {
    this.stopping.add(requestId);
  }

  flush(): void {
    if (this.timer !== undefined) {
      this.scheduler.clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.pending.length) return;
    const batch = this.pending;
    this.pending = [];
    const ts = this.now();
    const envelopes = batch.map(({ requestId, event }) => {
      const seq = (this.seqs.get(requestId) ?? 0) + 1;
      this.seqs.set(requestId, seq);
      return { requestId, seq, ts, event };
    });
    this.sink(envelopes);
  }

  dispose(): void {
    if (this.timer !== undefined) this.scheduler.clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** Copies events that may later be merged into, so callers' objects are never mutated. */
function cloneMergeable(event: RequestEvent): RequestEvent {
  return event.type === 'text_delta' || event.type === 'thinking_delta' || event.type === 'tool_progress'
    ? { ...event }
    : event;
}

function mergeInto(target: RequestEvent, next: RequestEvent): boolean {
  if (target.type === 'text_delta' && next.type === 'text_delta') {
    target.text += next.text;
    return true;
  }
  if (target.type === 'thinking_delta' && next.type === 'thinking_delta') {
    target.text += next.text;
    return true;
  }
  if (target.type === 'tool_progress' && next.type === 'tool_progress' && target.callId === next.callId) {
    target.output += next.output;
    return true;
  }
  return false;
}
