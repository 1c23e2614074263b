// The MCP manager as research's source port (research/mcp/mcp-sources.ts): what a research run may read
// of the user's servers. The servers that start are the ones that may start anyway (user servers, and
// workspace servers the user approved in a trusted workspace) — the same first use as Agent mode; a
// tool is called only when it is, at that moment, approved, unchanged and read-only.
import type { McpQueryTool, McpResourceRef, McpSourcePort } from '../research/mcp/mcp-sources';
import { queryArgument } from '../research/mcp/mcp-sources';
import type { McpManager } from './manager';
import type { McpContent } from './session-port';

export function mcpResearchPort(
  manager: Pick<McpManager, 'prepare' | 'researchOffer' | 'readResource' | 'callTool'>,
): McpSourcePort {
  return {
    async catalog() {
      await manager.prepare();
      const offer = manager.researchOffer();
      const resources: McpResourceRef[] = offer.resources.map((r) => ({
        server: r.server,
        uri: r.uri,
        name: r.name,
        ...(r.description ? { description: r.description } : {}),
      }));
      const tools: McpQueryTool[] = [];
      for (const t of offer.tools) {
        const argument = queryArgument(t.inputSchema);
        if (argument)
          tools.push({
            server: t.server,
            name: t.name,
            argument,
            ...(t.description ? { description: t.description } : {}),
          });
      }
      return { resources, tools };
    },
    async readResource(server, uri) {
      return textOf(await manager.readResource(server, uri));
    },
    async callTool(server, tool, args, signal) {
      // Checked again at the call: the list may have changed (or the tool lost its read-only hint) since.
      if (!manager.researchOffer().tools.some((t) => t.server === server && t.name === tool))
        throw new Error('it is no longer an approved read-only tool');
      const r = await manager.callTool(server, tool, args, { signal, progress: () => {}, supportsImages: false });
      const text = typeof r.forModel === 'string' ? r.forModel : r.forUi;
      if (r.isError) throw new Error(text.slice(0, 300));
      return text;
    },
  };
}

/** The text parts of a resource (binary parts are left out: a claim is checked against words). */
function textOf(contents: McpContent[]): string {
  const parts: string[] = [];
  for (const c of contents) {
    if (c.type === 'text' && typeof c.text === 'string') parts.push(c.text);
    const res = (c as { resource?: { text?: unknown } }).resource;
    if (c.type === 'resource' && typeof res?.text === 'string') parts.push(res.text);
  }
  return parts.join('\n\n');
}
