// The store's write queue for a full disk: records already applied in memory but not yet in the
// journal, kept in order and retried until the disk takes them again. Kept apart from store.ts so the
// disk-full path (tell the user once, retry, tell them it recovered) reads as one piece.
import type { JournalRecord, Logger } from '../ports';

export interface UnsavedRecordsOptions {
  /** The storage folder, named in the error. */
  dir: string;
  log: Logger;
  /** Writes one record to the journal (throws on a full disk). */
  write(record: JournalRecord): void;
  /** Whether the store is closed (a pending retry then does nothing). */
  closed(): boolean;
  /** Called once everything kept in memory is written again (the store schedules a snapshot). */
  recovered(): void;
  onWriteError?(err: Error, dir: string): void;
  onWriteRecovered?(): void;
  writeRetryMs?: number;
}

export class UnsavedRecords {
  /** Records applied in memory but not yet in the journal (the disk was full), oldest first. */
  private readonly unsaved: JournalRecord[] = [];
  private writeFailure: Error | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly opts: UnsavedRecordsOptions) {}

  /** Records kept in memory because they could not be written yet (a full disk). */
  get length(): number {
    return this.unsaved.length;
  }

  /** Queues a record and writes everything queued. */
  push(record: JournalRecord): void {
    this.unsaved.push(record);
    this.writeUnsaved();
  }

  /**
   * Writes the records not yet in the journal, in order. On a write error (a full disk) they stay in
   * memory — the chat and the in-memory database go on — the user is told once (onWriteError), and
   * writing is retried every few seconds and at each new record until it succeeds (onWriteRecovered).
   */
  writeUnsaved(): void {
    while (this.unsaved.length) {
      try {
        this.opts.write(this.unsaved[0]);
      } catch (err) {
        if (!this.writeFailure) {
          this.writeFailure = err instanceof Error ? err : new Error(String(err));
          this.opts.log.error(
            `store: could not write to ${this.opts.dir}: ${this.writeFailure.message}; kept in memory, retrying`,
          );
          this.opts.onWriteError?.(this.writeFailure, this.opts.dir);
        }
        this.retryTimer ??= setTimeout(() => {
          this.retryTimer = undefined;
          if (!this.opts.closed()) this.writeUnsaved();
        }, this.opts.writeRetryMs ?? 3000);
        this.retryTimer.unref?.();
        return;
      }
      this.unsaved.shift();
    }
    if (this.writeFailure) {
      this.writeFailure = undefined;
      this.opts.log.info('store: writing again; everything kept in memory is saved');
      this.opts.onWriteRecovered?.();
      this.opts.recovered();
    }
  }

  /** Cancels the pending retry (the store is closing). */
  stopRetrying(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }
}
