// The ChangeFeed command coverage uses in VS Code: a worker thread running dist/change-watcher.js
// (change-watcher.ts). Started on the first `watch()`, unref'd while no take waits (it never keeps a
// process alive). A worker that fails to start or dies answers every take "untrusted" (the caller scans);
// the next take starts a new one and watches the same folders again.
import { Worker } from 'node:worker_threads';
import type { ChangeFeed, FeedIgnore, FolderChanges } from '../../core/checkpoints/change-feed';
import type { WatcherOptions, WatcherReply, WatcherRequest } from './change-watcher';

export interface WorkerChangeFeedOptions extends WatcherOptions {
  /** The worker script: dist/change-watcher.js. */
  file: string;
}

export class WorkerChangeFeed implements ChangeFeed {
  private worker: Worker | undefined;
  private readonly watched = new Map<string, FeedIgnore>();
  private readonly pending = new Map<number, (c: FolderChanges) => void>();
  private ids = 0;
  private disposed = false;
  private flags: Int32Array | undefined;
  private onHeld: (() => void) | undefined;

  constructor(private readonly options: WorkerChangeFeedOptions) {}

  watch(root: string, ignore: FeedIgnore): void {
    this.watched.set(root, ignore);
    // A new worker is sent every watched folder when it starts.
    if (this.worker) this.worker.postMessage({ op: 'watch', root, ignore } satisfies WatcherRequest);
    else this.ensure();
  }

  take(root: string): Promise<FolderChanges> {
    const id = ++this.ids;
    const worker = this.ensure();
    if (!worker) return Promise.resolve({ trusted: false, reason: 'the file watcher is not running', paths: [] });
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      worker.ref();
      worker.postMessage({ op: 'take', id, root } satisfies WatcherRequest);
    });
  }

  /**
   * Stops the worker reading events, as a thread busy elsewhere would, until the returned function is
   * called; resolves once it has stopped. Tests use it to make a burst of events arrive at once.
   */
  async hold(): Promise<() => void> {
    const worker = this.ensure();
    const flags = this.flags;
    if (!worker || !flags) return () => undefined;
    Atomics.store(flags, 0, 1);
    worker.ref();
    await new Promise<void>((resolve) => {
      this.onHeld = resolve;
      worker.postMessage({ op: 'hold' });
    });
    if (this.pending.size === 0) worker.unref();
    return () => {
      Atomics.store(flags, 0, 0);
      Atomics.notify(flags, 0);
    };
  }

  dispose(): void {
    this.disposed = true;
    const w = this.worker;
    this.worker = undefined;
    this.settleAll('the file watcher stopped');
    if (w) {
      w.postMessage({ op: 'close' });
      void w.terminate();
    }
  }

  private ensure(): Worker | undefined {
    if (this.disposed) return undefined;
    if (this.worker) return this.worker;
    const { file, ...options } = this.options;
    const hold = new SharedArrayBuffer(4);
    let worker: Worker;
    try {
      worker = new Worker(file, { workerData: { ...options, hold } });
      this.flags = new Int32Array(hold);
    } catch {
      return undefined;
    }
    worker.unref();
    worker.on('message', (r: WatcherReply | { held: true }) => {
      if ('held' in r) return this.onHeld?.();
      const done = this.pending.get(r.id);
      this.pending.delete(r.id);
      if (this.pending.size === 0) worker.unref();
      done?.({ trusted: r.trusted, paths: r.paths, ...(r.reason ? { reason: r.reason } : {}) });
    });
    const gone = () => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.settleAll('the file watcher stopped');
    };
    worker.on('error', gone);
    worker.on('exit', gone);
    this.worker = worker;
    for (const [root, ignore] of this.watched)
      worker.postMessage({ op: 'watch', root, ignore } satisfies WatcherRequest);
    return worker;
  }

  private settleAll(reason: string): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const done of all) done({ trusted: false, reason, paths: [] });
  }
}
