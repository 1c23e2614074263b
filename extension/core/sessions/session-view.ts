// One view's tie to the hub: which slot it shows, and the two messages that may move it. "New chat" and
// "open from History" used to replace the one chat (stopping its request); with several sessions they
// leave a running one where it is — in the background, in the Agents view — and show another slot.
import type { Outbound } from '../../protocol';
import type { SessionHub, SessionSlot, SessionViewer, SlotController, SlotOptions } from './session-hub';

export class SessionView<C extends SlotController = SlotController> {
  private detachFrom: (() => void) | undefined;
  private current: SessionSlot<C>;
  private readonly moved = new Set<(slot: SessionSlot<C>) => void>();

  constructor(
    private readonly hub: SessionHub<C>,
    private readonly viewer: SessionViewer,
    slot: SessionSlot<C>,
    private readonly place: SlotOptions['place'],
  ) {
    this.current = slot;
    this.detachFrom = slot.attach(viewer);
  }

  get slot(): SessionSlot<C> {
    return this.current;
  }

  /** Called after the view moved to another slot (the host retitles a tab, remembers the sidebar's chat). */
  onMoved(listener: (slot: SessionSlot<C>) => void): () => void {
    this.moved.add(listener);
    return () => void this.moved.delete(listener);
  }

  /** A message from the view. Routing needs only its type (and a session id), so it is read loosely here. */
  async handle(raw: unknown): Promise<void> {
    const msg = raw as { type?: unknown; sessionId?: unknown } | null;
    const type = typeof msg?.type === 'string' ? msg.type : undefined;
    const running = this.current.controller.isRunning();
    if (type === 'newChat' && running) {
      await this.show(this.hub.open(this.place ? { place: this.place } : {}, this.current));
      return;
    }
    if (type === 'resume' && typeof msg?.sessionId === 'string' && msg.sessionId !== this.current.status.sessionId) {
      const live = this.hub.bySession(msg.sessionId);
      if (live || running) {
        const slot = live ?? (await this.hub.reopen(msg.sessionId, this.place ? { place: this.place } : {}));
        if (slot) {
          await this.show(slot);
          return;
        }
      }
    }
    await this.current.parts.handle(raw);
  }

  /** Shows another slot here: the old one goes on (or is released if idle and unwatched). */
  async show(slot: SessionSlot<C>): Promise<void> {
    if (slot === this.current) return void (await slot.controller.postSnapshot());
    const old = this.current;
    this.detachFrom?.();
    this.current = slot;
    this.detachFrom = slot.attach(this.viewer);
    for (const l of this.moved) l(slot);
    await slot.controller.postSnapshot();
    await this.hub.release(old);
  }

  /** Posts to this view only (a host's own notice, a card that is not a session's). */
  post(message: Outbound): void {
    this.viewer.post(message);
  }

  /** The view is gone: the slot stays (running, or listed), released if idle. */
  async close(): Promise<void> {
    this.detachFrom?.();
    this.detachFrom = undefined;
    this.moved.clear();
    await this.hub.release(this.current);
  }
}
