// A small unbounded async queue: producers push from callbacks (tool progress, approvals), a
// generator drains it while it waits for those callbacks' promises to settle.
export class AsyncQueue<T> {
  private items: T[] = [];
  private waiters: Array<() => void> = [];

  push(item: T): void {
    this.items.push(item);
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  drain(): T[] {
    const out = this.items;
    this.items = [];
    return out;
  }

  /** Resolves when an item is pushed or `other` settles, whichever comes first. */
  async waitFor(other: Promise<unknown>): Promise<void> {
    if (this.items.length) return;
    await Promise.race([new Promise<void>((resolve) => this.waiters.push(resolve)), other.then(noop, noop)]);
  }
}

function noop(): void {}
