// The path of a process's first request through Sextant, step by step: from the moment its message
// arrives to the moment the model call is written on its connection. First use is a sum of many small
// awaited steps (the message parsed, the session set up, the prompt built, the SDK's request made); the
// "first request" line says how long each took, so a slow one is named, not guessed
// (bench/lib/real-window.ts prints them). Recording starts with the first `send` and ends with its
// request; after that, `mark` is one comparison and nothing is kept.

interface Mark {
  readonly step: string;
  readonly at: number;
}

interface Trace {
  marks?: Mark[];
  ended: boolean;
}

/**
 * On the process under one key, not in this module: the runtime and each provider bundle hold their own
 * copy of this file, and the SDK's steps are marked from the provider's.
 */
const KEY = Symbol.for('sextant.firstRequestTrace');
const holder = globalThis as Record<symbol, Trace | undefined>;
holder[KEY] ??= { ended: false };
const trace: Trace = holder[KEY];

/** The first request's message arrived: its steps are recorded from now on. Later calls do nothing. */
export function startFirstRequestTrace(): void {
  if (trace.marks || trace.ended) return;
  trace.marks = [{ step: 'arrived', at: performance.now() }];
}

/** One step of the first request done (the step's name says what just finished). */
export function markFirstRequest(step: string): void {
  if (!trace.marks || trace.ended) return;
  trace.marks.push({ step, at: performance.now() });
}

/**
 * Ends the recording and returns each step with the milliseconds since the step before it, e.g.
 * `parsed 0.4, prompt 3.1, sdk 6.0`; undefined when nothing was recorded or it was already taken.
 */
export function endFirstRequestTrace(): string | undefined {
  if (!trace.marks || trace.ended) return undefined;
  trace.ended = true;
  const taken = trace.marks;
  trace.marks = undefined;
  return taken
    .slice(1)
    .map((m, i) => `${m.step} ${(m.at - taken[i].at).toFixed(1)}`)
    .join(', ');
}
