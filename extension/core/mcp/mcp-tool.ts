// An MCP tool as a Sextant tool: the same declaration as the built-ins, so the registry specs it, the
// policy judges it (rules by `mcp__<server>__<tool>` and `mcp__<server>__*`) and the card shows it.
// Kind and permission facts from the server's annotations (permissions/tool-facts.ts
// factsFromAnnotations): `readOnlyHint` → read (runs without asking, offered in Chat and Plan too);
// open world → network; anything else may write or run code → execute; all but reads ask by default.
// The destructive and open-world hints are named on the approval card.
import * as z from 'zod';
import { factsFromAnnotations } from '../permissions/tool-facts';
import { defineTool, type AnyTool, type ToolContext, type ToolResult } from '../tools/types';
import type { McpToolInfo } from './tool-list';
import { mcpToolName } from './tool-name';

const MAX_DESCRIPTION = 2_000;
const SUBJECT_CHARS = 200;

export type McpToolCaller = (args: Record<string, unknown>, ctx: ToolContext) => Promise<ToolResult>;

/** JSON Schema the providers accept: an object schema without `$schema`. */
function providerSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = schema;
  if (rest.type !== 'object') return { ...rest, type: 'object', properties: rest.properties ?? {} };
  return rest;
}

/** Read-only as the policy sees it (a tool that also says it is destructive is not). */
export function isReadOnly(info: McpToolInfo): boolean {
  return factsFromAnnotations(info.name, info.annotations ?? {}).kind === 'read';
}

export function mcpTool(server: string, info: McpToolInfo, call: McpToolCaller): AnyTool {
  const hints = [
    info.annotations?.destructiveHint === true && !isReadOnly(info) ? 'may delete or overwrite data (destructive)' : '',
    info.annotations?.openWorldHint === true ? 'reaches outside systems (open world)' : '',
  ].filter(Boolean);
  const description = (info.description ?? info.title ?? '').slice(0, MAX_DESCRIPTION);
  const name = mcpToolName(server, info.name);
  // The policy's facts for a tool known by its annotations: read-only → read; open world → network;
  // anything else may change things → execute (asks by default). Rules match its string arguments.
  const facts = factsFromAnnotations(name, info.annotations ?? {});
  return defineTool({
    name,
    description: `${description || `The ${info.name} tool`} (MCP server "${server}")`,
    input: z.record(z.string(), z.unknown()),
    jsonSchema: providerSchema(info.inputSchema ?? {}),
    kind: facts.kind,
    permission: facts.permission,
    // Read-only tools in Chat and Plan too; Research runs its own loop (the manager applies the same).
    modes: facts.kind === 'read' ? ['chat', 'plan', 'agent'] : ['agent'],
    subject: (input) => {
      const text = JSON.stringify(input);
      return text.length > SUBJECT_CHARS ? `${text.slice(0, SUBJECT_CHARS - 1)}…` : text;
    },
    describeForApproval: async (input) =>
      [
        `MCP server "${server}", tool ${info.name}${isReadOnly(info) ? ' (read-only)' : ''}`,
        ...(hints.length ? [`The server says it ${hints.join(' and ')}.`] : []),
        'Arguments:',
        JSON.stringify(input, null, 2),
      ].join('\n'),
    execute: (input, ctx) => call(input, ctx),
  });
}
