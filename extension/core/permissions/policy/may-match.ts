// Could a command rule's pattern match some command of this shape? Both sides are literal text with
// open parts: a rule's `*` and a shape's SLOT (a word bash only knows at run time, see
// shell/run-time-words.ts) each stand for any text. Two such patterns share a string exactly when a
// walk through both can end together; a memoised walk is O(rule × shape), and runs only for pieces
// that hold a run-time word.
import { SLOT } from '../shell/run-time-words';

/** A rule pattern as tokens: a character, or ANY for `*` (after `\*` / `\\` escapes are decoded). */
export const ANY = -1;
export type PatternTokens = readonly (string | typeof ANY)[];

export function ruleTokens(pattern: string): PatternTokens {
  const p = pattern.replace(/\s+/g, ' ').trim();
  const out: (string | typeof ANY)[] = [];
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\' && (p[i + 1] === '*' || p[i + 1] === '\\')) out.push(p[++i]);
    else if (c === '*') {
      if (out[out.length - 1] !== ANY) out.push(ANY);
    } else out.push(c);
  }
  return out;
}

/** True when some string matches both the rule (tokens) and the shape (text with SLOTs). */
export function mayMatch(rule: PatternTokens, shape: string): boolean {
  const a = rule;
  const b: (string | typeof ANY)[] = [];
  for (const c of shape) if (c !== SLOT || b[b.length - 1] !== ANY) b.push(c === SLOT ? ANY : c);
  const n = a.length;
  const m = b.length;
  // seen[i * (m + 1) + j]: state (i, j) already explored (and found to lead nowhere, or pending).
  const seen = new Uint8Array((n + 1) * (m + 1));
  const stack: number[] = [0, 0];
  while (stack.length) {
    const j = stack.pop() as number;
    const i = stack.pop() as number;
    const k = i * (m + 1) + j;
    if (seen[k]) continue;
    seen[k] = 1;
    if (i === n && j === m) return true;
    const x = i < n ? a[i] : undefined;
    const y = j < m ? b[j] : undefined;
    // An open part may stand for nothing, or take the other side's next token.
    if (x === ANY) {
      stack.push(i + 1, j);
      if (y !== undefined) stack.push(i, j + 1);
    }
    if (y === ANY) {
      stack.push(i, j + 1);
      if (x !== undefined) stack.push(i + 1, j);
    }
    if (x !== undefined && y !== undefined && x !== ANY && y !== ANY && x === y) stack.push(i + 1, j + 1);
  }
  return false;
}
