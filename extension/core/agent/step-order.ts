// The order one step's tool calls keep, as data: which earlier calls each call's execution waits for
// (consecutive reads run together; anything else runs alone, after everything before it), which
// earlier calls change the same file (a writer proposes its diff against the text they leave), and
// whose card comes before its own. `StepOrder` turns those lists into waits; nothing else in the step
// arranges promises by hand.

/** For each call, the earlier calls whose end its execution waits for. */
export function executionWaits(isRead: readonly boolean[]): number[][] {
  let lastWriter = -1;
  return isRead.map((read, i) => {
    // A read waits for the last non-read and all before it; a non-read for everything before it.
    const upTo = read ? lastWriter : i - 1;
    if (!read) lastWriter = i;
    return Array.from({ length: upTo + 1 }, (_, j) => j);
  });
}

/** The target of a writer whose files only its change names (rename): it may share a file with any writer. */
export const ANY_FILE = '\0any file';

/** For each call, the earlier calls that change the same file (undefined: no file of its own). */
export function sameFileWaits(targets: ReadonlyArray<string | undefined>): number[][] {
  const shares = (t: string, u: string | undefined) => u !== undefined && (u === t || t === ANY_FILE || u === ANY_FILE);
  return targets.map((t, i) =>
    t === undefined ? [] : targets.slice(0, i).flatMap((u, j) => (shares(t, u) ? [j] : [])),
  );
}

interface Signal {
  promise: Promise<void>;
  fire(): void;
}

function signal(): Signal {
  let fire!: () => void;
  const promise = new Promise<void>((resolve) => (fire = resolve));
  return { promise, fire };
}

export class StepOrder {
  private readonly over: Signal[];
  private readonly carded: Signal[];
  private readonly runAfter: number[][];
  private readonly fileAfter: number[][];

  constructor(isRead: readonly boolean[], targets: ReadonlyArray<string | undefined>) {
    this.over = isRead.map(signal);
    this.carded = isRead.map(signal);
    this.runAfter = executionWaits(isRead);
    this.fileAfter = sameFileWaits(targets);
  }

  /** Earlier calls change the same file: this one proposes after they are over. */
  sharesFile(i: number): boolean {
    return this.fileAfter[i].length > 0;
  }

  sameFileDone(i: number): Promise<unknown> {
    return Promise.all(this.fileAfter[i].map((j) => this.over[j].promise));
  }

  /** Cards appear in call order: the call before has shown its card, or will not show one yet. */
  cardTurn(i: number): Promise<void> {
    return i === 0 ? Promise.resolve() : this.carded[i - 1].promise;
  }

  /** This call has shown its card (or will not show one yet): the next may show its own. */
  cardShown(i: number): void {
    this.carded[i].fire();
  }

  /** This call's turn to execute has come. */
  runTurn(i: number): Promise<unknown> {
    return Promise.all(this.runAfter[i].map((j) => this.over[j].promise));
  }

  /** Whether it ran or was refused, this call is over (and has shown whatever card it had). */
  finished(i: number): void {
    this.carded[i].fire();
    this.over[i].fire();
  }
}
