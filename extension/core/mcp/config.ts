// MCP server configuration in Claude Code's `.mcp.json` shape: `{"mcpServers": {name: server}}`, a
// server being `{command, args?, env?}` (stdio, `type` optional or "stdio") or `{type: "http" | "sse",
// url, headers?}`. The same shape comes from the user setting `sextant.mcp.servers` (its value is the
// `mcpServers` object itself, or the whole file's shape). A file that is not valid JSON, or whose
// `mcpServers` is not an object, is reported with its line and column and gives no server. Inside it,
// each server is judged on its own: a key we do not know (`alwaysAllow`, `oauth`, … — other clients
// add their own) is ignored and reported, a server we cannot read (no command, a bad URL type, a bad
// name) is left out and reported, and its neighbours still load — a new field in one entry must not
// drop the others (each still needs its own approval before it starts).
import * as path from 'node:path';
import * as z from 'zod';
import { readRepositoryFile, type RepositoryFiles } from '../extensions/repository-file';
import { readCheckedJsonc } from '../config/checked-jsonc';
import { pathText } from '../config/jsonc';

export const MCP_JSON_PATH = '.mcp.json';

/** Where a server was declared: the workspace's `.mcp.json` (needs approval) or the user's settings. */
export type McpScope = 'workspace' | 'user';

const StringMap = z.record(z.string(), z.string());

const StdioServerSchema = z.object({
  type: z.literal('stdio').optional(),
  command: z.string().min(1, 'command is empty'),
  args: z.array(z.string()).optional(),
  env: StringMap.optional(),
  // Claude Code accepts these; we read them so a file written for it is not refused.
  cwd: z.string().optional(),
  timeout: z.number().int().positive().optional(),
  // VS Code's `.vscode/mcp.json` only (see vscode-mcp-json.ts): a dotenv file read when the server starts.
  envFile: z.string().min(1, 'envFile is empty').optional(),
});

const RemoteServerSchema = z.object({
  type: z.enum(['http', 'sse', 'streamable-http']),
  url: z.string().min(1, 'url is empty'),
  headers: StringMap.optional(),
  timeout: z.number().int().positive().optional(),
});

const STDIO_KEYS = new Set(Object.keys(StdioServerSchema.shape));
/** Keys only VS Code's format has: named as unknown in a `.mcp.json` or the user setting. */
const VSCODE_ONLY_KEYS = new Set(['envFile']);
const REMOTE_KEYS = new Set(Object.keys(RemoteServerSchema.shape));
/** Keys other clients write that we read as "this entry is off": such a server is not loaded. */
const DISABLED_KEY = 'disabled';

const ServerSchema = z.union([StdioServerSchema, RemoteServerSchema], {
  error: 'a server is {"command", "args"?, "env"?} or {"type": "http" | "sse", "url", "headers"?}',
});

export type StdioServerConfig = z.infer<typeof StdioServerSchema>;
export type RemoteServerConfig = z.infer<typeof RemoteServerSchema>;
export type McpServerConfig = StdioServerConfig | RemoteServerConfig;

/**
 * A server name is part of every tool name (`mcp__<server>__<tool>`, other characters made "_"):
 * letters, digits, `_`, `-` and `.` (Claude Code's files use dotted names such as `github.com`).
 */
export const SERVER_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const NAME_RULE = 'a server name uses letters, digits, "_", "-" and "." (at most 64)';

const FileSchema = z.object({ mcpServers: z.record(z.string(), z.unknown()) }).loose();

/** A `promptString` input of `.vscode/mcp.json`: a value asked once and kept in SecretStorage. */
export interface McpInputSpec {
  id: string;
  description: string;
  password: boolean;
}

export interface McpConfigSource {
  servers: Record<string, McpServerConfig>;
  /** The file's `inputs` (`.vscode/mcp.json` only), by id. */
  inputs?: Record<string, McpInputSpec>;
  /** One line per problem, naming the file (and line:column) and what was ignored or left out. */
  problems: string[];
}

export function isRemote(config: McpServerConfig): config is RemoteServerConfig {
  return 'url' in config;
}

/** zod's words, except for a bad record key, where it would only say "Invalid key in record". */
function issueMessage(issue: z.core.$ZodIssue): string {
  return issue.code === 'invalid_key' ? NAME_RULE : issue.message;
}

export type Where = (path: ReadonlyArray<PropertyKey>) => string;

/**
 * Each server of an `mcpServers` object on its own: the ones we can read (unknown keys dropped and
 * named), and one problem per key ignored or server left out. `where` prefixes a problem with its place.
 * `dialect` 'vscode' reads `.vscode/mcp.json`'s `servers` (which also knows `envFile`).
 */
export function readServers(
  entries: Record<string, unknown>,
  where: Where,
  dialect: 'claude' | 'vscode' = 'claude',
): McpConfigSource {
  const servers: Record<string, McpServerConfig> = {};
  const problems: string[] = [];
  for (const [name, raw] of Object.entries(entries)) {
    const path = [dialect === 'vscode' ? 'servers' : 'mcpServers', name];
    if (!SERVER_NAME.test(name)) {
      problems.push(`${where(path)}: "${name}": ${NAME_RULE}; this server was left out.`);
      continue;
    }
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
      problems.push(`${where(path)}: "${name}" is not an object; this server was left out.`);
      continue;
    }
    const entry = raw as Record<string, unknown>;
    if (entry[DISABLED_KEY] === true) {
      problems.push(`${where([...path, DISABLED_KEY])}: "${name}" says "disabled": true; it was not loaded.`);
      continue;
    }
    const checked = ServerSchema.safeParse(entry);
    if (!checked.success) {
      const details = checked.error.issues.map((issue) => {
        const at = [...path, ...issue.path];
        return `${where(at)}: "${pathText(at.slice(1))}" ${issueMessage(issue)}`;
      });
      problems.push(`${details.join('; ')}; this server was left out (the others still load).`);
      continue;
    }
    // zod's object drops unknown keys; name them, so the user knows they have no effect here.
    const known = 'url' in checked.data ? REMOTE_KEYS : STDIO_KEYS;
    const unknown = (k: string) => !known.has(k) || (dialect === 'claude' && VSCODE_ONLY_KEYS.has(k));
    for (const key of Object.keys(entry).filter(unknown))
      problems.push(`${where([...path, key])}: "${name}.${key}" is not a setting Sextant knows; it was ignored.`);
    const data = { ...checked.data };
    if (dialect === 'claude' && 'envFile' in data) delete data.envFile;
    servers[name] = data;
  }
  return { servers, problems };
}

/** Parses the text of a `.mcp.json`. Never throws; what cannot be read is left out and said where. */
export function parseMcpJson(text: string, file = MCP_JSON_PATH): McpConfigSource {
  if (!text.trim()) return { servers: {}, problems: [] };
  const read = readCheckedJsonc(text, file, FileSchema, issueMessage);
  if (!read.ok) return { servers: {}, problems: [unreadFileProblem(read)] };
  return readServers(read.value.mcpServers, read.where);
}

/** What a `.mcp.json` or `.vscode/mcp.json` that cannot be read at all says: where, and that none of it runs. */
export function unreadFileProblem(read: { kind: 'json' | 'shape'; problems: string[] }): string {
  return read.kind === 'json'
    ? `${read.problems.join('; ')}; no server of this file was started.`
    : `${read.problems.join('; ')}; the file was ignored (no server of it started).`;
}

/** Reads `sextant.mcp.servers`: the `mcpServers` object (or a whole `.mcp.json` shape). */
export function parseUserServers(value: unknown): McpConfigSource {
  if (value === undefined || value === null) return { servers: {}, problems: [] };
  const candidate =
    typeof value === 'object' && !Array.isArray(value) && 'mcpServers' in value ? value : { mcpServers: value };
  const checked = FileSchema.safeParse(candidate);
  if (!checked.success) {
    const details = checked.error.issues.map((issue) => {
      const path = issue.path[0] === 'mcpServers' ? issue.path.slice(1) : issue.path;
      return `${path.length ? `"${pathText(path)}" ` : ''}${issueMessage(issue)}`;
    });
    return {
      servers: {},
      problems: [`sextant.mcp.servers: ${details.join('; ')}; the setting was ignored (no server of it started).`],
    };
  }
  return readServers(checked.data.mcpServers, () => 'sextant.mcp.servers');
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
