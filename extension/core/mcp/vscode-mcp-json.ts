// VS Code's own MCP file, `.vscode/mcp.json`, read beside Claude Code's `.mcp.json` so a Copilot user's
// servers work unchanged: `{"inputs": [...], "servers": {name: server}}`, a server being stdio
// (`command`, `args`, `env`, `envFile`, `cwd`) or remote (`type`: "http" | "sse", `url`, `headers`).
// `inputs` of type `promptString` (`id`, `description`, `password`) are referenced as `${input:id}`; their
// values are asked once when a server first starts and kept in SecretStorage (inputs.ts) — never here,
// so the configuration an approval is bound to (and its hash) holds `${input:id}`, never the value.
//
// Same rules as `.mcp.json` (config.ts): a file that is not JSON is reported with its line and column and
// gives no server; one server we cannot read is left out alone and its neighbours load; a bad input is
// left out alone too (a server that references it then fails to start, saying which input is missing).
import * as path from 'node:path';
import * as z from 'zod';
import { readCheckedJsonc } from '../config/checked-jsonc';
import { pathText } from '../config/jsonc';
import { readRepositoryFile, type RepositoryFiles } from '../extensions/repository-file';
import { readServers, unreadFileProblem, type McpConfigSource, type McpInputSpec } from './config';

export const VSCODE_MCP_JSON_PATH = path.join('.vscode', 'mcp.json');
/** How problems name the file (forward slashes on every platform, as the user writes it). */
const FILE_LABEL = '.vscode/mcp.json';

const FileSchema = z
  .object({
    servers: z.record(z.string(), z.unknown()).optional(),
    inputs: z.array(z.unknown()).optional(),
  })
  .loose();

const INPUT_ID = /^[A-Za-z0-9_.-]{1,64}$/;
const InputSchema = z.object({
  type: z.literal('promptString', { error: 'Sextant reads inputs of type "promptString" only' }),
  id: z.string().regex(INPUT_ID, 'an input id uses letters, digits, "_", "-" and "." (at most 64)'),
  description: z.string().optional(),
  password: z.boolean().optional(),
  // VS Code accepts a default; a default is not a secret, but we still ask (and keep the answer).
  default: z.string().optional(),
});

function readInputs(list: unknown[], where: (p: ReadonlyArray<PropertyKey>) => string) {
  const inputs: Record<string, McpInputSpec> = {};
  const problems: string[] = [];
  list.forEach((raw, i) => {
    const checked = InputSchema.safeParse(raw);
    if (!checked.success) {
      const details = checked.error.issues.map((issue) => {
        const at = ['inputs', i, ...issue.path];
        return `${where(at)}: "${pathText(at)}" ${issue.message}`;
      });
      problems.push(`${details.join('; ')}; this input was left out (a server that uses it will not start).`);
      return;
    }
    const { id, description, password } = checked.data;
    if (inputs[id])
      problems.push(`${where(['inputs', i, 'id'])}: the input "${id}" is declared twice; the first is used.`);
    else inputs[id] = { id, description: description ?? id, password: password ?? false };
  });
  return { inputs, problems };
}

/** Parses the text of a `.vscode/mcp.json`. Never throws; what cannot be read is left out and said where. */
export function parseVscodeMcpJson(text: string, file = FILE_LABEL): McpConfigSource {
  if (!text.trim()) return { servers: {}, inputs: {}, problems: [] };
  const read = readCheckedJsonc(text, file, FileSchema);
  if (!read.ok) return { servers: {}, inputs: {}, problems: [unreadFileProblem(read)] };
  const servers = readServers(read.value.servers ?? {}, read.where, 'vscode');
  const inputs = readInputs(read.value.inputs ?? [], read.where);
  return { servers: servers.servers, inputs: inputs.inputs, problems: [...servers.problems, ...inputs.problems] };
}

/** Reads the workspace's `.vscode/mcp.json` with the safe reader (as `.mcp.json`). Missing: no servers. */
export async function readVscodeMcpJson(
  files: RepositoryFiles,
  root: string,
  home: string | undefined,
): Promise<McpConfigSource> {
  const read = await readRepositoryFile(
    files,
    path.join(root, VSCODE_MCP_JSON_PATH),
    { roots: [root], home },
    MAX_BYTES,
  );
  if (read.kind === 'text') return parseVscodeMcpJson(read.text);
  if (read.kind === 'missing') return parseVscodeMcpJson('');
  const why = read.kind === 'refused' ? read.reason : `larger than ${MAX_BYTES / 1000} KB, not read`;
  return { servers: {}, inputs: {}, problems: [`${FILE_LABEL}: ${why}; no server of this file was started.`] };
}

const MAX_BYTES = 1_000_000;
