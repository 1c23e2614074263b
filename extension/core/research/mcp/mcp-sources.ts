// The user's MCP servers as research sources: the resources of the servers the user approved (their
// documentation, notes, tickets) and their read-only tools, read the way a page is read — each becomes
// a numbered source whose text the report's claims are checked against, cited as `server:uri`.
//
// What may be read comes only through `McpSourcePort` (the MCP manager's research view): running,
// allowed servers and, of their tools, the approved, unchanged, read-only ones. Nothing is started here
// that the user has not approved, and tools run only after the user said yes once for this run
// (`approveTools`); without that answer only resources are read.
import { contentWords } from '../verify/words';

/** A resource a server lists. */
export interface McpResourceRef {
  server: string;
  uri: string;
  name: string;
  description?: string;
}

/** A read-only tool that takes one text argument (a query), so a research question can be put to it. */
export interface McpQueryTool {
  server: string;
  name: string;
  description?: string;
  /** The argument the query goes in. */
  argument: string;
}

/** What research may reach of the MCP servers (see McpManager.researchView). */
export interface McpSourcePort {
  /** Starts the servers that may start (approved ones; nothing else) and lists what they offer. */
  catalog(signal: AbortSignal): Promise<{ resources: McpResourceRef[]; tools: McpQueryTool[] }>;
  /** A resource's text (its text parts joined); throws when it cannot be read. */
  readResource(server: string, uri: string, signal: AbortSignal): Promise<string>;
  /** A read-only tool's text answer; throws on a failed call or a tool that is no longer approved. */
  callTool(server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<string>;
}

/** Asks the user, once per run, whether these read-only tools may be called as sources. */
export type McpToolApproval = (tools: McpQueryTool[], signal: AbortSignal) => Promise<boolean>;

/** A piece of MCP content a report may cite. */
export interface McpSection {
  server: string;
  /** The resource's URI, or `tool:<name>?<query>` for a tool's answer. */
  uri: string;
  title: string;
  text: string;
}

export interface McpSources {
  /** The best-matching resources for a query's words and the read-only tools' answers to it, best first. */
  find(query: string, max: number, signal: AbortSignal): Promise<{ sections: McpSection[]; problems: string[] }>;
}

/** How a source cites MCP content: `server:uri`. */
export const mcpSourceUrl = (s: Pick<McpSection, 'server' | 'uri'>): string => `${s.server}:${s.uri}`;

/** Resources one run reads at most, the characters kept of each, and tool calls one run makes at most. */
const MAX_RESOURCES = 40;
const MAX_TEXT = 60_000;
const MAX_TOOL_CALLS = 6;

export function createMcpSources(port: McpSourcePort, approveTools?: McpToolApproval): McpSources {
  let catalog: ReturnType<McpSourcePort['catalog']> | undefined;
  const texts = new Map<string, Promise<string | Error>>();
  let toolsAllowed: Promise<boolean> | undefined;
  let toolCalls = 0;

  const textOf = (r: McpResourceRef, signal: AbortSignal): Promise<string | Error> => {
    const key = mcpSourceUrl(r);
    let got = texts.get(key);
    if (!got) {
      got = port.readResource(r.server, r.uri, signal).then(
        (t) => t.slice(0, MAX_TEXT),
        (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
      );
      texts.set(key, got);
    }
    return got;
  };

  return {
    async find(query, max, signal) {
      catalog ??= port.catalog(signal);
      const { resources, tools } = await catalog;
      const problems: string[] = [];
      const want = new Set(contentWords(query));
      const scored: Array<{ section: McpSection; score: number }> = [];
      for (const r of resources.slice(0, MAX_RESOURCES)) {
        if (signal.aborted) break;
        const text = await textOf(r, signal);
        if (text instanceof Error) {
          problems.push(`${mcpSourceUrl(r)} could not be read: ${text.message}`);
          continue;
        }
        const score = overlap(want, `${r.name} ${r.description ?? ''} ${text}`);
        if (score > 0 && text.trim()) scored.push({ section: { ...r, title: titleOf(r), text }, score });
      }
      const sections = scored
        .sort((a, b) => b.score - a.score)
        .slice(0, max)
        .map((s) => s.section);
      if (tools.length === 0 || !approveTools || signal.aborted) return { sections, problems };
      // Tools are asked about once per run, all of them on one card; a "no" holds for the whole run.
      toolsAllowed ??= approveTools(tools, signal).catch(() => false);
      if (!(await toolsAllowed)) return { sections, problems };
      for (const t of tools) {
        if (toolCalls >= MAX_TOOL_CALLS || signal.aborted) break;
        toolCalls++;
        try {
          const text = (await port.callTool(t.server, t.name, { [t.argument]: query }, signal)).slice(0, MAX_TEXT);
          if (text.trim() && overlap(want, text) > 0)
            sections.push({ server: t.server, uri: toolUri(t.name, query), title: `${t.name}: ${query}`, text });
        } catch (e) {
          problems.push(`The MCP tool ${t.name} of "${t.server}" failed: ${(e as Error).message}`);
        }
      }
      return { sections, problems };
    },
  };
}

/** A tool's answer to a query, as a URI a citation can name. */
function toolUri(tool: string, query: string): string {
  return `tool:${tool}?${encodeURIComponent(query.slice(0, 200))}`;
}

function titleOf(r: McpResourceRef): string {
  return r.name && r.name !== r.uri ? `${r.name} (${r.server})` : `${r.uri} (${r.server})`;
}

/** How many of the query's distinct content words the text holds. */
function overlap(want: ReadonlySet<string>, text: string): number {
  let n = 0;
  const have = new Set(contentWords(text));
  for (const w of want) if (have.has(w)) n++;
  return n;
}

/**
 * The one text argument of a tool's input schema a query can go in: the only required property, when
 * it is a string, else the only property; undefined when the tool needs anything else.
 */
export function queryArgument(schema: Record<string, unknown>): string | undefined {
  const props = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const names = Object.keys(props);
  const pick = required.length === 1 ? required[0] : required.length === 0 && names.length === 1 ? names[0] : undefined;
  return pick && props[pick]?.type === 'string' ? pick : undefined;
}
