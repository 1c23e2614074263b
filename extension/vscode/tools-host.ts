// The tool side of the runtime: the tools each mode is built with (cached per mode, rebuilt when the
// workspace is trusted), the ports they reach the editor through, and the web part they share with
// Research mode — one fetch pipeline (guard, caps, one 15-minute cache) and one search client.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Mode } from '../protocol';
import type { ToolServices } from '../core/agent/chat-services';
import type { ToolRuntime } from '../core/agent/turn';
import type { Logger, SecretsPort } from '../core/ports';
import type { ProviderConfig } from '../core/providers/types';
import { toolsWithWeb } from '../core/research/tool-set';
import type { LazySessionStore } from '../core/store';
import { createMemorySearchTool } from '../core/tools/memory-search';
import { createToolRegistry } from '../core/tools/registry';
import type { AnyTool } from '../core/tools/types';
import { createWebFetchTool } from '../core/tools/web-fetch';
import { createBrowserTools } from '../core/tools/browser/tools';
import { type PageBrowser, toolPageBrowser } from '../core/research/browser-reader';
import { BrowserSessions } from '../core/tools/browser/session';
import type { BrowserBackend } from '../core/tools/browser/port';
import { HtmlWorkerConverter } from '../core/web/fetch/html-worker-client';
import { createPageFetcher, type PageFetcher } from '../core/web/fetch/page-fetcher';
import { createPageAnswerer, type PageAnswerDeps } from '../core/web/page-answer';
import { SEARCH_KEY_ENV_NAMES } from '../core/web/search/catalog';
import { SearchClient } from '../core/web/search/client';
import { createLanguagePort } from './adapters/language';
import { createSearchPort } from './adapters/search';
import { createTerminalPort } from './adapters/terminal';
import { toolSecurityPorts } from './adapters/tool-security';
import { createWorkspacePort } from './adapters/workspace';
import { confirmKeyDestination } from './key-commands';
import { readBrowserSettings, readSearchSettings, readSettings } from './settings';

/** A source of tools beside the built-ins (the MCP manager): its tools per mode, and a key that changes with them. */
export interface ExternalTools {
  tools(mode: Mode): AnyTool[];
  toolsKey(): string;
}

export interface ToolsHostDeps {
  store: LazySessionStore;
  secrets: SecretsPort;
  log: Logger;
  configs(): ProviderConfig[];
  /** The key values Sextant holds: every tool result is redacted of them. */
  knownSecrets(): Iterable<string>;
  resolveModel: PageAnswerDeps['resolveModel'];
  /** The chat's current model (web_fetch answers with it when sextant.research.fastModel is unset). */
  currentModel(): string;
  trusted(): boolean;
  /** Read-only tools every mode with tools gets too (the `skill` tool). */
  moreTools?(): AnyTool[];
}

export class ToolsHost implements vscode.Disposable {
  readonly pageFetcher: PageFetcher;
  /**
   * linkedom, Readability and turndown are their own bundle, run in a worker thread started on the
   * first HTML page fetched, so a large page never stalls the extension host.
   */
  private readonly htmlConverter = new HtmlWorkerConverter({ file: path.join(__dirname, 'research-html.js') });
  readonly searchClient: SearchClient;
  readonly ports: ToolServices['ports'];
  /** Per mode and version of the external tools (`mode|toolsKey`). */
  private readonly registries = new Map<string, ReturnType<typeof createToolRegistry> | undefined>();
  private external: ExternalTools | undefined;
  private readonly webTools: AnyTool[];
  /** One browser per chat session, launched on its first browser call (dist/browser-driver, playwright-core). */
  readonly browsers = new BrowserSessions({
    allowPrivateHosts: () => readSettings().allowPrivateHosts,
    settings: readBrowserSettings,
    // A computed path the bundler cannot follow: playwright-core stays out of runtime.js.
    loadBackend: async () => {
      const file = path.join(__dirname, 'browser-driver', 'lib', 'browser.js');
      return (require(file) as { createBrowserBackend(): BrowserBackend }).createBrowserBackend();
    },
  });
  private searchProblems = '';
  /** Diagnostics and the language providers (definition, references, …) for the tools. */
  private readonly language = createLanguagePort();

  constructor(private readonly deps: ToolsHostDeps) {
    this.pageFetcher = createPageFetcher({
      allowPrivateHosts: () => readSettings().allowPrivateHosts,
      loadHtmlConverter: async () => this.htmlConverter,
    });
    // web_fetch's answer comes from sextant.research.fastModel, else the chat's current model.
    this.webTools = [
      createWebFetchTool({
        fetcher: this.pageFetcher,
        answerer: createPageAnswerer({
          resolveModel: deps.resolveModel,
          modelRef: () => readSettings().fastModel ?? deps.currentModel(),
        }),
      }),
      ...createBrowserTools({ sessions: this.browsers }),
    ];
    this.searchClient = new SearchClient({
      settings: () => this.searchSettings(),
      secrets: deps.secrets,
      env: process.env,
      confirmKeyDestination,
      log: deps.log,
    });
    this.ports = {
      workspace: createWorkspacePort(),
      search: createSearchPort(),
      terminal: createTerminalPort(),
      log: deps.log,
      webSearch: this.searchClient,
      language: this.language,
      // Commands get no keys; every tool result is redacted (key shapes and these exact values).
      ...toolSecurityPorts({
        configs: deps.configs,
        extraKeyEnvNames: () => [readSettings().embeddings?.apiKeyEnv, ...SEARCH_KEY_ENV_NAMES],
        secrets: deps.knownSecrets,
      }),
    };
    if (readSettings().allowPrivateHosts.length) this.logPrivateHosts();
  }

  /** A research run's own read-only browser (navigate, snapshot, close); none in Restricted Mode. */
  readonly researchBrowser = (runId: string): PageBrowser | undefined =>
    this.deps.trusted() ? toolPageBrowser(this.webTools, this.ports, runId) : undefined;

  /**
   * The tools a mode is built with (undefined: none). Memory search reads only Sextant's own history.
   * Rebuilt when the external tools change (an MCP server connects, its approved list changes).
   */
  readonly toolsFor = (mode: Mode): ToolRuntime | undefined => {
    const key = `${mode}|${this.external?.toolsKey() ?? ''}`;
    if (!this.registries.has(key)) {
      const tools = toolsWithWeb(mode, { trusted: this.deps.trusted() }, this.webTools);
      if (tools.length) {
        tools.push(createMemorySearchTool(this.deps.store, () => readSettings().memoryScope));
        tools.push(...(this.deps.moreTools?.() ?? []));
      }
      tools.push(...(this.external?.tools(mode) ?? []));
      for (const k of [...this.registries.keys()]) if (k.startsWith(`${mode}|`)) this.registries.delete(k);
      this.registries.set(key, tools.length ? createToolRegistry(tools) : undefined);
    }
    return this.registries.get(key);
  };

  /** Tools from outside Sextant (MCP servers), offered beside the built-ins through the same registry. */
  useExternalTools(source: ExternalTools): void {
    this.external = source;
    this.registries.clear();
  }

  /** The workspace was trusted: modes get their full tool sets from the next request on. */
  rebuild(): void {
    this.registries.clear();
  }

  /** Web search settings, read on every search; problems in them are logged once per change. */
  searchSettings() {
    const parsed = readSearchSettings();
    const problems = parsed.problems.join('\n');
    if (problems && problems !== this.searchProblems) for (const p of parsed.problems) this.deps.log.warn(p);
    this.searchProblems = problems;
    return parsed;
  }

  logPrivateHosts(): void {
    const hosts = readSettings().allowPrivateHosts;
    const what = hosts.length
      ? `web_fetch may reach ${hosts.join(', ')}`
      : 'none (web_fetch reaches public hosts only)';
    this.deps.log.info(`sextant.web.allowPrivateHosts: ${what}`);
  }

  /** Ends the page converter's worker thread (started on the first HTML page) and every chat's browser. */
  dispose(): void {
    void this.htmlConverter.dispose();
    this.language.dispose();
    void this.browsers.closeAll();
  }
}

export function onTrustGranted(tools: ToolsHost): vscode.Disposable {
  return vscode.workspace.onDidGrantWorkspaceTrust(() => tools.rebuild());
}
