// MCP server configuration in Claude Code's `.mcp.json` shape: `{"mcpServers": {name: server}}`, a
// server being `{command, args?, env?}` (stdio, `type` optional or "stdio") or `{type: "http" | "sse",
// url, headers?}`. The same shape comes from the user setting `sextant.mcp.servers` (its value is the
// `mcpServers` object itself, or the whole file's shape). A file that is not valid JSON or not of this
// shape is reported with its line and column and ignored whole: half a server list would start servers
// the user cannot predict; nothing else depends on it.
import * as path from 'node:path';
import * as z from 'zod';
import { readRepositoryFile, type RepositoryFiles } from '../extensions/repository-file';
import { lineColumn, offsetNear, parseJsonc, pathText } from '../config/jsonc';

export const MCP_JSON_PATH = '.mcp.json';

/** Where a server was declared: the workspace's `.mcp.json` (needs approval) or the user's settings. */
export type McpScope = 'workspace' | 'user';

const StringMap = z.record(z.string(), z.string());

const StdioServerSchema = z.strictObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1, 'command is empty'),
  args: z.array(z.string()).optional(),
  env: StringMap.optional(),
  // Claude Code accepts these; we read them so a file written for it is not refused.
  cwd: z.string().optional(),
  timeout: z.number().int().positive().optional(),
});

const RemoteServerSchema = z.strictObject({
  type: z.enum(['http', 'sse', 'streamable-http']),
  url: z.string().min(1, 'url is empty'),
  headers: StringMap.optional(),
  timeout: z.number().int().positive().optional(),
});

const ServerSchema = z.union([StdioServerSchema, RemoteServerSchema], {
  error: 'a server is {"command", "args"?, "env"?} or {"type": "http" | "sse", "url", "headers"?}',
});

export type StdioServerConfig = z.infer<typeof StdioServerSchema>;
export type RemoteServerConfig = z.infer<typeof RemoteServerSchema>;
export type McpServerConfig = StdioServerConfig | RemoteServerConfig;

/** A server name is part of every tool name (`mcp__<server>__<tool>`): letters, digits, `_`, `-`. */
export const SERVER_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const NAME_RULE = 'a server name uses letters, digits, "_" and "-" (at most 64)';

const ServersSchema = z.record(z.string().regex(SERVER_NAME, NAME_RULE), ServerSchema);
const FileSchema = z.object({ mcpServers: ServersSchema }).loose();

export interface McpConfigSource {
  servers: Record<string, McpServerConfig>;
  /** One line per problem, naming the file (and line:column); non-empty means the source was ignored. */
  problems: string[];
}

export function isRemote(config: McpServerConfig): config is RemoteServerConfig {
  return 'url' in config;
}

/** zod's words, except for a bad record key, where it would only say "Invalid key in record". */
function issueMessage(issue: z.core.$ZodIssue): string {
  return issue.code === 'invalid_key' ? NAME_RULE : issue.message;
}

/** Parses the text of a `.mcp.json`. Never throws; a bad file gives no servers and says where it is wrong. */
export function parseMcpJson(text: string, file = MCP_JSON_PATH): McpConfigSource {
  if (!text.trim()) return { servers: {}, problems: [] };
  const parsed = parseJsonc(text);
  const at = (offset: number) => {
    const { line, column } = lineColumn(text, offset);
    return `${file}:${line}:${column}`;
  };
  if (!parsed.ok)
    return {
      servers: {},
      problems: [`${at(parsed.offset)}: not valid JSON (${parsed.message}); no server of this file was started.`],
    };
  const checked = FileSchema.safeParse(parsed.value);
  if (!checked.success) {
    const details = checked.error.issues.map((issue) => {
      const name = issue.path.length ? `"${pathText(issue.path)}" ` : '';
      return `${at(offsetNear(parsed.offsetOf, issue.path))}: ${name}${issueMessage(issue)}`;
    });
    return { servers: {}, problems: [`${details.join('; ')}; the file was ignored (no server of it started).`] };
  }
  return { servers: checked.data.mcpServers, problems: [] };
}

/** Reads `sextant.mcp.servers`: the `mcpServers` object (or a whole `.mcp.json` shape). */
export function parseUserServers(value: unknown): McpConfigSource {
  if (value === undefined || value === null) return { servers: {}, problems: [] };
  const candidate =
    typeof value === 'object' && !Array.isArray(value) && 'mcpServers' in value ? value : { mcpServers: value };
  const checked = FileSchema.safeParse(candidate);
  if (checked.success) return { servers: checked.data.mcpServers, problems: [] };
  const details = checked.error.issues.map((issue) => {
    const path = issue.path[0] === 'mcpServers' ? issue.path.slice(1) : issue.path;
    return `${path.length ? `"${pathText(path)}" ` : ''}${issueMessage(issue)}`;
  });
  return {
    servers: {},
    problems: [`sextant.mcp.servers: ${details.join('; ')}; the setting was ignored (no server of it started).`],
  };
}

/**
 * Reads the workspace's `.mcp.json` with the safe reader (repository-file.ts): a link out of the
 * workspace, to a key or to /proc is not read — named as a problem instead — so a repository cannot
 * make a parse error echo another file. Missing: no servers.
 */
export async function readMcpJson(files: RepositoryFiles, root: string, home: string | undefined) {
  const read = await readRepositoryFile(
    files,
    path.join(root, MCP_JSON_PATH),
    { roots: [root], home },
    MCP_JSON_MAX_BYTES,
  );
  if (read.kind === 'text') return parseMcpJson(read.text);
  if (read.kind === 'missing') return parseMcpJson('');
  const why = read.kind === 'refused' ? read.reason : `larger than ${MCP_JSON_MAX_BYTES / 1000} KB, not read`;
  return { servers: {}, problems: [`${MCP_JSON_PATH}: ${why}; no server of this file was started.`] };
}

/** A server list far larger than any real one. */
const MCP_JSON_MAX_BYTES = 1_000_000;
