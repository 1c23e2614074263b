// A bounded pool: at most `limit` tasks run at once, the rest wait their turn in order. Research
// fetches go through it so pages are read in parallel without opening dozens of sockets at once.
export class TaskPool {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly all = new Set<Promise<unknown>>();

  constructor(private readonly limit: number) {}

  run<T>(task: () => Promise<T>): Promise<T> {
    const p = this.acquire().then(async () => {
      try {
        return await task();
      } finally {
        this.release();
      }
    });
    this.all.add(p);
    void p.then(
      () => this.all.delete(p),
      () => this.all.delete(p),
    );
    return p;
  }

  /** Settles when every task started so far has settled (failures included). */
  async idle(): Promise<void> {
    while (this.all.size) await Promise.allSettled([...this.all]);
  }

  private acquire(): Promise<void> {
    if (this.running < this.limit) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}
