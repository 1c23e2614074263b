// The one file that imports the MCP SDK (@modelcontextprotocol/client): a connected `McpSession` over
// stdio (our own transport on an injectable spawner, so the sandbox can wrap the process), Streamable
// HTTP, or the older HTTP+SSE transport (used when the config says "sse", or when a server answers the
// Streamable HTTP handshake with a 4xx other than 401/403, as the protocol's backwards-compatibility
// section says). Built as its own bundle, `dist/mcp-client.js`, loaded on the
// first server start (see session-port.ts).
import { existsSync } from 'node:fs';
import {
  Client,
  ReadBuffer,
  SSEClientTransport,
  serializeMessage,
  StreamableHTTPClientTransport,
  type JSONRPCMessage,
  type OAuthClientProvider,
  type Transport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import type {
  CallOptions,
  ConnectOptions,
  McpCallResult,
  McpClientModule,
  McpContent,
  McpPromptMessage,
  McpResourceInfo,
  McpResourceTemplateInfo,
  McpSession,
  SpawnedProcess,
  Spawner,
  SpawnRequest,
} from './session-port';
import type { McpToolInfo } from './tool-list';

const CLIENT_INFO = { name: 'sextant', version: '0.1.0' };

/** Newline-delimited JSON-RPC over a child's stdin/stdout (the MCP stdio transport). */
class SpawnedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private child?: SpawnedProcess;
  private readonly buffer = new ReadBuffer();
  private closed = false;
  /**
   * Messages are handed to the SDK one microtask apart, in order. The SDK runs a notification's handler
   * a microtask later but settles a response at once: a server's last progress notification and the
   * result, read from one stdout chunk, would otherwise settle the call first and drop that progress
   * ("unknown token"). Chaining each delivery lets the queued handler run before the next message.
   */
  private delivery: Promise<void> = Promise.resolve();

  constructor(
    private readonly spawn: Spawner,
    private readonly request: SpawnRequest,
    private readonly onStderr: (text: string) => void,
    private readonly onSpawned?: (pid: number) => void,
  ) {}

  async start(): Promise<void> {
    // The spawner may first prepare a box (the sandbox) before the process exists.
    const child = await this.spawn(this.request);
    return new Promise((resolve, reject) => {
      this.child = child;
      let started = false;
      let failed = false;
      child.on('error', (err) => {
        if (started) this.onerror?.(err);
        else {
          failed = true;
          reject(this.startError(err));
        }
      });
      child.on('exit', (code, signal) => {
        this.child = undefined;
        if (!this.closed) {
          this.closed = true;
          // 127 is the shell's "command not found" (a boxed server starts through bash's exec).
          const how = signal
            ? `was killed by ${signal}`
            : `exited with code ${code}${code === 127 ? ` (command not found: ${this.request.command})` : ''}`;
          this.onerror?.(new Error(`the server process ${how}`));
        }
        this.onclose?.();
      });
      // A server that exits before reading its input makes our next write fail (EPIPE): the write's own
      // callback reports it; without a listener the stream's 'error' would end the whole process.
      child.stdin?.on('error', (err) => this.onerror?.(err));
      child.stdout?.on('data', (chunk: Buffer) => {
        this.buffer.append(chunk);
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = this.buffer.readMessage();
          } catch (err) {
            this.onerror?.(err instanceof Error ? err : new Error(String(err)));
            continue;
          }
          if (!message) break;
          const next = message;
          this.delivery = this.delivery.then(() => this.onmessage?.(next));
        }
      });
      child.stderr?.on('data', (chunk: Buffer) => this.onStderr(chunk.toString('utf8')));
      // A spawn that fails (ENOENT) reports 'error' on the next tick; a process that started has a pid.
      setImmediate(() => {
        if (failed) return;
        if (child.pid === undefined) {
          failed = true;
          reject(new Error(`could not start ${this.request.command}: it has no process id`));
          return;
        }
        started = true;
        this.onSpawned?.(child.pid);
        resolve();
      });
    });
  }

  /** A spawn failure in words: ENOENT names the command (or the missing working folder). */
  private startError(err: Error): Error {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return err;
    const { command, cwd } = this.request;
    if (cwd && !existsSync(cwd)) return new Error(`could not start: its working folder ${cwd} does not exist`);
    return new Error(`could not start: ${command} not found (is it installed and on the PATH?)`);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin) {
        reject(new Error('the server process is not running'));
        return;
      }
      stdin.write(serializeMessage(message), (err?: Error | null) => (err ? reject(err) : resolve()));
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const child = this.child;
    if (!child) return;
    child.stdin?.end();
    // Give it a moment to leave on its own (stdin closed), then make sure.
    const gone = new Promise<void>((r) => child.on('exit', () => r()));
    const timer = setTimeout(() => child.kill('SIGTERM'), 1000);
    const killer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await gone;
    clearTimeout(timer);
    clearTimeout(killer);
  }
}

/**
 * The HTTP status an SDK error carries: `SdkHttpError` keeps it in `status` (its `data.status`); its
 * message only quotes the response body, and its `code` is a name, so neither tells the status.
 */
export function httpStatusOf(err: unknown): number | undefined {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const x = e as { status?: unknown; data?: { status?: unknown }; cause?: unknown };
    if (typeof x.status === 'number') return x.status;
    if (typeof x.data?.status === 'number') return x.data.status;
    e = x.cause;
  }
  return undefined;
}

/** A server of the 2024-11-05 protocol refuses the Streamable HTTP POST with a 4xx (404 and 405 mostly). */
function wantsOldSse(err: unknown): boolean {
  const status = httpStatusOf(err);
  return status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403;
}

function toContent(parts: unknown): McpContent[] {
  return Array.isArray(parts) ? (parts as McpContent[]) : [];
}

class SdkSession implements McpSession {
  constructor(
    private readonly client: Client,
    private readonly transport: Transport,
  ) {}
  get serverName() {
    return this.client.getServerVersion()?.name;
  }
  get serverVersion() {
    return this.client.getServerVersion()?.version;
  }
  get protocolVersion() {
    return this.client.getNegotiatedProtocolVersion();
  }
  get instructions() {
    return this.client.getInstructions();
  }

  async listTools(): Promise<McpToolInfo[]> {
    if (!this.client.getServerCapabilities()?.tools) return [];
    const all: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.listTools(cursor ? { cursor } : undefined);
      all.push(...(page.tools as McpToolInfo[]));
      cursor = page.nextCursor;
    } while (cursor);
    return all;
  }
  async listPrompts() {
    if (!this.client.getServerCapabilities()?.prompts) return [];
    return (await this.client.listPrompts()).prompts;
  }
  async listResources(): Promise<McpResourceInfo[]> {
    if (!this.client.getServerCapabilities()?.resources) return [];
    return allPages(
      (cursor) => this.client.listResources(cursor),
      (page) => page.resources,
    );
  }
  async listResourceTemplates(): Promise<McpResourceTemplateInfo[]> {
    if (!this.client.getServerCapabilities()?.resources) return [];
    return allPages(
      (cursor) => this.client.listResourceTemplates(cursor),
      (page) => page.resourceTemplates,
    );
  }
  async callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<McpCallResult> {
    const result = await this.client.callTool(
      { name, arguments: args },
      {
        signal: options.signal,
        timeout: options.timeoutMs,
        resetTimeoutOnProgress: true,
        ...(options.onProgress
          ? {
              onprogress: (p: { progress: number; total?: number; message?: string }) =>
                options.onProgress?.(p.message ?? `${p.progress}${p.total ? ` / ${p.total}` : ''}`),
            }
          : {}),
      },
    );
    return {
      content: toContent(result.content),
      ...(result.structuredContent ? { structuredContent: result.structuredContent as Record<string, unknown> } : {}),
      ...(result.isError ? { isError: true } : {}),
    };
  }
  async getPrompt(name: string, args: Record<string, string>, signal?: AbortSignal): Promise<McpPromptMessage[]> {
    const r = await this.client.getPrompt({ name, arguments: args }, signal ? { signal } : undefined);
    return r.messages as McpPromptMessage[];
  }
  async readResource(uri: string, signal?: AbortSignal): Promise<McpContent[]> {
    const r = await this.client.readResource({ uri }, signal ? { signal } : undefined);
    return r.contents.map((c) => ({ type: 'resource', resource: c }) as McpContent);
  }
  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
    await this.transport.close().catch(() => undefined);
  }
}

function newClient(options: ConnectOptions): Client {
  return new Client(CLIENT_INFO, {
    capabilities: {},
    listChanged: {
      tools: {
        onChanged: (error, tools) => {
          if (!error && tools) options.onToolsChanged(tools as McpToolInfo[]);
        },
      },
      prompts: { autoRefresh: false, onChanged: () => options.onPromptsChanged?.() },
      resources: { autoRefresh: false, onChanged: () => options.onResourcesChanged?.() },
    },
  });
}

async function connectWith(options: ConnectOptions, transport: Transport): Promise<McpSession> {
  const client = newClient(options);
  // The server's own log (notifications/message): shown in its log, never dropped.
  client.setNotificationHandler('notifications/message', (n) => {
    const { level, logger, data } = n.params;
    options.onLog?.({ level, ...(logger ? { logger } : {}), data });
  });
  let closedByUs = false;
  let lastError: Error | undefined;
  client.onerror = (err) => {
    lastError = err;
  };
  client.onclose = () => {
    if (!closedByUs) options.onClosed(lastError ?? new Error('the connection closed'));
  };
  await client.connect(transport, { timeout: options.timeoutMs });
  const session = new SdkSession(client, transport);
  const close = session.close.bind(session);
  session.close = async () => {
    closedByUs = true;
    await close();
  };
  return session;
}

async function connect(options: ConnectOptions): Promise<McpSession> {
  const r = options.resolved;
  if (r.kind === 'stdio') {
    const request: SpawnRequest = { command: r.command, args: r.args, env: r.env, ...(r.cwd ? { cwd: r.cwd } : {}) };
    return connectWith(options, new SpawnedStdioTransport(options.spawn, request, options.onStderr, options.onSpawned));
  }
  const url = new URL(r.url);
  const shared = {
    requestInit: { headers: r.headers },
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.authProvider ? { authProvider: options.authProvider as OAuthClientProvider } : {}),
  };
  const open = (): StreamableHTTPClientTransport | SSEClientTransport =>
    r.kind === 'sse' ? new SSEClientTransport(url, shared) : new StreamableHTTPClientTransport(url, shared);
  let transport = open();
  try {
    return await connectWith(options, transport);
  } catch (err) {
    // The server wants OAuth and the SDK sent the user to sign in: wait for the redirect, trade the code
    // for tokens (PKCE), and connect again with them.
    const provider = options.authProvider as SignInProvider | undefined;
    if (err instanceof UnauthorizedError && typeof provider?.waitForRedirect === 'function') {
      const params = await provider.waitForRedirect();
      await transport.finishAuth(params);
      transport = open();
      return connectWith(options, transport);
    }
    // Servers of the 2024-11-05 protocol answer the Streamable HTTP POST with 404 or 405: try HTTP+SSE.
    if (r.kind === 'sse' || !wantsOldSse(err)) throw err;
    options.onFallback?.(`the server refused Streamable HTTP (HTTP ${httpStatusOf(err)}): trying HTTP+SSE`);
    await transport.close().catch(() => undefined);
    return connectWith(options, new SSEClientTransport(url, shared));
  }
}

/** What oauth.ts's provider adds to the SDK's interface: the redirect back from the browser. */
interface SignInProvider extends OAuthClientProvider {
  waitForRedirect(): Promise<URLSearchParams>;
}

export const mcpClientModule: McpClientModule = { connect };

/** Every item of a paged MCP list: pages are fetched until the server gives no next cursor. */
async function allPages<Page extends { nextCursor?: string }, Item>(
  fetch: (params: { cursor: string } | undefined) => Promise<Page>,
  items: (page: Page) => Item[],
): Promise<Item[]> {
  const all: Item[] = [];
  let cursor: string | undefined;
  do {
    const page = await fetch(cursor ? { cursor } : undefined);
    all.push(...items(page));
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}
