// The live stat index of one workspace folder, kept between commands. It is brought up to date either by
// a full scan (`scanAll`) or, when a trusted change feed names what changed, by looking at those paths
// only (`apply`): a changed file is one lstat, a folder that appeared or was renamed is scanned whole.
// What a command changed is then known without comparing the whole index: a watch opened before the
// command keeps the earlier stat of every path that changes while it is open.
import * as path from 'node:path';
import { sameStat, type ScanOptions, type StatEntry, scanFolder, statPath } from './workspace-scan';

export interface IndexWatch {
  /** Each path that changed since the watch opened → its stat then (undefined: it was not there). */
  old: Map<string, StatEntry | undefined>;
  /** A scan was cut at the entry limit while open: only changes to files seen both times count. */
  partial: boolean;
}

export class FolderIndex {
  files = new Map<string, StatEntry>();
  private dirs = new Set<string>();
  truncated = false;
  /** Paths changed since `drainTouched()`; everything after a full scan. */
  private touched = new Set<string>();
  private touchedAll = true;
  private readonly watches = new Set<IndexWatch>();

  constructor(
    private readonly root: string,
    public options: ScanOptions,
  ) {}

  /** Scans the whole folder. */
  scanAll(): void {
    const scan = scanFolder(this.root, this.options);
    if (this.watches.size) {
      for (const [rel, st] of scan.files) {
        const was = this.files.get(rel);
        if (!was || !sameStat(was, st)) this.record(rel, was);
      }
      for (const [rel, was] of this.files) if (!scan.files.has(rel)) this.record(rel, was);
      if (scan.truncated) for (const w of this.watches) w.partial = true;
    }
    this.files = scan.files;
    this.dirs = scan.dirs;
    this.truncated = scan.truncated;
    this.touchedAll = true;
  }

  /**
   * Brings the named paths up to date. False when that cannot stand in for a full scan (the index is cut at
   * its limit, or would grow past it): the caller scans everything.
   */
  apply(paths: Iterable<string>): boolean {
    if (this.truncated) return false;
    for (const rel of paths) this.update(rel);
    return this.files.size <= this.options.maxEntries;
  }

  open(): IndexWatch {
    const w: IndexWatch = { old: new Map(), partial: this.truncated };
    this.watches.add(w);
    return w;
  }

  close(w: IndexWatch): void {
    this.watches.delete(w);
  }

  /** The paths changed since the last call, or "all" (after a full scan). */
  drainTouched(): Set<string> | 'all' {
    const out = this.touchedAll ? 'all' : this.touched;
    this.touched = new Set();
    this.touchedAll = false;
    return out;
  }

  private update(rel: string): void {
    if (this.inSkipped(rel)) return;
    const now = statPath(path.join(this.root, rel));
    if (now === 'dir' && !this.options.ignored(rel, true)) {
      // A folder appeared, was replaced or renamed here: whatever is in it now, found by scanning it.
      const sub = scanFolder(this.root, this.options, rel);
      const gone = this.dirs.has(rel) ? this.under(rel) : new Map<string, StatEntry>();
      this.remove(rel);
      for (const [r, st] of sub.files) {
        gone.delete(r);
        this.set(r, st);
      }
      for (const r of gone.keys()) this.remove(r);
      const prefix = `${rel}/`;
      for (const d of this.dirs) if (d.startsWith(prefix)) this.dirs.delete(d);
      this.dirs.add(rel);
      for (const d of sub.dirs) this.dirs.add(d);
      return;
    }
    if (this.dirs.has(rel)) this.removeFolder(rel);
    if (now === undefined || now === 'dir' || this.options.ignored(rel, false)) this.remove(rel);
    else this.set(rel, now);
  }

  /** Whether a path lies in .git or an ignored folder (which scans never enter). */
  private inSkipped(rel: string): boolean {
    const parts = rel.split('/');
    let prefix = '';
    for (let i = 0; i < parts.length - 1; i++) {
      prefix = prefix ? `${prefix}/${parts[i]}` : parts[i];
      if (parts[i] === '.git' || this.options.ignored(prefix, true)) return true;
    }
    return parts[parts.length - 1] === '.git';
  }

  private under(rel: string): Map<string, StatEntry> {
    const prefix = `${rel}/`;
    const out = new Map<string, StatEntry>();
    for (const [r, st] of this.files) if (r.startsWith(prefix)) out.set(r, st);
    return out;
  }

  private removeFolder(rel: string): void {
    for (const r of this.under(rel).keys()) this.remove(r);
    const prefix = `${rel}/`;
    for (const d of this.dirs) if (d === rel || d.startsWith(prefix)) this.dirs.delete(d);
  }

  private set(rel: string, st: StatEntry): void {
    const was = this.files.get(rel);
    if (was && sameStat(was, st)) return;
    this.record(rel, was);
    this.files.set(rel, st);
  }

  private remove(rel: string): void {
    const was = this.files.get(rel);
    if (!was) return;
    this.record(rel, was);
    this.files.delete(rel);
  }

  private record(rel: string, was: StatEntry | undefined): void {
    this.touched.add(rel);
    for (const w of this.watches) if (!w.old.has(rel)) w.old.set(rel, was);
  }
}
