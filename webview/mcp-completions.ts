// The composer's minimal picker for MCP references: while the word before the caret starts with `@`
// or `/mcp__`, the connected servers' resources (`@<server>:<uri>`), resource templates (their fixed
// part, `@<server>:file:///` for `file:///{path}`, for the user to finish) and prompts
// (`/mcp__<server>__<prompt>`, only at the start of the message) that begin with it.
import type { McpServerView } from '../extension/protocol';

export interface Completion {
  /** What replaces the word. */
  insert: string;
  /** A second line: the resource's name or the prompt's description. */
  detail: string;
}

export interface CompletionQuery {
  /** Where the word starts in the text. */
  start: number;
  items: Completion[];
}

const MAX_ITEMS = 8;

export function mcpCompletions(
  text: string,
  caret: number,
  servers: readonly McpServerView[],
): CompletionQuery | undefined {
  const before = text.slice(0, caret);
  const m = /(^|\s)(@\S*|\/mcp__\S*)$/.exec(before);
  if (!m) return undefined;
  const word = m[2];
  const start = caret - word.length;
  const items: Completion[] = [];
  for (const s of servers) {
    if (s.state !== 'connected') continue;
    if (word.startsWith('@')) {
      for (const r of s.resources) items.push({ insert: `@${s.name}:${r.uri}`, detail: r.name });
      for (const t of s.resourceTemplates ?? [])
        items.push({ insert: `@${s.name}:${t.uriTemplate.split('{')[0]}`, detail: `${t.name} (${t.uriTemplate})` });
    } else if (start === 0)
      for (const p of s.prompts) items.push({ insert: `/mcp__${s.name}__${p.name}`, detail: p.description });
  }
  const matching = items.filter((i) => i.insert.startsWith(word) && i.insert !== word).slice(0, MAX_ITEMS);
  return matching.length ? { start, items: matching } : undefined;
}
