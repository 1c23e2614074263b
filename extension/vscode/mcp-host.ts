// MCP in this window: reads the workspace's `.mcp.json` and `.vscode/mcp.json` (watched) and
// `sextant.mcp.servers` (user settings only), keeps the user's decisions in VS Code's state
// (workspace state for the workspace's servers, global state for the user's), logs each server to the
// "Sextant MCP" output channel, and posts the servers' state to the chat view, where approvals are
// asked. The SDK bundle is loaded on the first server start (`mcp-client.js`), never at activation or
// when the runtime loads.
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import type { Outbound } from '../protocol';
import type { Spawner } from '../core/mcp/session-port';
import { MCP_JSON_PATH, parseMcpJson, parseUserServers, readMcpJson, type McpConfigSource } from '../core/mcp/config';
import { localFiles } from '../core/local-files';
import type { McpManager } from '../core/mcp/manager';
import type { ServerSources } from '../core/mcp/server-sources';
import { createMcpManager } from '../engine/mcp';
import { createInputValues } from '../core/mcp/inputs';
import { readVscodeMcpJson, VSCODE_MCP_JSON_PATH } from '../core/mcp/vscode-mcp-json';
import { McpOAuthProvider } from '../core/mcp/oauth';
import { expandMcpReferences, contentText, promptChatImages } from '../core/mcp/message-references';
import type { ChatImage } from '../protocol/images';
import type { Logger, SecretsPort } from '../core/ports';
import { readMcpServersSetting } from './settings';

export interface McpHostOptions {
  context: vscode.ExtensionContext;
  log: Logger;
  post(message: Outbound): void;
  /** The host environment scrubbed of keys (the same as commands get). */
  scrubbedEnv(): Record<string, string>;
  /** How stdio servers are started (the sandbox wraps it); default `spawnServer`. */
  spawn?: Spawner;
  /** Redacts the channel's lines (known key values). */
  channel: vscode.LogOutputChannel;
  /** SecretStorage: OAuth clients and tokens of remote servers. */
  secrets: SecretsPort;
}

/** The redirect the authorization servers send the browser back to (handled in extension.ts). */
const OAUTH_REDIRECT_PATH = '/mcp-oauth';

export class McpHost implements vscode.Disposable {
  readonly manager: McpManager;
  private readonly subscriptions: vscode.Disposable[] = [];
  private workspaceSource: McpConfigSource = { servers: {}, problems: [] };
  private vscodeSource: McpConfigSource = { servers: {}, problems: [] };
  private pluginSource: NonNullable<ServerSources['plugins']> = { servers: {}, problems: [], digests: {} };
  private reported = '';
  private postScheduled = false;
  private readonly signIns = new Map<string, McpOAuthProvider>();

  constructor(private readonly o: McpHostOptions) {
    this.manager = createMcpManager({
      bundleDir: __dirname,
      workspaceState: o.context.workspaceState,
      globalState: o.context.globalState,
      trusted: () => vscode.workspace.isTrusted,
      env: process.env,
      ports: () => ({ sandbox: undefined, childEnv: o.scrubbedEnv }),
      cwd: () => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
      log: (server, line) => o.channel.info(`[${server}] ${line}`),
      ...(o.spawn ? { spawn: o.spawn } : {}),
      // `.vscode/mcp.json` inputs: asked once in an input box (masked for passwords), kept in SecretStorage.
      inputs: createInputValues({
        secrets: o.secrets,
        workspace: vscode.workspace.workspaceFolders?.[0]?.uri.toString() ?? '',
        ask: async (input) =>
          vscode.window.showInputBox({
            title: `Sextant: ${input.description}`,
            prompt: `Asked by .vscode/mcp.json (input "${input.id}"); kept in VS Code's SecretStorage`,
            password: input.password,
            ignoreFocusOut: true,
          }),
      }),
      // Remote servers that answer 401 get the MCP authorization flow; the browser comes back through
      // VS Code's URI handler. A server with a static Authorization header never reaches it.
      authProviderFor: (server, url) => {
        const provider = new McpOAuthProvider(server, url, {
          secrets: o.secrets,
          redirectUrl: `${vscode.env.uriScheme}://${o.context.extension.id}${OAUTH_REDIRECT_PATH}`,
          openAuthorizationPage: async (page, name) => {
            const open = 'Open browser';
            const pick = await vscode.window.showInformationMessage(
              `Sextant: the MCP server "${name}" asks you to sign in at ${page.origin}.`,
              open,
            );
            if (pick === open) await vscode.env.openExternal(vscode.Uri.parse(page.href, true));
          },
          log: (name, line) => o.channel.info(`[${name}] ${line}`),
        });
        this.signIns.set(server, provider);
        return provider;
      },
    });
    this.subscriptions.push(
      { dispose: () => void this.manager.dispose() },
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('sextant.mcp.servers')) this.apply();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.apply()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.reload()),
    );
    this.manager.onDidChange(() => this.schedulePost());
    this.watch();
    this.apply();
    void this.reload();
  }

  /** Reads `.mcp.json` now (the first time, and whenever it changes). */
  async reload(): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) {
      this.workspaceSource = { servers: {}, problems: [] };
      this.vscodeSource = { servers: {}, problems: [] };
      this.apply();
      return;
    }
    // Through the safe reader: a `.mcp.json` that links out of the workspace is named, not read.
    const local = folder.uri.scheme === 'file';
    this.workspaceSource = local ? await readMcpJson(localFiles, folder.uri.fsPath, homedir()) : parseMcpJson('');
    this.vscodeSource = local
      ? await readVscodeMcpJson(localFiles, folder.uri.fsPath, homedir())
      : { servers: {}, problems: [] };
    this.apply();
  }

  private watch(): void {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) return;
    const on = () => void this.reload();
    for (const file of [MCP_JSON_PATH, VSCODE_MCP_JSON_PATH.replace(/\\/g, '/')]) {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, file));
      this.subscriptions.push(w, w.onDidCreate(on), w.onDidChange(on), w.onDidDelete(on));
    }
  }

  /** The enabled plugins' servers (plugins-host.ts), approved as the workspace's are. */
  setPluginServers(source: NonNullable<ServerSources['plugins']>): void {
    this.pluginSource = source;
    this.apply();
  }

  private apply(): void {
    const user = parseUserServers(readMcpServersSetting());
    this.manager.setSources({
      workspace: this.workspaceSource,
      vscode: this.vscodeSource,
      user,
      plugins: this.pluginSource,
    });
    const problems = this.manager.problems().join('\n');
    if (problems && problems !== this.reported) {
      for (const p of this.manager.problems()) this.o.log.warn(`mcp: ${p}`);
      void vscode.window.showWarningMessage(`Sextant: ${this.manager.problems()[0]}`);
    }
    this.reported = problems;
  }

  private schedulePost(): void {
    if (this.postScheduled) return;
    this.postScheduled = true;
    queueMicrotask(() => {
      this.postScheduled = false;
      this.post();
    });
  }

  /** Resolves MCP prompts and resources in a message; what fails is said and the text kept as typed. */
  async expandMessage(text: string): Promise<{ text: string; images: ChatImage[] }> {
    if (!text.includes('mcp__') && !text.includes('@')) return { text, images: [] };
    const m = this.manager;
    // A server not started yet (first use) has listed no prompts or resources: start the allowed ones.
    if (m.names().some((n) => text.includes(`mcp__${n}__`) || text.includes(`@${n}:`))) await m.prepare();
    const r = await expandMcpReferences(text, {
      names: () => m.names(),
      promptArguments: (s, p) => m.promptArguments(s, p),
      getPrompt: (s, p, a) => m.getPrompt(s, p, a),
      readResource: (s, u) => m.readResource(s, u),
    });
    const images = promptChatImages(r.images);
    const problems = [...r.problems, ...images.problems];
    if (problems.length) void vscode.window.showWarningMessage(`Sextant: ${problems.join('; ')}`);
    return { text: r.text, images: images.images };
  }

  /** An MCP resource's text, for an `@server:uri` chip (the server started first if it may). */
  async readResourceText(server: string, uri: string): Promise<string> {
    const m = this.manager;
    if (!m.names().includes(server)) throw new Error(`there is no MCP server "${server}"`);
    await m.prepare();
    return (await m.readResource(server, uri)).map(contentText).join('\n');
  }

  /** The browser's redirect back from a sign-in: given to the provider whose state it carries. */
  oauthRedirect(params: URLSearchParams): void {
    for (const p of this.signIns.values()) if (p.receiveRedirect(params)) return;
    this.o.log.warn('mcp: a sign-in redirect arrived that no server was waiting for; ignored');
  }

  /** Asks for a remote server's bearer token, keeps it in SecretStorage (empty: removes it), restarts it. */
  async setBearerToken(server: string): Promise<void> {
    const provider = this.signIns.get(server);
    if (!provider) return;
    const token = await vscode.window.showInputBox({
      title: `Sextant: bearer token for the MCP server "${server}"`,
      prompt: "Kept in VS Code's SecretStorage and sent as Authorization: Bearer …; leave empty to remove it",
      password: true,
      ignoreFocusOut: true,
    });
    if (token === undefined) return;
    await provider.setBearerToken(token.trim());
    this.o.channel.info(`[${server}] bearer token ${token.trim() ? 'stored' : 'removed'}`);
    await this.manager.restart(server);
  }

  /** Sends every server's state to the chat view (also on the view's `ready`). */
  post(): void {
    this.o.post({ type: 'mcpServers', servers: this.manager.views(), problems: [...this.manager.problems()] });
  }

  dispose(): void {
    for (const d of this.subscriptions.splice(0)) d.dispose();
  }
}
