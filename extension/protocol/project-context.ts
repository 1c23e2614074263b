// What the project and the user bring to the chat, as the view shows it: the rules files in effect
// (the "Context" popover), the skills listed to the model, and the slash commands (the `/` menu).
import * as z from 'zod';

export const ProjectContextInfoSchema = z.object({
  rules: z.array(
    z.object({
      label: z.string(),
      scope: z.enum(['user', 'workspace', 'nested', 'import']),
      tokens: z.number().int().min(0),
      /** Set when the file was cut at the cap: its full length. */
      cutFrom: z.number().int().min(0).optional(),
      note: z.string().optional(),
    }),
  ),
  /** Estimated tokens of the rules part of the system prompt, and of the skills list. */
  rulesTokens: z.number().int().min(0),
  skills: z.array(z.object({ name: z.string(), description: z.string(), source: z.string() })),
  skillsTokens: z.number().int().min(0),
  commands: z.array(
    z.object({ name: z.string(), description: z.string(), source: z.string(), argumentHint: z.string().optional() }),
  ),
});
export type ProjectContextInfo = z.infer<typeof ProjectContextInfoSchema>;

/**
 * The built-in commands, in the same `/` menu as the project's. The view carries most out itself (they
 * are existing messages: new chat, compact, model picker…); `/init` and `/context` go to the host.
 */
export const BUILTIN_COMMANDS = [
  { name: 'clear', description: 'Start a new chat (this one stays in History)' },
  { name: 'commit', description: 'Commit the changes: files and message on one card', argumentHint: '[note]' },
  { name: 'compact', description: 'Summarise the older turns into a brief now' },
  { name: 'context', description: 'Show what fills the context window' },
  { name: 'cost', description: 'Show what this chat has cost so far' },
  { name: 'export', description: 'Export this chat (Markdown, HTML or JSON)' },
  {
    name: 'goal',
    description: 'Keep working until a check passes',
    argumentHint: '<condition> | --check "<command>" [condition] | clear',
  },
  { name: 'init', description: 'Read the repository and write an AGENTS.md draft' },
  { name: 'mode', description: 'Switch mode', argumentHint: 'chat | plan | research | agent' },
  { name: 'model', description: 'Pick the model' },
  { name: 'review', description: 'Review the changes with the reviewer sub-agent', argumentHint: '[branch or range]' },
  { name: 'rewind', description: 'Rewind to an earlier message of this chat' },
] as const;

/** `/name rest…` → its parts; undefined when the text is not a command (`/usr/bin …` is not). */
export function parseInvocation(text: string): { name: string; args: string } | undefined {
  const m = /^\/([A-Za-z0-9_][\w.-]*(?::[\w.-]+)*)(?:[ \t\n]+([\s\S]*))?$/.exec(text.trim());
  if (!m) return undefined;
  return { name: m[1] ?? '', args: (m[2] ?? '').trim() };
}

/** The user's earlier prompts in this workspace, oldest first (Up/Down in the composer walk them). */
export const PromptHistorySchema = z.array(z.string()).max(500);
