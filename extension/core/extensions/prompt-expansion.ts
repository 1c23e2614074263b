// What a sent message becomes before it reaches the model: a custom slash command's prompt (with its
// arguments, model, the files its body names with `@` and whether it runs `` !`commands` ``), or the text
// as typed. An unknown `/name` is refused, not sent as prose.
import { BUILTIN_COMMANDS, type Mode, type Reference } from '../../protocol';
import { bodyFileReferences, bodyShellCommands } from './command-body';
import initTemplate from '../../../prompts/init.md';
import { type ReviewDiff, reviewPrompt } from './review';
import type { CommitCommand } from '../git/commit-command';
import { type LoadedCommand, parseInvocation, type SlashCommandRegistry } from './slash-commands';

/** A command's `allowed-tools` as read with its prompt: for the host to grant (or not) for the turn. */
export interface CommandGrant extends Omit<LoadedCommand, 'text'> {
  command: string;
  allowedTools: string[];
}

export type ExpandedPrompt =
  | {
      ok: true;
      text: string;
      model?: string;
      command?: string;
      mode?: Mode;
      grant?: CommandGrant;
      /** A command file's `@path`s: attached like the user's `@` chips, under the same read rules. */
      references?: Reference[];
      /** A command file's `` !`command` ``s: run (policy and box) before the prompt is sent. */
      commandShell?: boolean;
    }
  | { ok: false; message: string };

export async function expandPrompt(
  commands: SlashCommandRegistry,
  text: string,
  extras: { reviewDiff?: ReviewDiff; commit?: CommitCommand } = {},
): Promise<ExpandedPrompt> {
  const call = parseInvocation(text);
  if (!call) return { ok: true, text };
  // `/init` needs the tools to read and write, so it runs in Agent mode whatever the switch says.
  if (call.name === 'init') return { ok: true, text: initPrompt(call.args), command: 'init', mode: 'agent' };
  // `/review` only reads: it runs in Plan mode (read-only tools and sub-agents) whatever the switch says.
  if (call.name === 'review' && extras.reviewDiff) {
    const range = call.args || undefined;
    const diff = await extras.reviewDiff(range);
    if (!diff.ok) return diff;
    const prompt = reviewPrompt(diff.diff, range);
    return prompt.ok ? { ok: true, text: prompt.text, command: 'review', mode: 'plan' } : prompt;
  }
  // `/commit` proposes the commit on the git_commit tool's card: the tool runs only in Agent mode.
  if (call.name === 'commit' && extras.commit) {
    const prompt = await extras.commit(call.args);
    return prompt.ok ? { ok: true, text: prompt.text, command: 'commit', mode: 'agent' } : prompt;
  }
  const command = await commands.find(call.name);
  if (command) {
    const loaded = command.load ? await command.load(call.args) : undefined;
    if (loaded?.problem) return { ok: false, message: `The command /${call.name} cannot run: ${loaded.problem}` };
    const expanded = (loaded ? loaded.text : await command.expand(call.args)).trim();
    if (!expanded) return { ok: false, message: `The command /${call.name} has no prompt text.` };
    const grant = loaded?.allowedTools
      ? { command: call.name, ...loaded, allowedTools: loaded.allowedTools }
      : undefined;
    // Claude Code's file-only syntax: a command from elsewhere (an MCP prompt) is text as it comes.
    const references = loaded ? bodyFileReferences(expanded) : [];
    const commandShell = loaded ? bodyShellCommands(expanded).length > 0 : false;
    return {
      ok: true,
      text: expanded,
      command: call.name,
      ...(command.model ? { model: command.model } : {}),
      ...(grant ? { grant } : {}),
      ...(references.length ? { references } : {}),
      ...(commandShell ? { commandShell } : {}),
    };
  }
  // A built-in the view did not carry out itself (an old view): say so rather than send it to the model.
  if (BUILTIN_COMMANDS.some((b) => b.name === call.name))
    return { ok: false, message: `/${call.name} is a chat command; choose it from the / menu.` };
  return { ok: false, message: `Unknown command /${call.name}. Type / to see the commands.` };
}

/** `/init`: an Agent request that reads the repository and writes an AGENTS.md draft (prompts/init.md). */
function initPrompt(args: string): string {
  const extra = args ? `\n\nThe user adds: ${args}` : '';
  return `${initTemplate.trim()}${extra}`;
}
