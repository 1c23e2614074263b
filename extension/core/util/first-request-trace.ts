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

let marks: Mark[] | undefined;
let ended = false;

/** The first request's message arrived: its steps are recorded from now on. Later calls do nothing. */
export function startFirstRequestTrace(): void {
  if (marks || ended) return;
  marks = [{ step: 'arrived', at: performance.now() }];
}

/** One step of the first request done (the step's name says what just finished). */
export function markFirstRequest(step: string): void {
  if (!marks || ended) return;
  marks.push({ step, at: performance.now() });
}

/**
 * Ends the recording and returns each step with the milliseconds since the step before it, e.g.
 * `parsed 0.4, prompt 3.1, sdk 6.0`; undefined when nothing was recorded or it was already taken.
 */
export function endFirstRequestTrace(): string | undefined {
  if (!marks || ended) return undefined;
  ended = true;
  const taken = marks;
  marks = undefined;
  return taken
    .slice(1)
    .map((m, i) => `${m.step} ${(m.at - taken[i].at).toFixed(1)}`)
    .join(', ');
}
