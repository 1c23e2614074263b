// `mcp__<server>__<tool>`, Claude Code's naming, so rules and habits carry over. Providers accept
// [A-Za-z0-9_-] up to 64 characters.
//
// A server's part must never run into another server's: `mcp__github__*` covers every name that starts
// with `mcp__github__`, so a server named `github.` must not become `mcp__github___…`, nor `a__b` become
// `mcp__a__b__…`. A name is used as written only when it is letters, digits, `-` and single inner `_`
// (then no other such name can be a prefix of it up to `__`); any other name — one that needed
// sanitising, has `__` or an `_` at either end, or is long — becomes a readable part plus a hash of the
// name as written (`github_3f9c1a2b`). Two servers whose parts are still equal (ignoring case, as rules
// do) are refused, both (`serverNameClashes`, applied in server-sources.ts).
import { sha256 } from './server-spec';

const UNSAFE = /[^A-Za-z0-9_-]/g;
const AS_WRITTEN = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;
const MAX = 64;
/** Longest server part, so every tool keeps its whole prefix and some of its own name. */
const MAX_SERVER = 32;

/** The server's part of its tools' names. */
export function mcpServerKey(server: string): string {
  if (AS_WRITTEN.test(server) && server.length <= MAX_SERVER) return server;
  const readable = server
    .replace(UNSAFE, '_')
    .replace(/_+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_SERVER - 9)
    .replace(/_+$/, '');
  return `${readable || 'server'}_${sha256(server).slice(0, 8)}`;
}

/** The prefix every tool of a server has: what `mcp__<server>__*` rules cover. */
export function mcpServerPrefix(server: string): string {
  return `mcp__${mcpServerKey(server)}__`;
}

export function mcpToolName(server: string, tool: string): string {
  const prefix = mcpServerPrefix(server);
  const own = tool.replace(UNSAFE, '_');
  if (prefix.length + own.length <= MAX) return prefix + own;
  // Cut within the tool's own part (never the prefix), with a hash so two long names stay apart.
  return `${prefix}${own.slice(0, MAX - prefix.length - 9)}_${sha256(`${server}\n${tool}`).slice(0, 8)}`;
}

/**
 * Groups of servers whose tools would share a prefix (equal server parts, ignoring case): each group
 * holds two or more names.
 */
export function serverNameClashes(names: Iterable<string>): string[][] {
  const byKey = new Map<string, string[]>();
  for (const name of names) {
    const key = mcpServerKey(name).toLowerCase();
    byKey.set(key, [...(byKey.get(key) ?? []), name]);
  }
  return [...byKey.values()].filter((g) => g.length > 1);
}
