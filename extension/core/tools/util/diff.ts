// A compact unified diff (Myers' O(ND) line diff after trimming the common prefix and suffix),
// used for approval cards and edit results.

export interface DiffStat {
  added: number;
  removed: number;
}

type Op = { t: ' ' | '+' | '-'; line: string; a: number; b: number };

function splitForDiff(s: string): string[] {
  if (s === '') return [];
  const lines = s.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function myers(a: string[], b: string[]): Array<' ' | '+' | '-'> {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  // Beyond this the diff is too big to be useful on a card; show it as replace-all.
  if (max > 20_000 || n * m > 4e7) return [...a.map(() => '-' as const), ...b.map(() => '+' as const)];
  const v = new Map<number, number>([[1, 0]]);
  const trace: Array<Map<number, number>> = [];
  outer: for (let d = 0; d <= max; d++) {
    trace.push(new Map(v));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && (v.get(k - 1) ?? 0) < (v.get(k + 1) ?? 0))
          ? (v.get(k + 1) ?? 0)
          : (v.get(k - 1) ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v.set(k, x);
      if (x >= n && y >= m) break outer;
    }
  }
  const ops: Array<' ' | '+' | '-'> = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0 && (x > 0 || y > 0); d--) {
    const vd = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && (vd.get(k - 1) ?? 0) < (vd.get(k + 1) ?? 0)) ? k + 1 : k - 1;
    const prevX = vd.get(prevK) ?? 0;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push(' ');
      x--;
      y--;
    }
    if (d > 0) ops.push(x === prevX ? '+' : '-');
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

export function diffLines(before: string, after: string): { ops: Op[]; stat: DiffStat } {
  const a = splitForDiff(before);
  const b = splitForDiff(after);
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const mid = myers(a.slice(pre, a.length - suf), b.slice(pre, b.length - suf));
  const ops: Op[] = [];
  let ia = 0;
  let ib = 0;
  const push = (t: Op['t']) => {
    ops.push({ t, line: t === '+' ? b[ib] : a[ia], a: ia, b: ib });
    if (t !== '+') ia++;
    if (t !== '-') ib++;
  };
  for (let i = 0; i < pre; i++) push(' ');
  for (const t of mid) push(t);
  for (let i = 0; i < suf; i++) push(' ');
  const stat = { added: ops.filter((o) => o.t === '+').length, removed: ops.filter((o) => o.t === '-').length };
  return { ops, stat };
}

/** A unified diff with `context` lines around changes, at most `maxLines` lines of hunks. */
export function unifiedDiff(
  before: string,
  after: string,
  label: string,
  opts: { context?: number; maxLines?: number } = {},
): { text: string; stat: DiffStat } {
  const context = opts.context ?? 3;
  const maxLines = opts.maxLines ?? 200;
  const { ops, stat } = diffLines(before, after);
  const out: string[] = [`--- a/${label}`, `+++ b/${label}`];
  let i = 0;
  let emitted = 0;
  let truncated = false;
  while (i < ops.length) {
    if (ops[i].t === ' ') {
      i++;
      continue;
    }
    let start = Math.max(0, i - context);
    // Extend the hunk while changes are within 2*context of each other.
    let end = i;
    let lastChange = i;
    while (end < ops.length && (ops[end].t !== ' ' || end - lastChange <= 2 * context)) {
      if (ops[end].t !== ' ') lastChange = end;
      end++;
    }
    end = Math.min(ops.length, lastChange + context + 1);
    const hunk = ops.slice(start, end);
    const aStart = hunk[0].a + 1;
    const bStart = hunk[0].b + 1;
    const aLen = hunk.filter((o) => o.t !== '+').length;
    const bLen = hunk.filter((o) => o.t !== '-').length;
    out.push(`@@ -${aStart},${aLen} +${bStart},${bLen} @@`);
    for (const o of hunk) {
      if (emitted >= maxLines) {
        truncated = true;
        break;
      }
      out.push(`${o.t}${o.line}`);
      emitted++;
    }
    if (truncated) break;
    i = end;
    start = end;
  }
  if (truncated) out.push(`… diff cut at ${maxLines} lines (+${stat.added} −${stat.removed} in total)`);
  return { text: out.join('\n'), stat };
}
