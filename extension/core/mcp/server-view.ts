// A server as the user sees it (Sextant: MCP Servers, the approval card): where it comes from, its
// state, what it offers — and, when it waits for the user, what the approval is about.
//
// Values of its environment and headers are never shown, only their names: they are often keys. A tool
// list that changed since the user approved it is shown as a diff with each new or changed tool's
// schema, because the schema is what the model reads and may carry instructions.
import type { McpServerView, McpToolView } from '../../protocol';
import { isRemote } from './config';
import { isReadOnly } from './mcp-tool';
import type { ServerConnection } from './server-connection';
import { commandLine, type McpServerSpec } from './server-spec';
import { diffToolLists, listHash, needsApproval, toolHashes, type McpToolInfo } from './tool-list';
import type { ServerDecision } from './trust-store';

export interface ViewInputs {
  decision: ServerDecision | undefined;
  /** VS Code's workspace trust. */
  trusted: boolean;
  /** Whether the user approved another configuration of this name before (then it "changed"); asked only then. */
  hadOtherConfig(): boolean;
}

function toolView(t: McpToolInfo, withSchema = false): McpToolView {
  return {
    name: t.name,
    description: t.description ?? t.title ?? '',
    readOnly: isReadOnly(t),
    destructive: t.annotations?.destructiveHint === true,
    openWorld: t.annotations?.openWorldHint === true,
    ...(withSchema ? { schema: JSON.stringify(t.inputSchema ?? {}) } : {}),
  };
}

export function serverView(spec: McpServerSpec, connection: ServerConnection, inputs: ViewInputs): McpServerView {
  const d = inputs.decision;
  const c = spec.config;
  const base = {
    name: spec.name,
    scope: spec.scope,
    transport: isRemote(c) ? (c.type === 'sse' ? ('sse' as const) : ('http' as const)) : ('stdio' as const),
    ...(isRemote(c) ? { url: c.url } : { commandLine: commandLine(c.command, c.args ?? []) }),
    envNames: isRemote(c) ? [] : Object.keys(c.env ?? {}).sort(),
    headerNames: isRemote(c) ? Object.keys(c.headers ?? {}).sort() : [],
    // A `.vscode/mcp.json` server also names the inputs it asks for and its envFile (never their values).
    readsEnv: [
      ...spec.readsEnv,
      ...spec.inputs.map((i) => `input:${i.id}`),
      ...(!isRemote(c) && c.envFile ? [`envFile:${c.envFile}`] : []),
    ],
    tools: connection.tools.map((t) => toolView(t)),
    withheld: [] as string[],
    prompts: connection.prompts.map((p) => ({ name: p.name, description: p.description ?? '' })),
    resources: connection.resources.map((r) => ({ uri: r.uri, name: r.name })),
    resourceTemplates: connection.resourceTemplates.map((t) => ({ uriTemplate: t.uriTemplate, name: t.name })),
    restarts: connection.restarts,
    ...(connection.lastError ? { lastError: connection.lastError } : {}),
    ...(connection.stderrTail ? { stderrTail: connection.stderrTail } : {}),
  };
  if (spec.scope === 'workspace' && !inputs.trusted) return { ...base, state: 'untrusted' };
  if (d?.disabled) return { ...base, state: 'disabled' };
  if (spec.scope === 'workspace' && !d?.approved) {
    if (d?.denied) return { ...base, state: 'denied' };
    const reason = inputs.hadOtherConfig() ? 'config_changed' : 'new';
    return {
      ...base,
      state: 'needs_approval',
      approval: { reason, added: [], changed: [], removed: [], configHash: spec.configHash },
    };
  }
  if (connection.state === 'connected' && d?.tools) {
    const current = toolHashes(connection.tools);
    const diff = diffToolLists(d.tools, current);
    if (needsApproval(diff)) {
      const byName = new Map(connection.tools.map((t) => [t.name, t]));
      const pick = (names: string[]) =>
        names.flatMap((n) => {
          const t = byName.get(n);
          return t ? [toolView(t, true)] : [];
        });
      return {
        ...base,
        withheld: [...diff.added, ...diff.changed],
        state: 'needs_approval',
        approval: {
          reason: 'tools_changed',
          added: pick(diff.added),
          changed: pick(diff.changed),
          removed: diff.removed,
          listHash: listHash(current).slice(0, 12),
          configHash: spec.configHash,
          toolsHash: listHash(current),
        },
      };
    }
  }
  return { ...base, state: connection.state };
}
