// MCP servers as the webview (and the status view) sees them: state, what would start, and — for a
// server waiting for the user — why it asks (new, changed configuration, changed tool list with a diff).
import * as z from 'zod';

export const McpServerStateSchema = z.enum([
  'needs_approval',
  'denied',
  'untrusted',
  'disabled',
  'stopped',
  'starting',
  'connected',
  'restarting',
  'failed',
]);
export type McpServerState = z.infer<typeof McpServerStateSchema>;

export const McpToolViewSchema = z.object({
  /** The server's own name for it (the model sees `mcp__<server>__<name>`). */
  name: z.string(),
  description: z.string(),
  readOnly: z.boolean(),
  destructive: z.boolean(),
  openWorld: z.boolean(),
  /** Its input schema as JSON, for the approval of a new or changed tool. */
  schema: z.string().optional(),
});
export type McpToolView = z.infer<typeof McpToolViewSchema>;

export const McpApprovalSchema = z.object({
  reason: z.enum(['new', 'config_changed', 'tools_changed']),
  added: z.array(McpToolViewSchema).default([]),
  changed: z.array(McpToolViewSchema).default([]),
  removed: z.array(z.string()).default([]),
  /** Short fingerprint of the tool list waiting for approval. */
  listHash: z.string().optional(),
  /**
   * What this card shows, sent back with the answer: the configuration's hash, and for a changed tool
   * list the whole list's hash. An answer whose hashes are no longer current approves nothing.
   */
  configHash: z.string(),
  toolsHash: z.string().optional(),
});
export type McpApproval = z.infer<typeof McpApprovalSchema>;

export const McpServerViewSchema = z.object({
  name: z.string(),
  scope: z.enum(['workspace', 'user']),
  transport: z.enum(['stdio', 'http', 'sse']),
  state: McpServerStateSchema,
  /** stdio: the full command line as written (variables unexpanded). */
  commandLine: z.string().optional(),
  url: z.string().optional(),
  /** Names only: values are never shown. */
  envNames: z.array(z.string()),
  headerNames: z.array(z.string()),
  /** Variables of the user's environment the configuration reads (`${NAME}`). */
  readsEnv: z.array(z.string()),
  approval: McpApprovalSchema.optional(),
  lastError: z.string().optional(),
  stderrTail: z.string().optional(),
  tools: z.array(McpToolViewSchema),
  /** Tools kept from the model until a changed list is approved. */
  withheld: z.array(z.string()).default([]),
  prompts: z.array(z.object({ name: z.string(), description: z.string() })),
  resources: z.array(z.object({ uri: z.string(), name: z.string() })),
  /** Resource templates (RFC 6570, e.g. `file:///{path}`): `@server:` plus a URI that fits one is read. */
  resourceTemplates: z.array(z.object({ uriTemplate: z.string(), name: z.string() })).default([]),
  restarts: z.number().int().min(0),
});
export type McpServerView = z.infer<typeof McpServerViewSchema>;
