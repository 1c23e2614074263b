// Tells the host the user is typing a message (`composing`, extension/protocol/composing.ts), so the
// Send that follows finds the model's connection open. Throttled to one message per interval; never
// for an empty box, while a request runs (its own connection is busy and warm) or while the browser
// says it is offline. The message carries nothing of the draft.
import { COMPOSING_INTERVAL_MS, type Inbound, Throttle } from '../extension/protocol';

export class ComposingSignal {
  private readonly throttle: Throttle;

  constructor(
    private readonly post: (message: Inbound) => void,
    now: () => number = Date.now,
    private readonly online: () => boolean = () => globalThis.navigator?.onLine !== false,
  ) {
    this.throttle = new Throttle(COMPOSING_INTERVAL_MS, now);
  }

  /** The draft changed by typing (`running`: a request is in flight in this chat). */
  typed(draft: string, running: boolean): void {
    if (!draft.trim() || running || !this.online()) return;
    if (this.throttle.take()) this.post({ type: 'composing' });
  }
}
