// The MCP servers of this window: where they come from (the workspace's `.mcp.json`, the user's
// `sextant.mcp.servers`), whether they may start, their connections, and the tools the model gets.
//
// Trust before start: a workspace server starts — no process, no connection — only when the workspace
// is trusted AND the user approved that server's configuration (bound to its hash: any change asks
// again). User servers are the user's own and start on first use. On first connect the tool list is
// recorded (names, descriptions, schemas, annotations — hashed per tool) and shown; a later change asks
// again with a diff, and until the user approves it only the tools of the approved list, unchanged,
// reach the model — whatever the permission rules say (rules judge calls, not what the model reads).
import type { McpServerView, Mode } from '../../protocol';
import type { AnyTool, ToolContext, ToolResult } from '../tools/types';
import { errorResult } from '../tools/types';
import { cardIsCurrent, type ShownCard } from './approval-card';
import { isRemote, type McpScope } from './config';
import type { McpInputValues } from './inputs';
import { isReadOnly, mcpTool } from './mcp-tool';
import { ServerConnection, type Timers } from './server-connection';
import { mergeServerSources, type ServerSources } from './server-sources';
import { resolveLaunch } from './resolve-launch';
import type { McpServerSpec, ResolvedServer } from './server-spec';
import { serverView } from './server-view';
import type { McpClientModule, McpContent, McpPromptMessage, McpResourceInfo, Spawner } from './session-port';
import { listHash, toolHashes, type McpToolInfo } from './tool-list';
import { mcpServerPrefix } from './tool-name';
import { toToolResult } from './tool-result';
import type { McpTrustStore, ServerDecision } from './trust-store';

export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
export const DEFAULT_CALL_TIMEOUT_MS = 120_000;

/** Modes whose model may use read-only MCP tools; Agent gets all of them; Research runs its own loop. */
const READ_ONLY_MODES: ReadonlySet<Mode> = new Set<Mode>(['chat', 'plan']);

export interface McpManagerDeps {
  /** Loads the SDK bundle (its own file): called on the first start, never before. */
  loadClient(): Promise<McpClientModule>;
  /** Starts a stdio server's process; the sandbox wraps this one. */
  spawn: Spawner;
  /** Decisions about the workspace's servers (per workspace) and the user's (global). */
  decisions: Record<McpScope, McpTrustStore>;
  /** VS Code's workspace trust. */
  trusted(): boolean;
  /** The environment `${VAR}` reads from (the extension host's). */
  env(): Readonly<Record<string, string | undefined>>;
  /** The base environment of a stdio server: the host's, scrubbed of keys like a command's. */
  baseChildEnv(): Record<string, string>;
  /** Where stdio servers run (the first workspace folder). */
  cwd(): string | undefined;
  log(server: string, line: string): void;
  /** `.vscode/mcp.json` inputs (`${input:id}`): SecretStorage, else asked once. Absent: such a server fails. */
  inputs?: McpInputValues;
  /** Reads a `.vscode/mcp.json` server's `envFile` (an absolute path) through the safe reader. */
  readEnvFile?(file: string): Promise<string>;
  /** The user's home folder (`${userHome}`). */
  home?(): string | undefined;
  /** An OAuth provider for a remote server (SDK `OAuthClientProvider`), when the host offers OAuth. */
  authProviderFor?(server: string, url: string): unknown;
  fetch?: typeof fetch;
  connectTimeoutMs?: number;
  callTimeoutMs?: number;
  timers?: Timers;
}

interface Entry {
  spec: McpServerSpec;
  connection: ServerConnection;
}

type Listener = () => void;

export class McpManager {
  private entries = new Map<string, Entry>();
  private problemList: string[] = [];
  private readonly listeners = new Set<Listener>();
  private client?: Promise<McpClientModule>;

  constructor(private readonly deps: McpManagerDeps) {}

  onDidChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private changed(): void {
    for (const l of [...this.listeners]) l();
  }

  problems(): readonly string[] {
    return this.problemList;
  }

  /**
   * New configuration. A server whose configuration changed (or that is gone) is stopped; nothing is
   * started here — servers start on first use or on approval.
   */
  setSources(sources: ServerSources): void {
    const { specs: next, problems } = mergeServerSources(sources);
    this.problemList = problems;
    for (const name of next.keys())
      if (mcpServerPrefix(name) !== `mcp__${name}__`)
        this.deps.log(name, `its tools are named ${mcpServerPrefix(name)}… (rules: ${mcpServerPrefix(name)}*)`);
    for (const [name, entry] of this.entries) {
      const spec = next.get(name);
      if (spec && spec.configHash === entry.spec.configHash) continue;
      void entry.connection.stop();
      this.entries.delete(name);
      if (spec) this.deps.log(name, 'configuration changed: stopped; it starts again once allowed');
    }
    for (const [name, spec] of next) if (!this.entries.has(name)) this.entries.set(name, this.entry(spec));
    this.changed();
  }

  private entry(spec: McpServerSpec): Entry {
    const connection = new ServerConnection({
      name: spec.name,
      loadClient: () => (this.client ??= this.deps.loadClient()),
      resolve: () => this.resolve(spec),
      spawn: this.deps.spawn,
      ...(this.deps.fetch ? { fetch: this.deps.fetch } : {}),
      ...(isRemote(spec.config) && this.deps.authProviderFor
        ? { authProvider: this.deps.authProviderFor(spec.name, spec.config.url) }
        : {}),
      timeoutMs: spec.config.timeout ?? this.deps.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      log: (line) => this.deps.log(spec.name, line),
      onChange: () => this.changed(),
      onTools: (tools) => void this.toolsListed(spec, tools),
      ...(this.deps.timers ? { timers: this.deps.timers } : {}),
    });
    return { spec, connection };
  }

  private resolve(spec: McpServerSpec): Promise<ResolvedServer> {
    return resolveLaunch(spec, this.deps);
  }

  private decision(spec: McpServerSpec): ServerDecision | undefined {
    return this.deps.decisions[spec.scope].get(spec.name, spec.configHash);
  }

  /** Whether the server may run now (trust, approval, not disabled). */
  private mayStart(spec: McpServerSpec): boolean {
    const d = this.decision(spec);
    if (d?.disabled) return false;
    if (spec.scope === 'user') return true;
    return this.deps.trusted() && d?.approved === true;
  }

  /** First tool list after approval: recorded as the one the user has seen; later lists are compared. */
  private async toolsListed(spec: McpServerSpec, tools: McpToolInfo[]): Promise<void> {
    const d = this.decision(spec);
    if (d?.tools) return;
    await this.deps.decisions[spec.scope].patch(spec.name, spec.configHash, { tools: toolHashes(tools) });
    this.deps.log(
      spec.name,
      `tool list recorded (fingerprint ${listHash(toolHashes(tools)).slice(0, 12)}): ` +
        `${tools.map((t) => t.name).join(', ') || 'none'}`,
    );
    this.changed();
  }

  /**
   * First use: starts every server that may run and is not running, and waits for them (each bounded
   * by its connect timeout). A server that fails is shown as failed; the request goes on without it.
   */
  async prepare(): Promise<void> {
    const starts: Array<Promise<unknown>> = [];
    for (const { spec, connection } of this.entries.values()) {
      if (!this.mayStart(spec) || connection.state === 'failed') continue;
      // A server waiting for the user to sign in (OAuth) keeps starting; the request does not wait for it.
      const bound = spec.config.timeout ?? this.deps.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, bound);
      });
      starts.push(Promise.race([connection.ensure(), late]).finally(() => clearTimeout(timer)));
    }
    await Promise.all(starts);
  }

  /** The tools the model gets in `mode`: approved, unchanged tools of running, allowed servers. */
  tools(mode: Mode): AnyTool[] {
    if (mode === 'research' || !this.deps.trusted()) return [];
    const out: AnyTool[] = [];
    for (const { spec, connection } of this.entries.values()) {
      if (!this.mayStart(spec) || connection.state !== 'connected') continue;
      for (const info of this.approvedTools(spec, connection)) {
        if (READ_ONLY_MODES.has(mode) && !isReadOnly(info)) continue;
        out.push(mcpTool(spec.name, info, (args, ctx) => this.callTool(spec.name, info.name, args, ctx)));
      }
    }
    return out;
  }

  /** The tools of a server the user approved and that have not changed since. */
  private approvedTools(spec: McpServerSpec, connection: ServerConnection): McpToolInfo[] {
    const approved = this.decision(spec)?.tools;
    if (!approved) return [];
    const current = toolHashes(connection.tools);
    return connection.tools.filter((info) => approved[info.name] === current[info.name]);
  }

  /**
   * What a research run may read (research/mcp/mcp-sources.ts): the resources of running, allowed
   * servers, and their approved, unchanged, read-only tools — what Chat mode's model gets. Starts nothing.
   */
  researchOffer(): {
    resources: Array<McpResourceInfo & { server: string }>;
    tools: Array<McpToolInfo & { server: string }>;
  } {
    const resources: Array<McpResourceInfo & { server: string }> = [];
    const tools: Array<McpToolInfo & { server: string }> = [];
    if (!this.deps.trusted()) return { resources, tools };
    for (const { spec, connection } of this.entries.values()) {
      if (!this.mayStart(spec) || connection.state !== 'connected') continue;
      resources.push(...connection.resources.map((r) => ({ ...r, server: spec.name })));
      tools.push(
        ...this.approvedTools(spec, connection)
          .filter(isReadOnly)
          .map((t) => ({ ...t, server: spec.name })),
      );
    }
    return { resources, tools };
  }

  /** A fingerprint of what `tools()` would return now, so the host can rebuild its tool registries. */
  toolsKey(): string {
    const parts: string[] = [];
    for (const { spec, connection } of this.entries.values()) {
      if (!this.mayStart(spec) || connection.state !== 'connected') continue;
      parts.push(
        `${spec.name}:${listHash(this.decision(spec)?.tools ?? {})}:${listHash(toolHashes(connection.tools))}`,
      );
    }
    return parts.join('|');
  }

  async callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    ctx: Pick<ToolContext, 'signal' | 'progress' | 'supportsImages'>,
  ): Promise<ToolResult> {
    const entry = this.entries.get(server);
    if (!entry || !this.mayStart(entry.spec)) return errorResult(`The MCP server "${server}" is not available now.`);
    const info = entry.connection.tools.find((t) => t.name === tool);
    const approved = this.decision(entry.spec)?.tools;
    // The list may have changed between the model's request and this call: only an approved tool runs.
    if (!info || !approved || approved[tool] !== toolHashes([info])[tool])
      return errorResult(
        `The MCP tool ${tool} of "${server}" changed or is gone and waits for the user's approval; it was not run.`,
      );
    const session = await entry.connection.ensure();
    if (!session)
      return errorResult(
        `The MCP server "${server}" is not connected (${entry.connection.lastError ?? entry.connection.state}).`,
      );
    try {
      const result = await session.callTool(tool, args, {
        signal: ctx.signal,
        timeoutMs: entry.spec.config.timeout ?? this.deps.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
        onProgress: (m) => ctx.progress(`${m}\n`),
      });
      return toToolResult(result, ctx.supportsImages);
    } catch (err) {
      if (ctx.signal.aborted) return errorResult(`${tool} was stopped by the user (the server was told to cancel).`);
      const message = err instanceof Error ? err.message : String(err);
      this.deps.log(server, `tool ${tool} failed: ${message}`);
      return errorResult(`The MCP tool ${tool} of "${server}" failed: ${message}`);
    }
  }

  /**
   * The user's answer to a server waiting for approval, with the hashes its card showed (`card`): an
   * approval counts only for what the user saw. If the configuration or the tool list changed since
   * the card was drawn, the answer approves nothing and a fresh card is shown ('stale'). A denial
   * never loosens anything, so it holds whatever the card showed.
   */
  async decide(name: string, decision: 'approve' | 'deny', card: ShownCard): Promise<'done' | 'stale' | 'nothing'> {
    const entry = this.entries.get(name);
    if (!entry) return 'nothing';
    const { spec, connection } = entry;
    const store = this.deps.decisions[spec.scope];
    const view = this.view(entry);
    if (view.state !== 'needs_approval' || !view.approval) return 'nothing';
    if (decision === 'approve' && !cardIsCurrent(card, view.approval)) {
      this.deps.log(name, 'the approval was for what the server showed before it changed: asking again');
      this.changed();
      return 'stale';
    }
    if (view.approval.reason === 'tools_changed') {
      if (decision === 'approve') {
        await store.patch(name, spec.configHash, { tools: toolHashes(connection.tools) });
        this.deps.log(name, 'changed tool list approved');
      } else {
        // Keeping a server whose tools changed under it, minus the changes, would hide the change: it stops.
        await store.patch(name, spec.configHash, { disabled: true });
        await connection.stop();
        this.deps.log(name, 'changed tool list refused: the server is disabled until you enable it');
      }
    } else if (decision === 'approve') {
      await store.set(name, { configHash: spec.configHash, approved: true });
      this.deps.log(name, 'approved');
      void connection.ensure();
    } else {
      await store.set(name, { configHash: spec.configHash, denied: true });
      this.deps.log(name, 'denied: it will not start unless you approve it from Sextant: MCP Servers');
    }
    this.changed();
    return 'done';
  }

  /** Asks again: forgets the approval and the recorded tool list. */
  async reapprove(name: string): Promise<void> {
    const entry = this.entries.get(name);
    if (!entry) return;
    await entry.connection.stop();
    await this.deps.decisions[entry.spec.scope].forget(name);
    this.changed();
  }

  async setDisabled(name: string, disabled: boolean): Promise<void> {
    const entry = this.entries.get(name);
    if (!entry) return;
    await this.deps.decisions[entry.spec.scope].patch(name, entry.spec.configHash, { disabled });
    if (disabled) await entry.connection.stop();
    this.changed();
  }

  async restart(name: string): Promise<void> {
    const entry = this.entries.get(name);
    if (!entry || !this.mayStart(entry.spec)) return;
    await entry.connection.restart();
  }

  async getPrompt(server: string, prompt: string, args: Record<string, string>): Promise<McpPromptMessage[]> {
    const session = await this.liveSession(server);
    return session.getPrompt(prompt, args);
  }

  async readResource(server: string, uri: string): Promise<McpContent[]> {
    const session = await this.liveSession(server);
    return session.readResource(uri);
  }

  private async liveSession(server: string) {
    const entry = this.entries.get(server);
    if (!entry || !this.mayStart(entry.spec)) throw new Error(`The MCP server "${server}" is not available.`);
    const session = await entry.connection.ensure();
    if (!session) throw new Error(`The MCP server "${server}" is not connected.`);
    return session;
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  /** A connected server's prompt's argument names in order, or undefined when it has no such prompt. */
  promptArguments(server: string, prompt: string): string[] | undefined {
    const p = this.entries.get(server)?.connection.prompts.find((x) => x.name === prompt);
    return p ? (p.arguments ?? []).map((a) => a.name) : undefined;
  }

  views(): McpServerView[] {
    return [...this.entries.values()].map((e) => this.view(e));
  }

  private view({ spec, connection }: Entry): McpServerView {
    return serverView(spec, connection, {
      decision: this.decision(spec),
      trusted: this.deps.trusted(),
      hadOtherConfig: () => this.deps.decisions.workspace.hadOther(spec.name, spec.configHash),
    });
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => e.connection.stop()));
  }
}
