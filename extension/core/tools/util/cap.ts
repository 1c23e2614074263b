// Output capping: results sent to the model stay small enough to be useful. The head and the tail
// of long output matter most (the command line and the error at the end), so the middle goes.

export interface Capped {
  text: string;
  elided: boolean;
  /** Lines removed from the middle (0 when nothing was cut). */
  elidedLines: number;
  /** 1-based line number of the first elided line, for paging hints. */
  firstElidedLine: number;
}

/** Keeps whole lines from the head (~40%) and tail (~60%) within `maxChars`. */
export function capMiddle(text: string, maxChars: number, hint?: (firstLine: number, count: number) => string): Capped {
  if (text.length <= maxChars) return { text, elided: false, elidedLines: 0, firstElidedLine: 0 };
  const headBudget = Math.floor(maxChars * 0.4);
  const tailBudget = maxChars - headBudget;
  let headEnd = text.lastIndexOf('\n', headBudget);
  if (headEnd <= 0) headEnd = headBudget;
  let tailStart = text.indexOf('\n', text.length - tailBudget);
  if (tailStart === -1 || tailStart <= headEnd) tailStart = text.length - tailBudget;
  else tailStart += 1;
  const head = text.slice(0, headEnd);
  const middle = text.slice(headEnd, tailStart);
  const tail = text.slice(tailStart);
  const elidedLines = countLines(middle);
  const firstElidedLine = countLines(head) + 1;
  const note = hint ? hint(firstElidedLine, elidedLines) : '';
  const marker = `\n… [${elidedLines} lines (${middle.length} characters) elided${note ? ` — ${note}` : ''}] …\n`;
  return { text: head + marker + tail, elided: true, elidedLines, firstElidedLine };
}

function countLines(s: string): number {
  if (s === '') return 0;
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return s.endsWith('\n') ? n : n + 1;
}

/** Cuts a single long line, saying how much was cut. */
export function cutLine(line: string, max: number): string {
  return line.length <= max ? line : `${line.slice(0, max)}… [line cut: ${line.length - max} more characters]`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(1)} GB`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** Removes ANSI escape sequences (colours, cursor moves) that mean nothing to a model. */
export function stripAnsi(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Za-z0-9]|\x1b[=>78]/g, '');
}

/** A count with its noun, plural unless it is one: "1 file", "3 files". */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
