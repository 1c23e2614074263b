// What the user approves of a server's tools: each tool's name, description, input schema and
// annotations, hashed one by one. A tool whose hash is not in the approved set never reaches the model
// (tool poisoning and "rug pulls" change exactly these texts); a changed list asks again with a diff.
import { sha256, stableJson } from './server-spec';

/** The part of an MCP tool the model and the policy see. */
export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: {
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    openWorldHint?: boolean;
    idempotentHint?: boolean;
    title?: string;
  };
  /** How the tool runs: `taskSupport: "required"` means only as a task (tools/call with a task). */
  execution?: { taskSupport?: string };
}

/**
 * The tools Sextant can call, and the ones it cannot: a tool whose `execution.taskSupport` is
 * "required" answers only a task-augmented call, which Sextant does not make — offered to the model, it
 * would fail every time, so it is kept out (and the server's log says why).
 */
export function callableTools(tools: readonly McpToolInfo[]): { callable: McpToolInfo[]; taskOnly: string[] } {
  const taskOnly = tools.filter((t) => t.execution?.taskSupport === 'required');
  return { callable: tools.filter((t) => !taskOnly.includes(t)), taskOnly: taskOnly.map((t) => t.name) };
}

export function toolHash(tool: McpToolInfo): string {
  return sha256(
    stableJson({
      name: tool.name,
      title: tool.title,
      description: tool.description ?? '',
      inputSchema: tool.inputSchema,
      annotations: tool.annotations ?? {},
    }),
  );
}

/** name → hash, the form an approval stores. */
export function toolHashes(tools: readonly McpToolInfo[]): Record<string, string> {
  return Object.fromEntries(tools.map((t) => [t.name, toolHash(t)]));
}

/** One hash for the whole list (order-free), shown to the user as a short fingerprint. */
export function listHash(hashes: Readonly<Record<string, string>>): string {
  return sha256(stableJson(hashes));
}

export interface ToolListDiff {
  added: string[];
  removed: string[];
  changed: string[];
}

export function diffToolLists(
  approved: Readonly<Record<string, string>>,
  current: Readonly<Record<string, string>>,
): ToolListDiff {
  const added = Object.keys(current).filter((n) => !(n in approved));
  const removed = Object.keys(approved).filter((n) => !(n in current));
  const changed = Object.keys(current).filter((n) => n in approved && approved[n] !== current[n]);
  return { added: added.sort(), removed: removed.sort(), changed: changed.sort() };
}

/** Whether a diff has anything the user has not approved (removals alone need no approval). */
export function needsApproval(diff: ToolListDiff): boolean {
  return diff.added.length > 0 || diff.changed.length > 0;
}
