// Records a checkpoint while a turn runs: the loop calls beforeWrite(path) before each file it is
// about to create, overwrite, edit or delete; the first call for a path saves what the file was.
// finish() hashes what the files became and returns the (small, JSON-serialisable) checkpoint.
import { randomUUID } from 'node:crypto';
import type { CheckpointBlobs } from './blobs';
import { type CommandCoverage, type CommandWatch, IGNORED_NOTE } from './command-coverage';
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
  /** Covers what the turn's commands change (beforeCommand); without it commands are not covered. */
  coverage?: CommandCoverage;
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
  /** Commands still running (a background job): finish() records what they changed so far. */
  private readonly running = new Set<CommandWatch>();
  private readonly notes = new Set<string>();
  private commandsCovered = false;

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

  /**
   * Call before a command starts; call the function it returns when the command has ended. The files
   * the command created, changed or deleted are then recorded like the writers' files (a file this
   * turn recorded earlier keeps its earlier state). Never throws; without coverage it does nothing.
   */
  async beforeCommand(): Promise<() => Promise<readonly string[]>> {
    const coverage = this.options.coverage;
    if (!coverage || this.finished) return async () => [];
    let watch: CommandWatch;
    try {
      watch = await coverage.before();
    } catch (err) {
      this.notes.add(`A command's changes could not be watched: ${err instanceof Error ? err.message : String(err)}`);
      return async () => [];
    }
    this.commandsCovered = true;
    this.running.add(watch);
    return () => this.afterCommand(watch);
  }

  /** Records what the command changed; returns those files (real paths), for the cross-session write guard. */
  private async afterCommand(watch: CommandWatch): Promise<readonly string[]> {
    if (!this.running.delete(watch)) return []; // finish() recorded it already
    try {
      const changes = await watch.after();
      for (const n of changes.notes) this.notes.add(n);
      for (const state of changes.states) {
        if (this.entries.has(state.path)) continue;
        const entry: Promise<Captured> = Promise.resolve({ ok: true, state });
        this.entries.set(state.path, entry);
        this.order.push({ key: state.path, entry });
      }
      return changes.states.map((state) => state.path);
    } catch (err) {
      this.notes.add(`A command's changes could not be recorded: ${err instanceof Error ? err.message : String(err)}`);
      return [];
    }
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
    // A command still running (in the background) is recorded as far as it has got.
    await Promise.all([...this.running].map((w) => this.afterCommand(w)));
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
      ...(this.commandsCovered
        ? { notes: [IGNORED_NOTE, ...this.notes] }
        : this.notes.size
          ? { notes: [...this.notes] }
          : {}),
    };
  }
}
