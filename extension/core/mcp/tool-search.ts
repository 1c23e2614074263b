// MCP tool search: when the MCP tools' full definitions would take more than a set share of the context
// window (`sextant.mcp.toolSearch`: "auto" — above AUTO_SHARE of it —, "on", "off"), they are not sent
// with every request. The model gets one `tool_search` tool instead, whose description lists each
// deferred tool's name and one-line description (sorted by name, so the same servers always give the same
// bytes), and which answers with the full definitions (name, description, input schema) on demand.
//
// The cached prefix stays stable: the request's tool list never changes when a tool is loaded — the
// definitions arrive as a tool result, appended to the conversation like any other — and a deferred tool
// is called by its own name (`mcp__<server>__<tool>`): the registry knows every deferred tool, only its
// spec is left out of the list sent to the provider. Each call is judged by the same policy and rules as
// if its definition had been sent (the approval card, `mcp__<server>__*` rules, the approved tool list).
import * as z from 'zod';
import { createToolRegistry, inputJsonSchema, type ToolRegistry } from '../tools/registry';
import { defineTool, type AnyTool } from '../tools/types';

export type ToolSearchSetting = 'auto' | 'on' | 'off';
export const TOOL_SEARCH = 'tool_search';
/** "auto": deferred when the MCP definitions would take more than this share of the context window. */
export const AUTO_SHARE = 0.1;
/** The estimate providers' token counts are close to for JSON: about 4 characters a token. */
const CHARS_PER_TOKEN = 4;
const ONE_LINE = 100;
const MAX_RESULTS = 8;

export function readToolSearchSetting(raw: unknown): ToolSearchSetting {
  return raw === 'on' || raw === 'off' ? raw : 'auto';
}

/** The tokens the tools' definitions (name, description, schema) take in a request, estimated. */
export function definitionTokens(tools: readonly AnyTool[]): number {
  const text = JSON.stringify(
    tools.map((t) => ({ name: t.name, description: t.description, input_schema: inputJsonSchema(t) })),
  );
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Whether the MCP tools are deferred behind `tool_search`. */
export function shouldDefer(setting: ToolSearchSetting, mcpTools: readonly AnyTool[], contextWindow: number): boolean {
  if (!mcpTools.length || setting === 'off') return false;
  return setting === 'on' || definitionTokens(mcpTools) > contextWindow * AUTO_SHARE;
}

/** A description's first sentence of its first line, cut to one short line. */
export function oneLine(description: string): string {
  const first = description.split('\n').find((l) => l.trim()) ?? '';
  const line = first
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/^(.+?[.!?])\s.*$/, '$1');
  return line.length > ONE_LINE ? `${line.slice(0, ONE_LINE - 1)}…` : line;
}

function catalog(tools: readonly AnyTool[]): string {
  const lines = [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return lines.map((t) => `- ${t.name}: ${oneLine(t.description)}`).join('\n');
}

/** Deferred tools matching a query (every word in the name or description; best: most words in the name). */
export function searchTools(tools: readonly AnyTool[], query: string): AnyTool[] {
  const words = query
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (!words.length) return [];
  const scored = tools
    .map((t) => {
      const name = t.name.toLowerCase();
      const text = `${name} ${t.description.toLowerCase()}`;
      const hits = words.filter((w) => text.includes(w)).length;
      return { t, score: hits * 10 + words.filter((w) => name.includes(w)).length };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || (a.t.name < b.t.name ? -1 : 1));
  return scored.slice(0, MAX_RESULTS).map((s) => s.t);
}

export function toolSearchTool(deferred: readonly AnyTool[]): AnyTool {
  const byName = new Map(deferred.map((t) => [t.name, t]));
  return defineTool({
    name: TOOL_SEARCH,
    description:
      'Loads the full definitions of MCP tools that are not in your tool list, by exact names or by a search ' +
      'query. After loading, call such a tool by its name like any other tool. Deferred tools:\n' +
      catalog(deferred),
    input: z.object({
      names: z.array(z.string()).optional().describe('Exact tool names to load'),
      query: z.string().optional().describe('Words to search the deferred tools for'),
    }),
    kind: 'read',
    permission: { subject: 'text', text: (i) => [...(i.names ?? []), i.query ?? ''].join(' ').trim() },
    modes: ['chat', 'plan', 'agent'],
    subject: (i) => [...(i.names ?? []), i.query ?? ''].filter(Boolean).join(', '),
    execute: async (input) => {
      const named = (input.names ?? []).map((n) => byName.get(n)).filter((t): t is AnyTool => Boolean(t));
      const unknown = (input.names ?? []).filter((n) => !byName.has(n));
      const found = [...new Set([...named, ...(input.query ? searchTools(deferred, input.query) : [])])];
      const definitions = found.map((t) => ({
        name: t.name,
        description: t.description,
        input_schema: inputJsonSchema(t),
      }));
      const text = [
        found.length
          ? `Loaded ${found.length} tool(s); call them by name:\n${JSON.stringify(definitions, null, 2)}`
          : 'No deferred tool matched.',
        ...(unknown.length ? [`Not deferred tools here: ${unknown.join(', ')}.`] : []),
      ].join('\n');
      return { forModel: text, forUi: `${found.map((t) => t.name).join(', ') || 'no match'}`, isError: false };
    },
  });
}

/**
 * The registry of a tool set with `deferred` tools behind `tool_search`: every tool callable by name, the
 * deferred ones left out of the specs sent to the provider, `tool_search` last (after the tools that are
 * always sent), so the list is the same bytes on every request.
 */
export function registryWithToolSearch(always: readonly AnyTool[], deferred: readonly AnyTool[]): ToolRegistry {
  if (!deferred.length) return createToolRegistry([...always]);
  const search = toolSearchTool(deferred);
  return createToolRegistry([...always, search, ...deferred], { hidden: new Set(deferred.map((t) => t.name)) });
}
