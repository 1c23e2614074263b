// Pure helpers of the analysis over a simple command's words.
import type { ShellCommand, ShellWord } from './parse';
import { SHELLS } from './programs';

/** A long word cut for a message. */
export const show = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}…` : s);
import { sedScriptProblem } from './builtins';

/** The sed script (the first operand, or every -e/--expression) judged by sedScriptProblem. */
export function sedScriptOf(ws: readonly ShellWord[]): string | undefined {
  const scripts: string[] = [];
  let first: string | undefined;
  for (let i = 1; i < ws.length; i++) {
    const v = ws[i].value;
    if (v === '-e' || v === '--expression') scripts.push(ws[++i]?.value ?? '');
    else if (v.startsWith('--expression=')) scripts.push(v.slice(13));
    else if (/^-[a-zA-Z]*e$/.test(v) && v !== '-e') scripts.push(ws[++i]?.value ?? '');
    else if (v === '-l' || v === '--line-length') i++;
    else if (!v.startsWith('-') && first === undefined) first = v;
  }
  if (scripts.length === 0 && first !== undefined) scripts.push(first);
  if (ws.some((w) => w.dynamic)) return 'the sed script is only known when the command runs';
  for (const s of scripts) {
    const problem = sedScriptProblem(s);
    if (problem) return problem;
  }
  return undefined;
}

/** `git config NAME VALUE` (and --add, --unset, --edit …) writes .git/config or ~/.gitconfig. */
export function gitConfigTarget(args: readonly string[]): ShellWord | undefined {
  const at = args.indexOf('config');
  if (at < 0 || args.slice(0, at).some((a) => !a.startsWith('-'))) return undefined;
  const rest = args.slice(at + 1);
  const writes =
    rest.some((r) =>
      /^(--add|--unset|--unset-all|--replace-all|--rename-section|--remove-section|-e|--edit)$/.test(r),
    ) ||
    rest.filter((r) => !r.startsWith('-')).length >= 2 ||
    ['set', 'unset', 'edit', 'rename-section', 'remove-section'].includes(rest[0] ?? '');
  if (!writes) return undefined;
  const global = rest.includes('--global');
  const target = global ? '~/.gitconfig' : '.git/config';
  return { value: target, dynamic: false, pattern: false, tilde: global, quoted: false, plain: target.length };
}

/** For sh/bash/…: the -c command string, if any. */
export function shellScript(ws: readonly ShellWord[]): { command?: ShellWord } {
  let hasC = false;
  let i = 1;
  for (; i < ws.length; i++) {
    const v = ws[i].value;
    if (v === '--' || v === '-') break;
    if (!/^[-+]./.test(v)) break;
    if (v === '--rcfile' || v === '--init-file' || v === '-o' || v === '+o' || v === '-O' || v === '+O') i++;
    else if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(v)) hasC = true;
  }
  if (!hasC) return {};
  return { command: ws[i] ?? { value: '', dynamic: true, pattern: false, tilde: false, quoted: false, plain: 0 } };
}

/** watch's options end at its first operand; the rest is the command (run with sh -c). */
export function watchStart(ws: ShellWord[]): number {
  let i = 1;
  while (i < ws.length && ws[i].value.startsWith('-')) {
    const v = ws[i].value;
    if (v === '--') return i + 1;
    i += v === '-n' || v === '--interval' || v === '-d' || v === '--differences' ? 2 : 1;
    if (v === '-d' || v === '--differences') i--; // -d takes an optional, attached value only
  }
  return i;
}

export function sliceWord(w: ShellWord, from: number): ShellWord {
  return { ...w, value: w.value.slice(from), tilde: w.value[from] === '~', plain: Math.max(0, w.plain - from) };
}

/** The files a program's output options name (`curl -o f`, `sort -o f`, `curl -O URL`), with what writes each. */
export function outputTargets(
  name: string,
  spec: { short: string; long: string[] },
  ws: readonly ShellWord[],
): { writes: Array<[ShellWord, string]>; unknown: string[] } {
  const writes: Array<[ShellWord, string]> = [];
  const unknown: string[] = [];
  let remoteName = false;
  for (let i = 1; i < ws.length; i++) {
    const v = ws[i].value;
    if (v === '--') break;
    let target: ShellWord | undefined;
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const opt = eq < 0 ? v : v.slice(0, eq);
      if (name === 'curl' && (opt === '--remote-name' || opt === '--remote-name-all')) remoteName = true;
      if (spec.long.includes(opt)) target = eq < 0 ? ws[++i] : sliceWord(ws[i], eq + 1);
    } else if (/^-[A-Za-z]/.test(v)) {
      if (name === 'curl' && /^-[A-Za-z]*O/.test(v)) remoteName = true;
      const at = [...v.slice(1)].findIndex((ch) => spec.short.includes(ch));
      if (at >= 0) target = at + 2 < v.length ? sliceWord(ws[i], at + 2) : ws[++i];
    }
    if (target && target.value !== '-') writes.push([target, `${name} ${v.split('=')[0]}`]);
  }
  if (!remoteName) return { writes, unknown };
  for (const w of ws.slice(1)) {
    if (!/^[a-z]+:\/\//i.test(w.value)) continue;
    const m = /^[a-z]+:\/\/[^/]+\/(?:[^?#]*\/)?([^/?#]+)/i.exec(w.value);
    if (w.dynamic || !m) unknown.push(w.value);
    else writes.push([{ ...w, value: m[1], tilde: false, pattern: false }, 'curl -O']);
  }
  return { writes, unknown };
}

/** An interpreter fed its program by a here-document, a pipe or <( ) runs text nobody judged. */
export function interpreterProblems(name: string, ws: readonly ShellWord[], cmd: ShellCommand): string[] {
  const out: string[] = [];
  if (ws.slice(1).some((w) => w.procSub === '<'))
    out.push(`${name} runs the output of a <( … ) substitution as a script`);
  const args = ws.slice(1).map((w) => w.value);
  const stdinPath = /^(-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/;
  const readsStdin =
    args.every((a) => a.startsWith('-')) ||
    args.some((a) => stdinPath.test(a)) ||
    (SHELLS.has(name) && args.includes('-s'));
  if (!readsStdin || name === 'source' || name === '.') return out;
  const heredoc = cmd.redirects.find((r) => r.op === '<<' || r.op === '<<-' || r.op === '<<<');
  const fromFile = cmd.redirects.find((r) => r.op === '<');
  const what = heredoc?.op === '<<<' ? 'here-string' : 'here-document';
  if (heredoc) out.push(`the ${what} is a script for ${name}, which the policy does not judge`);
  else if (cmd.pipedInput)
    out.push(`${name} runs the previous command's output as a script, which the policy does not judge`);
  else if (fromFile) out.push(`${name} runs ${show(fromFile.target.value)} as a script`);
  return out;
}

/** Non-option arguments (after `--` everything counts), skipping the values of `values` options. */
export function operands(ws: ShellWord[], values: string[]): { operands: ShellWord[]; options: string[] } {
  const out: ShellWord[] = [];
  const options: string[] = [];
  let ended = false;
  for (let i = 1; i < ws.length; i++) {
    const v = ws[i].value;
    if (!ended && v === '--') ended = true;
    else if (!ended && v.startsWith('-') && v.length > 1) {
      options.push(v);
      if (values.includes(v)) i++;
    } else out.push(ws[i]);
  }
  return { operands: out, options };
}
