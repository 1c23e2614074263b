// `mcp__<server>__<tool>`, Claude Code's naming, so rules and habits carry over. Providers accept
// [A-Za-z0-9_-] up to 64 characters: other characters become "_", and a longer name is cut and given
// a short hash so two long names stay apart.
import { sha256 } from './server-spec';

const UNSAFE = /[^A-Za-z0-9_-]/g;
const MAX = 64;

export function mcpToolName(server: string, tool: string): string {
  const full = `mcp__${server.replace(UNSAFE, '_')}__${tool.replace(UNSAFE, '_')}`;
  if (full.length <= MAX) return full;
  return `${full.slice(0, MAX - 9)}_${sha256(full).slice(0, 8)}`;
}

/** The prefix every tool of a server has: what `mcp__<server>__*` rules cover. */
export function mcpServerPrefix(server: string): string {
  return `mcp__${server.replace(UNSAFE, '_')}__`;
}
