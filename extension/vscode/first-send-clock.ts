// When this window's first message from a chat view reached the extension host, said once in the output
// channel after that request has started. With the key press in the view and the request on the model's
// wire (bench/lib/real-window.ts reads all three), it splits first use into VS Code's part — the webview
// → extension host hop — and Sextant's own. Logged only after the request is on its way (its `started`
// event goes out after the model call is dispatched), so saying it costs the request nothing.
import type { Outbound } from '../protocol';
import type { Logger } from '../core/ports';
import { endFirstRequestTrace, startFirstRequestTrace } from '../core/util/first-request-trace';

const ENDS = new Set(['complete', 'error', 'aborted']);

export class FirstSendClock {
  private arrivedAt: number | undefined;
  private said = false;
  private ended = false;

  /** `firstRequestEnded`: once, when that request ends (its functions have all run: a code cache is made). */
  constructor(
    private readonly log: Logger,
    private readonly firstRequestEnded?: () => void,
  ) {}

  /** A raw message from a view, before anything else is done with it. */
  arrived(raw: unknown): void {
    if (this.arrivedAt !== undefined || (raw as { type?: unknown } | null)?.type !== 'send') return;
    this.arrivedAt = performance.timeOrigin + performance.now();
    startFirstRequestTrace();
  }

  /** Every message the chats post: the first request's `started` event says it is under way. */
  observe(message: Outbound): void {
    if (
      this.said &&
      !this.ended &&
      message.type === 'events' &&
      message.envelopes.some((e) => ENDS.has(e.event.type))
    ) {
      this.ended = true;
      this.firstRequestEnded?.();
    }
    if (this.said || this.arrivedAt === undefined || message.type !== 'events') return;
    if (!message.envelopes.some((e) => e.event.type === 'started')) return;
    this.said = true;
    const at = this.arrivedAt;
    const steps = endFirstRequestTrace();
    this.log.info(
      `first request: its message from the chat view reached the extension host at ${new Date(at).toISOString()} ` +
        `(epoch ${at.toFixed(1)} ms)${steps ? `; steps (ms): ${steps}` : ''}`,
    );
  }
}
