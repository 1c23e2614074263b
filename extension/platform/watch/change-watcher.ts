// The entry of dist/change-watcher.js: a worker thread that watches workspace folders with inotify (one
// non-recursive `fs.watch` per folder that is not ignored) and keeps, per root, the set of paths that
// changed since the last take. Why a worker thread: libuv has one inotify instance per event loop, so
// in its own thread every event on that instance is ours (the overflow check below counts them all), and
// a busy extension host never leaves the queue unread.
//
// Soundness, point by point (a missed change is a silent loss at Rewind):
// - Every change made before a take is in: the take writes a sentinel file in a private watched folder
//   and answers only once that file's event arrives. One inotify queue is first in, first out, so every
//   event queued before the sentinel's has been handled by then.
// - Overflow: the kernel drops events past `max_queued_events` and libuv drops the overflow notice. A
//   full queue is read in one go (libuv reads until EAGAIN, then the loop moves on), so a batch of at
//   least `overflowAt` events (default half the queue) means events may be lost: re-walk, untrusted.
// - A new folder gets its watch when its event arrives, before the take answers; files made in it before
//   that are found because the caller rescans a folder whose path is in the changes.
// - A watch that cannot be added (fs.inotify.max_user_watches reached, EACCES) or fails: untrusted
//   until a full re-walk succeeds; the limit stops trying (until `watch()` again).
import {
  lstatSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  readFileSync,
  watch,
  writeFileSync,
  type FSWatcher,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { FeedIgnore, FolderChanges } from '../../core/checkpoints/change-feed';

export type WatcherRequest =
  | { op: 'watch'; root: string; ignore: FeedIgnore }
  | { op: 'unwatch'; root: string }
  | { op: 'take'; id: number; root: string };
export type WatcherReply = { id: number } & FolderChanges;

export interface WatcherOptions {
  /** A read batch this large may mean the kernel queue overflowed (default: half of max_queued_events). */
  overflowAt?: number;
  /** At most this many watched folders per root (default: none but the system's limit). */
  maxWatches?: number;
  /** How long a take waits for its sentinel before answering "untrusted". */
  lateMs?: number;
  /** Word 0: a `hold` message stops the thread reading events while it is 1 (`WorkerChangeFeed.hold`). */
  hold?: SharedArrayBuffer;
}

interface Root {
  root: string;
  skip: (rel: string) => boolean;
  /** Watched folder (root-relative, "" = the root) → its watcher and inode. */
  dirs: Map<string, { w: FSWatcher; ino: number }>;
  dirty: Set<string>;
  /** Why this window's events may be incomplete. */
  broken?: string;
  /** Why watching stopped for good (a limit): every take is untrusted. */
  failed?: string;
  /** Whether the watch was complete at the previous take (the first take is never trusted). */
  completeAtLastTake: boolean;
}

export class ChangeWatcher {
  private readonly roots = new Map<string, Root>();
  private readonly sentinelDir = mkdtempSync(path.join(tmpdir(), 'sextant-watch-'));
  private readonly waiting = new Map<string, () => void>();
  private readonly sentinel: FSWatcher;
  private batch = 0;
  private takes = 0;
  private readonly overflowAt: number;

  constructor(
    private readonly reply: (r: WatcherReply) => void,
    private readonly options: WatcherOptions = {},
  ) {
    this.overflowAt = options.overflowAt ?? Math.floor(queueLimit() / 2);
    this.sentinel = watch(this.sentinelDir, (_type, name) => {
      this.count();
      const done = name ? this.waiting.get(String(name)) : undefined;
      if (done) {
        this.waiting.delete(String(name));
        done();
      }
    });
  }

  handle(req: WatcherRequest): void {
    if (req.op === 'watch') this.watchRoot(req.root, req.ignore);
    else if (req.op === 'unwatch') this.unwatchRoot(req.root);
    else this.take(req.id, req.root);
  }

  close(): void {
    for (const root of [...this.roots.keys()]) this.unwatchRoot(root);
    this.sentinel.close();
    rmSync(this.sentinelDir, { recursive: true, force: true });
  }

  private watchRoot(root: string, ignore: FeedIgnore): void {
    this.unwatchRoot(root);
    const paths = ignore.paths ? new Set(ignore.paths) : undefined;
    const names = new Set(ignore.defaultDirs);
    const skip = (rel: string) =>
      path.posix.basename(rel) === '.git' || (paths ? paths.has(`${rel}/`) : names.has(path.posix.basename(rel)));
    const r: Root = { root, skip, dirs: new Map(), dirty: new Set(), completeAtLastTake: false };
    this.roots.set(root, r);
    this.walk(r, '');
  }

  private unwatchRoot(root: string): void {
    const r = this.roots.get(root);
    if (!r) return;
    for (const d of r.dirs.values()) d.w.close();
    this.roots.delete(root);
  }

  private take(id: number, root: string): void {
    const r = this.roots.get(root);
    if (!r) {
      this.reply({ id, trusted: false, reason: 'the folder is not watched', paths: [] });
      return;
    }
    const name = `take-${++this.takes}`;
    let answered = false;
    const answer = (late: boolean) => {
      if (answered) return;
      answered = true;
      clearTimeout(timer);
      this.waiting.delete(name);
      rmSync(path.join(this.sentinelDir, name), { force: true });
      const reason = late ? 'the file events came late' : (r.failed ?? r.broken);
      const trusted = !reason && r.completeAtLastTake;
      this.reply({
        id,
        trusted,
        ...(trusted ? {} : { reason: reason ?? 'the watch has just started' }),
        paths: [...r.dirty],
      });
      r.dirty.clear();
      r.broken = undefined;
      // A late sentinel leaves the events of this window unknown: the next window starts from a re-walk.
      if (late) this.resync(r, 'the file events came late');
      r.completeAtLastTake = !r.failed && !r.broken;
    };
    const timer = setTimeout(() => answer(true), this.options.lateMs ?? 5_000);
    this.waiting.set(name, () => answer(false));
    try {
      writeFileSync(path.join(this.sentinelDir, name), '');
    } catch {
      answer(true);
    }
  }

  /** One more event in the current read batch; the batch ends when the loop moves on. */
  private count(): void {
    if (this.batch++ === 0) setImmediate(() => (this.batch = 0));
    if (this.batch === this.overflowAt)
      for (const r of this.roots.values())
        this.resync(r, 'too many file events at once (the queue may have overflowed)');
  }

  private onEvent(r: Root, dir: string, type: string, name: string | Buffer | null): void {
    this.count();
    if (name === null || name === undefined) {
      this.resync(r, 'a file event without a name');
      return;
    }
    const rel = dir ? `${dir}/${String(name)}` : String(name);
    r.dirty.add(rel);
    if (type === 'rename') this.follow(r, rel);
  }

  /** A path was created, removed or renamed: watch it if it is a new folder, stop watching a gone one. */
  private follow(r: Root, rel: string): void {
    let ino: number | undefined;
    try {
      const st = lstatSync(path.join(r.root, rel));
      if (st.isDirectory()) ino = st.ino;
    } catch {
      // gone
    }
    const known = r.dirs.get(rel);
    if (known && known.ino === ino) return;
    this.unwatchUnder(r, rel);
    if (ino !== undefined && !r.skip(rel)) this.walk(r, rel);
  }

  private unwatchUnder(r: Root, rel: string): void {
    const under = `${rel}/`;
    for (const [d, w] of r.dirs)
      if (d === rel || d.startsWith(under)) {
        w.w.close();
        r.dirs.delete(d);
      }
  }

  /** Watches `rel` and every folder under it that is not ignored (a folder already watched is kept). */
  private walk(r: Root, rel: string): void {
    if (r.failed) return;
    const abs = rel ? path.join(r.root, rel) : r.root;
    let ino: number;
    try {
      ino = lstatSync(abs).ino;
    } catch {
      return; // gone already: its event says so
    }
    if (r.dirs.get(rel)?.ino !== ino) {
      r.dirs.get(rel)?.w.close();
      if (this.options.maxWatches !== undefined && r.dirs.size >= this.options.maxWatches) {
        this.fail(r, `more than ${this.options.maxWatches} folders to watch`);
        return;
      }
      try {
        const w = watch(abs, (type, name) => this.onEvent(r, rel, type, name));
        w.on('error', () => this.resync(r, `the watch of ${rel || 'the folder'} failed`));
        r.dirs.set(rel, { w, ino });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return;
        if (code === 'ENOSPC')
          this.fail(r, "the system's limit of watched folders is reached (fs.inotify.max_user_watches)");
        else this.fail(r, `${rel || 'the folder'} cannot be watched (${code ?? String(err)})`);
        return;
      }
    }
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (!r.skip(child)) this.walk(r, child);
      if (r.failed) return;
    }
  }

  /** Events may have been lost: this window is untrusted; the watches are checked against the disk. */
  private resync(r: Root, reason: string): void {
    r.broken ??= reason;
    for (const [d, w] of r.dirs) {
      let ino: number | undefined;
      try {
        ino = lstatSync(d ? path.join(r.root, d) : r.root).ino;
      } catch {
        // gone
      }
      if (ino !== w.ino) {
        w.w.close();
        r.dirs.delete(d);
      }
    }
    this.walk(r, '');
  }

  private fail(r: Root, reason: string): void {
    r.failed = reason;
    for (const d of r.dirs.values()) d.w.close();
    r.dirs.clear();
  }
}

/** The kernel's inotify queue length (events past it are dropped). */
function queueLimit(): number {
  try {
    return Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8').trim()) || 16_384;
  } catch {
    return 16_384;
  }
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  const options = (workerData ?? {}) as WatcherOptions;
  const watcher = new ChangeWatcher((r) => port.postMessage(r), options);
  port.on('message', (req: WatcherRequest | { op: 'close' } | { op: 'hold' }) => {
    if (req.op === 'hold') {
      if (!options.hold) return;
      const flags = new Int32Array(options.hold);
      port.postMessage({ held: true });
      Atomics.wait(flags, 0, 1);
    } else if (req.op === 'close') {
      watcher.close();
      port.close();
    } else watcher.handle(req);
  });
}
