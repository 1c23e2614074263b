// Records a checkpoint while a turn runs: the loop calls beforeWrite(path) before each file it is
// about to create, overwrite, edit or delete; the first call for a path saves what the file was.
// finish() hashes what the files became and returns the (small, JSON-serialisable) checkpoint.
import { randomUUID } from 'node:crypto';
import type { CheckpointBlobs } from './blobs';
import {
  allowedRoots,
  type Captured,
  captureBefore,
  confine,
  currentVersion,
  IO_CONCURRENCY,
  mapLimit,
} from './capture';
import type { Checkpoint, CheckpointFiles, CheckpointOptions, FileState, SkippedFile } from './types';
import { DEFAULT_MAX_FILE_BYTES } from './types';

export interface RecorderOptions extends CheckpointOptions {
  turnId: string;
  kind?: Checkpoint['kind'];
}

export type BeforeWriteResult =
  | { recorded: true; path: string; first: boolean }
  | { recorded: false; path: string; reason: string };

export class CheckpointRecorder {
  private readonly entries = new Map<string, Promise<Captured>>();
  /** Entries in first-touch order. */
  private readonly order: Array<{ key: string; entry: Promise<Captured> }> = [];
  private roots: Promise<string[]> | undefined;
  private readonly maxBytes: number;
  private readonly createdAt: number;
  private finished = false;

  constructor(
    private readonly files: CheckpointFiles,
    private readonly blobs: CheckpointBlobs,
    private readonly options: RecorderOptions,
  ) {
    this.maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.createdAt = (options.now ?? Date.now)();
  }

  /**
   * Saves the state of `absPath` unless this turn saved it already. Never throws: a file outside
   * the workspace, too large or unreadable is answered with `recorded: false` and a reason (and
   * listed in the checkpoint's `skipped`), and the caller decides whether to write anyway.
   */
  async beforeWrite(absPath: string): Promise<BeforeWriteResult> {
    if (this.finished) return { recorded: false, path: absPath, reason: 'the checkpoint is already finished' };
    this.roots ??= allowedRoots(this.files);
    const where = await confine(this.files, await this.roots, absPath).catch((err: unknown) => ({
      reason: `could not be resolved: ${err instanceof Error ? err.message : String(err)}`,
    }));
    const key = 'real' in where ? where.real : absPath;
    let entry = this.entries.get(key);
    const first = !entry;
    if (!entry) {
      // Set before any await, so two calls for one path share one capture.
      entry =
        'real' in where
          ? captureBefore(this.files, this.blobs, where.real, this.maxBytes)
          : Promise.resolve({ ok: false, reason: where.reason });
      this.entries.set(key, entry);
      this.order.push({ key, entry });
    }
    const captured = await entry;
    return captured.ok ? { recorded: true, path: key, first } : { recorded: false, path: key, reason: captured.reason };
  }

  /** Paths touched so far (real paths), in first-touch order. */
  touched(): string[] {
    return this.order.map((o) => o.key);
  }

  /**
   * Ends the turn: makes the saved bytes durable, hashes each recorded file's state now and returns
   * the checkpoint (record it only after this returns). Call once.
   */
  async finish(): Promise<Checkpoint> {
    this.finished = true;
    const files: FileState[] = [];
    const skipped: SkippedFile[] = [];
    const captured = await Promise.all(this.order.map((o) => o.entry));
    // The saved bytes become durable here, all in one pass, before the caller records the checkpoint.
    await this.blobs.sync(captured.flatMap((c) => (c.ok && c.state.hash ? [c.state.hash] : [])));
    const afters = await mapLimit(captured, IO_CONCURRENCY, async (c) =>
      c.ok ? currentVersion(this.files, c.state.path, this.maxBytes) : undefined,
    );
    captured.forEach((c, i) => {
      if (c.ok) files.push({ ...c.state, after: afters[i] });
      else skipped.push({ path: this.order[i].key, reason: c.reason });
    });
    return {
      version: 1,
      id: (this.options.newId ?? randomUUID)(),
      createdAt: this.createdAt,
      turnId: this.options.turnId,
      kind: this.options.kind ?? 'turn',
      files,
      skipped,
    };
  }
}
