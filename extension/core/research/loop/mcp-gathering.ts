// Reading the user's MCP servers as sources: for each query and sub-question, the best-matching
// resources of the approved servers and the answers of their read-only tools (asked about once per run).
// Each becomes a source numbered like a page, cited as `server:uri`, its text what the claims citing it
// are checked against — the same verifier as a web page's. Each search is a card, like a web search.
import type { ResearchPlanInput } from '../../../protocol';
import type { FetchedSource } from '../verify';
import { mcpSourceUrl, type McpSection, type McpSources } from '../mcp/mcp-sources';
import type { ResearchRecord } from './research-record';

/** Sections one query adds at most, and MCP sources a run reads at most. */
const SECTIONS_PER_QUERY = 2;
const MAX_MCP_SOURCES = 12;

export async function gatherMcp(
  rec: ResearchRecord,
  mcp: McpSources,
  plan: ResearchPlanInput,
  signal: AbortSignal,
): Promise<void> {
  const asks = [...new Set([plan.question, ...plan.queries.map((q) => q.query), ...plan.subQuestions])];
  const reported = new Set<string>();
  for (const query of asks) {
    if (signal.aborted || mcpCount(rec) >= MAX_MCP_SOURCES) return;
    const callId = rec.card('mcp_sources', query);
    const started = rec.o.now();
    rec.progress('reading', `Reading MCP servers: ${query}`);
    try {
      const { sections, problems } = await mcp.find(query, SECTIONS_PER_QUERY, signal);
      const added = sections.map((sec) => `[${addSection(rec, sec)}] ${mcpSourceUrl(sec)}`);
      for (const p of problems.filter((x) => !reported.has(x))) {
        reported.add(p);
        rec.notes.push(`MCP: ${p}.`);
      }
      rec.cardDone(callId, 'mcp_sources', query, started, {
        status: 'ok',
        preview: added.length ? added.join(' · ') : 'Nothing matching on the MCP servers',
        detail: added.join('\n') || 'Nothing matching on the MCP servers',
      });
    } catch (e) {
      const message = (e as Error).message;
      rec.cardDone(callId, 'mcp_sources', query, started, {
        status: signal.aborted ? 'aborted' : 'error',
        preview: message,
      });
      if (!signal.aborted) rec.notes.push(`Reading the MCP servers for "${query}" failed: ${message}`);
      return;
    }
  }
}

function mcpCount(rec: ResearchRecord): number {
  return rec.sources.filter((s) => !s.path && !/^https?:/i.test(s.url)).length;
}

/** Adds a section as a source (the same `server:uri` keeps one number); returns its number. */
function addSection(rec: ResearchRecord, sec: McpSection): number {
  const url = mcpSourceUrl(sec);
  const same = rec.sources.find((s) => s.url === url);
  if (same) return same.n;
  const source: FetchedSource = { n: rec.nextN(), url, title: sec.title, text: sec.text, accessedAt: rec.o.now() };
  rec.sources.push(source);
  return source.n;
}
