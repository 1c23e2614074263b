// Where a cold `sextant -p` spends its time before the request leaves: named instants (ms since the
// process started, performance.now()) written as JSON when the process exits, only when
// SEXTANT_STARTUP_TRACE names a file. `npm run bench -- cli` sets it and prints the breakdown; a run
// without it records nothing and writes nothing.
//
// The launcher (dist/cli.js) and the command's bundle (dist/cli-main.js) each hold a copy of this
// module, so the record lives on the process under one global key.
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/**
 * entry: the launcher runs; loaded: the command's bundle evaluated; settings: flags, settings and keys
 * read; engine: the engine composed; send: the prompt handed to it (the request's first byte follows).
 */
export type StartupMark = 'entry' | 'loaded' | 'settings' | 'engine' | 'send';

interface Trace {
  file?: string;
  /** How the command's bundle was compiled: 'node' (Node's compile cache), 'v8' (ours), 'none'. */
  codeCache?: string;
  marks: Partial<Record<StartupMark, number>>;
}

const KEY = Symbol.for('sextant.startupTrace');

function trace(): Trace {
  const g = globalThis as { [KEY]?: Trace };
  g[KEY] ??= { marks: {} };
  return g[KEY];
}

/** Starts recording when the environment asks for it (the launcher calls this first). */
export function startStartupTrace(env: Record<string, string | undefined>): void {
  const t = trace();
  t.file = env.SEXTANT_STARTUP_TRACE || undefined;
  if (!t.file) return;
  process.once('exit', () => {
    const { nodeTiming } = performance;
    const out = {
      timeOrigin: performance.timeOrigin,
      // Node's own start-up, in the same clock: V8 up, the environment, bootstrap done.
      node: {
        v8Start: nodeTiming.v8Start,
        environment: nodeTiming.environment,
        bootstrap: nodeTiming.bootstrapComplete,
      },
      codeCache: t.codeCache,
      marks: t.marks,
    };
    try {
      writeFileSync(t.file as string, JSON.stringify(out));
    } catch {
      // A trace that cannot be written changes nothing about the run.
    }
  });
  markStartup('entry');
}

/** Records the first time this instant was reached (later calls keep the first). */
export function markStartup(name: StartupMark): void {
  const t = trace();
  if (t.file && t.marks[name] === undefined) t.marks[name] = performance.now();
}

export function noteCodeCache(kind: string): void {
  trace().codeCache = kind;
}
