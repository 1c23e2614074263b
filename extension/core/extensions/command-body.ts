// What a Markdown command's body asks for beyond its text, as Claude Code reads it: `@path` attaches that
// file (or folder), and `` !`command` `` is replaced by the command's output before the prompt is sent.
// Only a command file's body is read this way — never what the user typed (their `@` are chips).
import type { Reference } from '../../protocol';

/** `` !`git status` ``: a command to run, its output in its place (Claude Code's "Bash command execution"). */
const SHELL_COMMAND = /!`([^`\n]+)`/g;
/** `@src/a.ts`, `@./notes.md`, `@docs/`: at a word's start, a path (a `/` or a `.` in it, so `@team` is prose). */
const FILE_MENTION = /(^|[\s(])@((?:[\w.~-]+\/)*[\w.~-]*[./][\w.~/-]*)/g;

/** The files a body names with `@`, once each, in order (trailing sentence punctuation is not part of them). */
export function bodyFileReferences(body: string): Reference[] {
  const out: Reference[] = [];
  for (const m of withoutShellCommands(body).matchAll(FILE_MENTION)) {
    const value = (m[2] ?? '').replace(/[.,;:]+$/, '');
    // `ask @team.` ends a sentence: without its full stop it is a name, not a path.
    if (!/[./]/.test(value) || value === '.' || out.some((r) => r.value === value)) continue;
    out.push({ kind: value.endsWith('/') ? 'folder' : 'file', value, label: `@${value}` });
  }
  return out;
}

/** The commands a body runs with `` !`…` ``, in order. */
export function bodyShellCommands(body: string): string[] {
  return [...body.matchAll(SHELL_COMMAND)].map((m) => (m[1] ?? '').trim()).filter(Boolean);
}

/** The body with each `` !`command` `` replaced by what `run` says for it (run one at a time, in order). */
export async function withShellOutputs(body: string, run: (command: string) => Promise<string>): Promise<string> {
  const outputs: string[] = [];
  for (const m of body.matchAll(SHELL_COMMAND)) outputs.push(await run((m[1] ?? '').trim()));
  let i = 0;
  return body.replace(SHELL_COMMAND, () => outputs[i++] ?? '');
}

function withoutShellCommands(body: string): string {
  return body.replace(SHELL_COMMAND, ' ');
}
