// When the store writes its next snapshot: debounced after the last change, at most `maxDelayMs` after
// the first unsaved one, at once when the journal segment grows past its limit. Counts the changes a
// snapshot has not yet taken in, so a snapshot knows whether changes arrived while it was written.
export interface SnapshotScheduleOptions {
  now: () => number;
  delayMs: number;
  maxDelayMs: number;
  /** Whether the journal segment is past its size limit (then the snapshot is due at once). */
  journalFull: () => boolean;
  /** Whether the store is closed (nothing is scheduled any more). */
  closed: () => boolean;
  /** Writes the snapshot (the store's flush). */
  run: () => void;
}

export class SnapshotSchedule {
  /** Changes not yet in a snapshot. */
  pending = 0;
  private firstPendingAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly opts: SnapshotScheduleOptions) {}

  /** Records `n` changes and schedules a snapshot. */
  changed(n = 1): void {
    if (this.pending === 0) this.firstPendingAt = this.opts.now();
    this.pending += n;
    this.schedule();
  }

  /** A snapshot took in `n` changes. */
  saved(n: number): void {
    this.pending -= Math.min(this.pending, n);
  }

  schedule(): void {
    if (this.opts.closed()) return;
    const urgent = this.opts.journalFull() || this.opts.now() - this.firstPendingAt >= this.opts.maxDelayMs;
    if (this.timer && !urgent) clearTimeout(this.timer);
    else if (this.timer) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.opts.run();
      },
      urgent ? 0 : this.opts.delayMs,
    );
    this.timer.unref?.();
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
