// Words whose value bash only knows when it runs the command: expansions (`$x`, `$(…)`), pathname
// patterns (`*`, `?`, `[…]`) and brace expansion (`{a,b}`). The policy reads the text as written, so
// such a word could be anything — `git {push,}` runs `git push`, `git log *` in a folder holding a
// file named `--output=x` runs `git log --output=x`. Two consequences, both here:
// - deny and ask rules must catch what the word *might* become: the piece gets "shapes", its text with
//   each such word as an open slot (SLOT), which the rule matcher checks for a possible match;
// - for a program whose options are judged (options.ts), a word that might become an option takes
//   the call out of a wildcard rule, as the option itself would (the value of an option is not one).
import type { ShellWord } from './syntax';

/** Stands for "any text" in a piece's shape (bash strings never hold NUL, so no command contains it). */
export const SLOT = '\u0000';

/** The word's value is only known at run time. */
export const runTimeWord = (w: ShellWord): boolean => w.dynamic || w.pattern;

/**
 * The word's expansion could begin with `-` (and so be read as an option): its first character is
 * itself expanded — `*`, `?[…]`, `{a,b}`, `$x`, `$(…)` — rather than literal text such as `src/*.ts`.
 */
export function mayBecomeOption(w: ShellWord): boolean {
  if (!runTimeWord(w) || w.procSub) return false;
  if (w.value.startsWith('-')) return false; // a literal dash: judged as the option it already is
  return /^[*?[{$`]/.test(w.value);
}

/** The piece's words with every run-time word as a SLOT, joined like a piece's text. */
export function shapeOf(ws: readonly ShellWord[]): string {
  return ws.map((w) => (runTimeWord(w) ? SLOT : w.value)).join(' ');
}

/**
 * A piece's deny texts as shapes (the program as written, its base name, lower-cased; with and without
 * its wrappers), when it holds a run-time word or gets more arguments at run time (xargs: `openArgs`).
 */
export function shapesOf(
  ws: readonly ShellWord[],
  name: string,
  chain: readonly string[],
  openArgs: boolean,
): string[] | undefined {
  if (!openArgs && !ws.some(runTimeWord)) return undefined;
  const rest = shapeOf(ws.slice(1));
  const tail = (prog: string) => (rest ? `${prog} ${rest}` : prog) + (openArgs ? ` ${SLOT}` : '');
  const out: string[] = [];
  for (const prog of new Set([ws[0].value, name, name.toLowerCase()])) {
    out.push(tail(prog));
    if (chain.length) out.push(`${chain.join(' ')} ${tail(prog)}`);
  }
  return out;
}
