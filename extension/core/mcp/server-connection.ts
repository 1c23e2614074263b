// One server's life: start (spawn or connect, initialize, list tools, prompts, resources and resource
// templates), follow its tool list, write what the server logs (notifications/message) to its log,
// and when it dies unasked, restart it with backoff (1 s, 2 s, 4 s … up to 60 s; after 5
// failures in a row it stays failed until the user restarts it). Its state, last error and the tail of
// its stderr are kept for the status view. No SDK here: it talks to the server through `McpSession`.
import type {
  ConnectOptions,
  McpClientModule,
  McpPromptInfo,
  McpLogMessage,
  McpResourceInfo,
  McpResourceTemplateInfo,
  McpSession,
  Spawner,
} from './session-port';
import type { ResolvedServer } from './server-spec';
import { callableTools, type McpToolInfo } from './tool-list';

export type ConnectionState = 'stopped' | 'starting' | 'connected' | 'restarting' | 'failed';

/**
 * A start that retrying cannot fix (an input the user did not give, an envFile that cannot be read):
 * the server is failed at once instead of restarted — a retry would only ask the user again and again.
 */
export class StartRefused extends Error {}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface ServerConnectionDeps {
  name: string;
  loadClient(): Promise<McpClientModule>;
  /** The configuration to start, variables expanded (async: `.vscode/mcp.json` inputs may be asked). */
  resolve(): ResolvedServer | Promise<ResolvedServer>;
  spawn: Spawner;
  authProvider?: unknown;
  fetch?: typeof fetch;
  timeoutMs: number;
  log(line: string): void;
  /** State, tools, prompts or resources changed. */
  onChange(): void;
  /** The server listed a new set of tools (first connect and every change). */
  onTools(tools: McpToolInfo[]): void;
  timers?: Timers;
}

const STDERR_TAIL = 4000;
const MAX_LOG_LINE = 2000;
const MAX_FAILURES = 5;
const MAX_BACKOFF_MS = 60_000;

export class ServerConnection {
  state: ConnectionState = 'stopped';
  lastError?: string;
  stderrTail = '';
  restarts = 0;
  tools: McpToolInfo[] = [];
  prompts: McpPromptInfo[] = [];
  resources: McpResourceInfo[] = [];
  resourceTemplates: McpResourceTemplateInfo[] = [];
  serverInfo?: string;
  protocolVersion?: string;
  private session?: McpSession;
  private starting?: Promise<McpSession | undefined>;
  private failures = 0;
  private retryTimer?: unknown;
  private generation = 0;
  private readonly timers: Timers;

  constructor(private readonly deps: ServerConnectionDeps) {
    this.timers = deps.timers ?? {
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
    };
  }

  /** The live session, starting the server if it is not running (concurrent callers share one start). */
  ensure(): Promise<McpSession | undefined> {
    if (this.session) return Promise.resolve(this.session);
    if (this.starting) return this.starting;
    if (this.state === 'failed' || this.state === 'restarting') return Promise.resolve(undefined);
    return this.start();
  }

  private start(): Promise<McpSession | undefined> {
    const generation = ++this.generation;
    this.state = this.restarts > 0 ? 'restarting' : 'starting';
    this.deps.onChange();
    const attempt = (async () => {
      let session: McpSession | undefined;
      try {
        const resolved = await this.deps.resolve();
        if (resolved.missing.length)
          this.deps.log(`environment variables not set (expanded to ""): ${resolved.missing.join(', ')}`);
        const client = await this.deps.loadClient();
        const options: ConnectOptions = {
          name: this.deps.name,
          resolved,
          spawn: this.deps.spawn,
          timeoutMs: this.deps.timeoutMs,
          ...(this.deps.authProvider ? { authProvider: this.deps.authProvider } : {}),
          ...(this.deps.fetch ? { fetch: this.deps.fetch } : {}),
          onToolsChanged: (listed) => {
            if (generation !== this.generation) return;
            const tools = this.callable(listed);
            this.tools = tools;
            this.deps.log(`tool list changed: ${tools.length} tools`);
            this.deps.onTools(tools);
            this.deps.onChange();
          },
          onPromptsChanged: () => void this.refreshLists(generation),
          onResourcesChanged: () => void this.refreshLists(generation),
          onClosed: (error) => this.closedUnasked(generation, error),
          onStderr: (text) => {
            this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL);
            for (const line of text.split('\n')) if (line.trim()) this.deps.log(`stderr: ${line}`);
          },
          onSpawned: (pid) => this.deps.log(`process started (pid ${pid})`),
          onLog: (message) => {
            if (generation === this.generation) this.deps.log(logLine(message));
          },
          onFallback: (note) => this.deps.log(note),
        };
        session = await client.connect(options);
        if (generation !== this.generation) {
          await session.close();
          return undefined;
        }
        const tools = this.callable(await session.listTools());
        this.session = session;
        this.tools = tools;
        await this.refreshLists(generation);
        this.serverInfo = [session.serverName, session.serverVersion].filter(Boolean).join(' ');
        this.protocolVersion = session.protocolVersion;
        this.state = 'connected';
        this.failures = 0;
        this.lastError = undefined;
        this.deps.log(
          `connected${this.serverInfo ? ` to ${this.serverInfo}` : ''} (protocol ${this.protocolVersion ?? '?'}): ` +
            `${tools.length} tools, ${this.prompts.length} prompts, ${this.resources.length} resources, ` +
            `${this.resourceTemplates.length} resource templates`,
        );
        this.deps.onTools(tools);
        this.deps.onChange();
        return session;
      } catch (err) {
        await session?.close().catch(() => undefined);
        if (generation !== this.generation) return undefined;
        this.failed(err);
        return undefined;
      } finally {
        if (generation === this.generation) this.starting = undefined;
      }
    })();
    this.starting = attempt;
    return attempt;
  }

  /** The tools Sextant can call; the task-only ones are named in the log once per list. */
  private callable(listed: McpToolInfo[]): McpToolInfo[] {
    const { callable, taskOnly } = callableTools(listed);
    if (taskOnly.length)
      this.deps.log(
        `not offered to the model: ${taskOnly.join(', ')} (they run only as MCP tasks, which Sextant does not use)`,
      );
    return callable;
  }

  private async refreshLists(generation: number): Promise<void> {
    const s = this.session;
    if (!s || generation !== this.generation) return;
    const [prompts, resources, templates] = await Promise.all([
      s.listPrompts().catch(() => [] as McpPromptInfo[]),
      s.listResources().catch(() => [] as McpResourceInfo[]),
      s.listResourceTemplates().catch(() => [] as McpResourceTemplateInfo[]),
    ]);
    if (generation !== this.generation) return;
    this.prompts = prompts;
    this.resources = resources;
    this.resourceTemplates = templates;
    this.deps.onChange();
  }

  private closedUnasked(generation: number, error?: Error): void {
    if (generation !== this.generation || !this.session) return;
    this.session = undefined;
    this.failed(error ?? new Error('the connection closed'));
  }

  private failed(err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    this.lastError = message;
    this.failures++;
    this.deps.log(`failed: ${message}`);
    if (this.failures >= MAX_FAILURES || err instanceof StartRefused) {
      this.state = 'failed';
      this.deps.log(
        err instanceof StartRefused
          ? 'not started; restart it from Sextant: MCP Servers'
          : `gave up after ${this.failures} failures in a row; restart it from Sextant: MCP Servers`,
      );
      this.deps.onChange();
      return;
    }
    const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (this.failures - 1));
    this.state = 'restarting';
    this.deps.log(`restarting in ${delay / 1000} s`);
    this.deps.onChange();
    this.retryTimer = this.timers.setTimeout(() => {
      this.retryTimer = undefined;
      this.restarts++;
      void this.start();
    }, delay);
  }

  /** The live session, or undefined when the server is not connected (no start). */
  current(): McpSession | undefined {
    return this.session;
  }

  /** Stops the server (no restart) and forgets the failure count. */
  async stop(): Promise<void> {
    this.generation++;
    if (this.retryTimer !== undefined) this.timers.clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.starting = undefined;
    const s = this.session;
    this.session = undefined;
    this.state = 'stopped';
    this.failures = 0;
    this.deps.onChange();
    await s?.close().catch(() => undefined);
  }

  /** Stop, then start again now. */
  async restart(): Promise<McpSession | undefined> {
    await this.stop();
    this.restarts++;
    return this.start();
  }
}

/** A server's log message as one line of its log: `server log [level] logger: data`. */
export function logLine(message: McpLogMessage): string {
  const text = typeof message.data === 'string' ? message.data : JSON.stringify(message.data);
  const data = text.length > MAX_LOG_LINE ? `${text.slice(0, MAX_LOG_LINE)}… (${text.length} characters)` : text;
  return `server log [${message.level}]${message.logger ? ` ${message.logger}` : ''}: ${data}`;
}
