// What the MCP code needs from a connected server, without the SDK: the SDK lives in its own bundle
// (`dist/mcp-client.js`, built from sdk-session.ts) that the runtime loads the first time a server
// starts, so nothing of it is in the activation or runtime bundles.
import type { ResolvedServer } from './server-spec';
import type { McpToolInfo } from './tool-list';

/** A child process as the stdio transport uses it (what `child_process.spawn` returns). */
export interface SpawnedProcess {
  readonly pid?: number;
  readonly stdin: NodeJS.WritableStream | null;
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  kill(signal?: NodeJS.Signals): boolean;
  on(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
}

export interface SpawnRequest {
  command: string;
  args: string[];
  /** The whole environment the process gets (already scrubbed and merged with the configuration's). */
  env: Record<string, string>;
  cwd?: string;
}

/**
 * Starts a stdio server's process. Injectable so the OS sandbox can wrap it (run the same command
 * inside its box) without the MCP code knowing: see `McpManagerDeps.spawn`.
 */
export type Spawner = (request: SpawnRequest) => SpawnedProcess | Promise<SpawnedProcess>;

export interface McpPromptInfo {
  name: string;
  description?: string;
  arguments?: Array<{ name: string; description?: string; required?: boolean }>;
}

export interface McpResourceInfo {
  uri: string;
  name: string;
  description?: string;
  mimeType?: string;
}

/** A tool result's content as MCP sends it (the parts Sextant understands; others are named). */
export type McpContent =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource_link'; uri: string; name?: string; description?: string; mimeType?: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: string; [key: string]: unknown };

export interface McpCallResult {
  content: McpContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** A URI template (RFC 6570) a server reads resources by, e.g. `file:///{path}`. */
export interface McpResourceTemplateInfo {
  uriTemplate: string;
  name: string;
  description?: string;
  mimeType?: string;
}

/** A server's log message (notifications/message): a syslog level and any JSON data. */
export interface McpLogMessage {
  level: string;
  logger?: string;
  data: unknown;
}

export interface McpPromptMessage {
  role: 'user' | 'assistant';
  content: McpContent;
}

export interface CallOptions {
  signal: AbortSignal;
  timeoutMs: number;
  onProgress?(message: string): void;
}

/** A live connection to one server. */
export interface McpSession {
  readonly serverName?: string;
  readonly serverVersion?: string;
  readonly protocolVersion?: string;
  readonly instructions?: string;
  listTools(): Promise<McpToolInfo[]>;
  listPrompts(): Promise<McpPromptInfo[]>;
  listResources(): Promise<McpResourceInfo[]>;
  listResourceTemplates(): Promise<McpResourceTemplateInfo[]>;
  callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<McpCallResult>;
  getPrompt(name: string, args: Record<string, string>, signal?: AbortSignal): Promise<McpPromptMessage[]>;
  readResource(uri: string, signal?: AbortSignal): Promise<McpContent[]>;
  close(): Promise<void>;
}

/** The OAuth side the HTTP transport asks for when a server answers 401 (see oauth.ts). */
export type OAuthProviderFactory = (serverName: string, serverUrl: string) => unknown;

export interface ConnectOptions {
  name: string;
  resolved: ResolvedServer;
  spawn: Spawner;
  /** Called with the new list whenever the server says its tools changed. */
  onToolsChanged(tools: McpToolInfo[]): void;
  onPromptsChanged?(): void;
  onResourcesChanged?(): void;
  /** The connection ended (process exit, stream closed); `error` when it was not our close(). */
  onClosed(error?: Error): void;
  /** A chunk of the server's stderr (stdio only). */
  onStderr(text: string): void;
  /** The pid of a stdio server once its process exists (for the log). */
  onSpawned?(pid: number): void;
  /** A log message the server sent (notifications/message). */
  onLog?(message: McpLogMessage): void;
  /** A note for the server's log: the connection fell back to HTTP+SSE, and why. */
  onFallback?(note: string): void;
  /** An OAuthClientProvider for remote servers that need one (the SDK's interface). */
  authProvider?: unknown;
  fetch?: typeof fetch;
  timeoutMs: number;
}

export interface McpClientModule {
  connect(options: ConnectOptions): Promise<McpSession>;
}
