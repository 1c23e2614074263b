// Diagnostics after an edit: what the files had before, waiting (bounded, cancellable) for their
// language servers to settle after it, and the errors and warnings that are new — as text for the
// model. "New" is counted per (file, severity, source, code, message), not per line: an edit above a
// problem moves it without making it new.
import type { FileDiagnostic, LanguagePort, SettleLimits } from './types';

/**
 * 400 ms of quiet: the TypeScript server reports syntax, semantic and suggestion diagnostics as
 * separate updates a few tens of ms apart. 3 s cap: a cold language server (its first project load)
 * may not answer in time; the model then gets the note that diagnostics were still coming.
 */
export const DEFAULT_SETTLE: SettleLimits = { quietMs: 400, maxMs: 3_000 };
/** Problems listed per tool result; the rest are counted. */
export const MAX_LISTED = 20;
const MESSAGE_CHARS = 300;

const SHOWN: ReadonlySet<FileDiagnostic['severity']> = new Set(['error', 'warning']);

function key(d: FileDiagnostic): string {
  return JSON.stringify([d.path, d.severity, d.source ?? '', d.code ?? '', d.message]);
}

/** The errors and warnings in `after` that `before` did not have (as many times as they were not there). */
export function newDiagnostics(before: readonly FileDiagnostic[], after: readonly FileDiagnostic[]): FileDiagnostic[] {
  const seen = new Map<string, number>();
  for (const d of before) seen.set(key(d), (seen.get(key(d)) ?? 0) + 1);
  const fresh: FileDiagnostic[] = [];
  for (const d of after) {
    if (!SHOWN.has(d.severity)) continue;
    const n = seen.get(key(d)) ?? 0;
    if (n > 0) seen.set(key(d), n - 1);
    else fresh.push(d);
  }
  return sortDiagnostics(fresh);
}

const RANK = { error: 0, warning: 1, info: 2, hint: 3 } as const;

export function sortDiagnostics(list: FileDiagnostic[]): FileDiagnostic[] {
  return [...list].sort(
    (a, b) =>
      RANK[a.severity] - RANK[b.severity] ||
      a.path.localeCompare(b.path) ||
      a.line - b.line ||
      a.character - b.character,
  );
}

/** One line per problem: `path:line:col severity [source code] message` (1-based, paths as `show` gives them). */
export function formatDiagnostics(
  list: readonly FileDiagnostic[],
  show: (absPath: string) => string,
  max = MAX_LISTED,
): string {
  const lines = list.slice(0, max).map((d) => {
    const origin = [d.source, d.code].filter(Boolean).join(' ');
    let message = d.message.replace(/\s*\n\s*/g, ' ');
    if (message.length > MESSAGE_CHARS) message = `${message.slice(0, MESSAGE_CHARS)}…`;
    return `${show(d.path)}:${d.line + 1}:${d.character + 1} ${d.severity}${origin ? ` [${origin}]` : ''} ${message}`;
  });
  if (list.length > max) lines.push(`… and ${list.length - max} more.`);
  return lines.join('\n');
}

/**
 * How long a file that had no diagnostics at all is given to report one after an edit. Servers do not
 * re-publish "still nothing" (the TypeScript extension skips an empty → empty update), so silence is
 * the only answer a clean edit gets: waiting for the whole cap would cost every clean edit 3 s.
 */
export const CLEAN_SILENCE_MS = 1_500;

export type SettleOutcome = 'settled' | 'timeout' | 'silent' | 'aborted';

/**
 * Resolves once the diagnostics of `paths` have changed and then stayed quiet for `quietMs`, or
 * `maxMs` after the start, or when `signal` aborts — whichever comes first. `'settled'` when they
 * changed and went quiet, `'timeout'` when the cap ended the wait, `'aborted'` on abort; with
 * `silentMs`, `'silent'` when nothing at all changed in that time.
 */
export function awaitSettled(
  port: Pick<LanguagePort, 'onDidChangeDiagnostics'>,
  paths: readonly string[],
  limits: SettleLimits,
  signal: AbortSignal,
  silentMs?: number,
): Promise<SettleOutcome> {
  if (signal.aborted) return Promise.resolve('aborted');
  const watched = new Set(paths);
  return new Promise((resolve) => {
    let quiet: ReturnType<typeof setTimeout> | undefined;
    const silence =
      silentMs !== undefined && silentMs < limits.maxMs ? setTimeout(() => finish('silent'), silentMs) : undefined;
    const finish = (how: SettleOutcome) => {
      clearTimeout(cap);
      clearTimeout(silence);
      clearTimeout(quiet);
      unsubscribe();
      signal.removeEventListener('abort', onAbort);
      resolve(how);
    };
    const onAbort = () => finish('aborted');
    const cap = setTimeout(() => finish('timeout'), limits.maxMs);
    const unsubscribe = port.onDidChangeDiagnostics((changed) => {
      if (!changed.some((p) => watched.has(p))) return;
      clearTimeout(silence);
      clearTimeout(quiet);
      quiet = setTimeout(() => finish('settled'), limits.quietMs);
    });
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** What `beforeEdit` learnt: the files with a diagnostics source and what they had. */
export interface DiagnosticsBaseline {
  paths: string[];
  before: FileDiagnostic[];
  /** Files the editor could not open before the write (a file it creates): looked at again after it. */
  later: string[];
}

/**
 * Before a write: the files that have a diagnostics source (no waiting for the others) and their
 * current diagnostics. A file not open in the editor yet is opened now and its first diagnostics
 * awaited (same limits), so problems it already had are not reported as new.
 */
export async function beforeEdit(
  port: LanguagePort,
  paths: readonly string[],
  limits: SettleLimits,
  signal: AbortSignal,
): Promise<DiagnosticsBaseline | undefined> {
  if (limits.maxMs <= 0 || !paths.length) return undefined;
  const tracked = await Promise.all(paths.map(async (p) => ({ p, s: await port.track(p).catch(() => undefined) })));
  const withSource = tracked.filter((t) => t.s?.diagnostics);
  const later = tracked.filter((t) => !t.s).map((t) => t.p);
  if (!withSource.length && !later.length) return undefined;
  const opened = withSource.filter((t) => t.s?.opened).map((t) => t.p);
  if (opened.length) await awaitSettled(port, opened, limits, signal);
  const watched = withSource.map((t) => t.p);
  return { paths: watched, before: port.diagnostics(watched), later };
}

/**
 * After a write: waits for the touched files' diagnostics to settle and returns the note for the
 * model — the new errors and warnings, or that there are none — or undefined when nothing is watched.
 */
export async function afterEdit(
  port: LanguagePort,
  baseline: DiagnosticsBaseline | undefined,
  limits: SettleLimits,
  signal: AbortSignal,
  show: (absPath: string) => string,
): Promise<string | undefined> {
  if (!baseline) return undefined;
  // The listener goes on before the created files are opened, so their first report is not missed.
  const stop = new AbortController();
  const quit = () => stop.abort();
  signal.addEventListener('abort', quit, { once: true });
  try {
    // A file that had nothing and still has nothing gets no update: silence then means clean. A file
    // the write created has no earlier report to compare with, so it is given the whole cap.
    const silentMs = baseline.before.length === 0 && !baseline.later.length ? CLEAN_SILENCE_MS : undefined;
    const settled = awaitSettled(port, [...baseline.paths, ...baseline.later], limits, stop.signal, silentMs);
    const created = await Promise.all(
      baseline.later.map(async (p) => ({ p, s: await port.track(p).catch(() => undefined) })),
    );
    const paths = [...baseline.paths, ...created.filter((c) => c.s?.diagnostics).map((c) => c.p)];
    if (!paths.length) return undefined;
    const how = await settled;
    if (how === 'aborted') return undefined;
    return describeNew(newDiagnostics(baseline.before, port.diagnostics(paths)), paths.length, how, limits, show);
  } finally {
    stop.abort();
    signal.removeEventListener('abort', quit);
  }
}

function describeNew(
  fresh: FileDiagnostic[],
  files: number,
  how: Exclude<SettleOutcome, 'aborted'>,
  limits: SettleLimits,
  show: (absPath: string) => string,
): string {
  const late = how === 'timeout' ? ` (the language server had not answered within ${limits.maxMs} ms)` : '';
  if (!fresh.length) return `No new errors or warnings in the edited file${files > 1 ? 's' : ''}${late}.`;
  const errors = fresh.filter((d) => d.severity === 'error').length;
  const warnings = fresh.length - errors;
  const counts = [errors && plural(errors, 'error'), warnings && plural(warnings, 'warning')]
    .filter(Boolean)
    .join(', ');
  const more = fresh.length > MAX_LISTED ? ' (the problems tool lists them all)' : '';
  return `New problems after this edit (${counts})${late}${more}:\n${formatDiagnostics(fresh, show)}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n > 1 ? 's' : ''}`;
}
