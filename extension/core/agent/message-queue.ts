// Messages the user queued while a turn ran: sent one by one, in order, each after the previous request
// completed. Stop leaves them queued (they wait for the user's next send or an edit); the host keeps
// them in its state, so a re-created view, or a reloaded window, still shows them.
import type { ChatImage, Mode, QueuedMessage, Reference } from '../../protocol';

export interface QueueStore {
  read(): unknown;
  write(items: QueuedMessage[]): void;
}

export class MessageQueue {
  private list: QueuedMessage[];
  private readonly listeners = new Set<(items: QueuedMessage[]) => void>();

  constructor(
    private readonly store: QueueStore,
    private readonly newId: () => string,
  ) {
    const stored = store.read();
    this.list = Array.isArray(stored)
      ? stored.filter(
          (m): m is QueuedMessage =>
            typeof m === 'object' && m !== null && typeof m.id === 'string' && typeof m.text === 'string',
        )
      : [];
  }

  items(): QueuedMessage[] {
    return [...this.list];
  }

  onDidChange(listener: (items: QueuedMessage[]) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private changed(): void {
    this.store.write(this.items());
    for (const l of [...this.listeners]) l(this.items());
  }

  /** `first`: ahead of the others (a steer with images, which cannot ride on the running turn). */
  add(
    text: string,
    mode: Mode,
    references?: readonly Reference[],
    images?: readonly ChatImage[],
    opts: { first?: boolean } = {},
  ): QueuedMessage {
    const item: QueuedMessage = {
      id: this.newId(),
      text,
      mode,
      ...(references?.length ? { references: [...references] } : {}),
      ...(images?.length ? { images: [...images] } : {}),
    };
    if (opts.first) this.list.unshift(item);
    else this.list.push(item);
    this.changed();
    return item;
  }

  /** An empty text removes the item. */
  edit(id: string, text: string): void {
    if (!text.trim()) {
      this.remove(id);
      return;
    }
    this.list = this.list.map((m) => (m.id === id ? { ...m, text } : m));
    this.changed();
  }

  remove(id: string): void {
    this.list = this.list.filter((m) => m.id !== id);
    this.changed();
  }

  /** The next message to send, taken off the queue. */
  shift(): QueuedMessage | undefined {
    const next = this.list.shift();
    if (next) this.changed();
    return next;
  }

  /** One item, taken off the queue (Steer on a queued message). */
  take(id: string): QueuedMessage | undefined {
    const item = this.list.find((m) => m.id === id);
    if (item) this.remove(id);
    return item;
  }
}
