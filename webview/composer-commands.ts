// What the composer does with a `/name …` message: a built-in command is carried out in the view (most
// are existing messages to the host), a project command or `/init` is sent for the host to expand, an
// unknown name is refused with the draft kept. `# text` is a memory to keep (the host asks which file).
import {
  BUILTIN_COMMANDS,
  MEMORY_MAX_CHARS,
  memoryFromMessage,
  ModeSchema,
  parseGoalArgs,
  parseInvocation,
  type ProjectContextInfo,
} from '../extension/protocol';

export interface MenuCommand {
  name: string;
  description: string;
  argumentHint?: string;
  /** `built-in`, or where the command file is. */
  source: string;
}

/** Built-ins first, then the project's and the user's, filtered by what follows the slash. */
export function menuCommands(info: ProjectContextInfo | undefined, typed: string): MenuCommand[] {
  const all: MenuCommand[] = [
    ...BUILTIN_COMMANDS.map((c) => ({ ...c, source: 'built-in' })),
    ...(info?.commands ?? []).filter((c) => !BUILTIN_COMMANDS.some((b) => b.name === c.name)),
  ];
  const q = typed.toLowerCase();
  const starts = all.filter((c) => c.name.toLowerCase().startsWith(q));
  const contains = all.filter((c) => !starts.includes(c) && c.name.toLowerCase().includes(q));
  return [...starts, ...contains];
}

/** The text being typed is a command name (the menu is open for it): what follows the slash. */
export function typedCommandName(text: string): string | undefined {
  return /^\/([\w.:-]*)$/.exec(text)?.[1];
}

export type ComposerCommand =
  | { kind: 'text' }
  | { kind: 'builtin'; name: string; args: string }
  | { kind: 'host'; mode?: 'agent' }
  | { kind: 'memory'; text: string }
  | { kind: 'refused'; message: string };

export function classify(text: string, info: ProjectContextInfo | undefined): ComposerCommand {
  // `# text` keeps a memory (the host asks which file), as in Claude Code.
  const memory = memoryFromMessage(text);
  if (memory !== undefined)
    return memory.length > MEMORY_MAX_CHARS
      ? { kind: 'refused', message: `A memory is one fact of at most ${MEMORY_MAX_CHARS} characters.` }
      : { kind: 'memory', text: memory };
  const call = parseInvocation(text);
  if (!call) return { kind: 'text' };
  if (call.name === 'init') return { kind: 'host', mode: 'agent' };
  // `/goal <condition>` runs in Agent mode (its check may run a command); `/goal clear` is done here.
  if (call.name === 'goal') {
    const goal = parseGoalArgs(call.args);
    if (goal.kind === 'refused') return { kind: 'refused', message: goal.message };
    return goal.kind === 'clear' ? { kind: 'builtin', name: 'goal', args: call.args } : { kind: 'host', mode: 'agent' };
  }
  if (call.name === 'review') return { kind: 'host' };
  // `/commit` ends in the git_commit tool's card, which only Agent mode has.
  if (call.name === 'commit') return { kind: 'host', mode: 'agent' };
  // An MCP server's prompt (`/mcp__<server>__<prompt>`): the host resolves it (mcp-host.ts).
  if (call.name.startsWith('mcp__')) return { kind: 'host' };
  if (BUILTIN_COMMANDS.some((b) => b.name === call.name)) {
    if (call.name === 'mode' && !ModeSchema.safeParse(call.args.toLowerCase()).success)
      return { kind: 'refused', message: 'Usage: /mode chat | plan | research | agent' };
    return { kind: 'builtin', name: call.name, args: call.args };
  }
  // Before the list has arrived the host decides (and refuses an unknown name itself).
  if (!info || info.commands.some((c) => c.name === call.name)) return { kind: 'host' };
  return { kind: 'refused', message: `Unknown command /${call.name}. Type / to see the commands.` };
}
