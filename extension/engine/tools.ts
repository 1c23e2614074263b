// The tool side of an engine: the tools each mode is built with (cached per mode, rebuilt when the
// workspace is trusted), the ports they reach the host through (handed in: VS Code's editor adapters, or
// the command line's node:fs and child_process ones), and the web part they share with Research mode —
// one fetch pipeline (guard, caps, one 15-minute cache) and one search client.
import * as path from 'node:path';
import type { Mode } from '../protocol';
import type { ToolServices } from '../core/agent/chat-services';
import type { ToolRuntime } from '../core/agent/turn';
import type { Logger, SecretsPort } from '../core/ports';
import type { ProviderConfig } from '../core/providers/types';
import { toolsWithWeb } from '../core/research/tool-set';
import type { LazySessionStore } from '../core/store';
import { createMemorySearchTool } from '../core/tools/memory-search';
import type { ToolRegistry } from '../core/tools/registry';
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
import type { LanguagePort } from '../core/language/types';
import type { SearchPort, TerminalPort, WorkspacePort } from '../core/ports';
import type { KeyDestinationAnswer, KeyDestinationQuestion } from '../core/providers/key-binding';
import { createToolSecurity } from '../core/security/tool-security';
import { readToolSearchSetting, registryWithToolSearch, shouldDefer } from '../core/mcp/tool-search';
import { DEFAULT_CONTEXT_WINDOW as COMPACTION_DEFAULT_WINDOW } from '../core/agent/compaction';
import { readBrowserSettings, readPassEnv, readSearchSettings, readSettings, type SettingsSource } from './settings';

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
  settings: SettingsSource;
  env: Record<string, string | undefined>;
  /** The host's own adapters: files, ripgrep, the terminal mirror, language services (absent: tools say so). */
  hostPorts: {
    workspace: WorkspacePort;
    search: SearchPort;
    terminal: TerminalPort;
    language?: LanguagePort & { dispose?(): void };
  };
  /** Asked before a search key goes to a host other than the one it was stored for. */
  confirmKeyDestination(q: KeyDestinationQuestion): Promise<KeyDestinationAnswer>;
  /** The folder the worker and driver bundles (research-html.js, browser-driver/) sit in. */
  bundleDir: string;
  /** The current model's context window in tokens, when known: "auto" tool search compares with it. */
  contextWindow?(): number | undefined;
}

/** The window "auto" tool search assumes when the model's is not known: compaction's default. */
const DEFAULT_CONTEXT_WINDOW = COMPACTION_DEFAULT_WINDOW;

export class ToolsHost {
  readonly pageFetcher: PageFetcher;
  /**
   * linkedom, Readability and turndown are their own bundle, run in a worker thread started on the
   * first HTML page fetched, so a large page never stalls the extension host.
   */
  private readonly htmlConverter: HtmlWorkerConverter;
  readonly searchClient: SearchClient;
  readonly ports: ToolServices['ports'];
  /** Per mode and version of the external tools (`mode|toolsKey`). */
  private readonly registries = new Map<string, ToolRegistry | undefined>();
  private external: ExternalTools | undefined;
  /** The editor's language-model tools of other extensions (core/lm-tools): always sent, never deferred. */
  private editorTools: ExternalTools | undefined;
  private readonly webTools: AnyTool[];
  /** One browser per chat session, launched on its first browser call (dist/browser-driver, playwright-core). */
  readonly browsers: BrowserSessions;
  private searchProblems = '';

  constructor(private readonly deps: ToolsHostDeps) {
    const settings = () => readSettings(deps.settings);
    this.htmlConverter = new HtmlWorkerConverter({ file: path.join(deps.bundleDir, 'research-html.js') });
    this.browsers = new BrowserSessions({
      allowPrivateHosts: () => settings().allowPrivateHosts,
      settings: () => readBrowserSettings(deps.settings),
      // A computed path the bundler cannot follow: playwright-core stays out of the host's bundle.
      loadBackend: async () => {
        const file = path.join(deps.bundleDir, 'browser-driver', 'lib', 'browser.js');
        return (require(file) as { createBrowserBackend(): BrowserBackend }).createBrowserBackend();
      },
    });
    this.pageFetcher = createPageFetcher({
      allowPrivateHosts: () => settings().allowPrivateHosts,
      loadHtmlConverter: async () => this.htmlConverter,
    });
    // web_fetch's answer comes from sextant.research.fastModel, else the chat's current model.
    this.webTools = [
      createWebFetchTool({
        fetcher: this.pageFetcher,
        answerer: createPageAnswerer({
          resolveModel: deps.resolveModel,
          modelRef: () => settings().fastModel ?? deps.currentModel(),
        }),
      }),
      ...createBrowserTools({ sessions: this.browsers }),
    ];
    this.searchClient = new SearchClient({
      settings: () => this.searchSettings(),
      secrets: deps.secrets,
      env: deps.env,
      confirmKeyDestination: deps.confirmKeyDestination,
      log: deps.log,
    });
    const { workspace, search, terminal, language } = deps.hostPorts;
    this.ports = {
      workspace,
      search,
      terminal,
      log: deps.log,
      webSearch: this.searchClient,
      ...(language ? { language } : {}),
      // Commands get no keys; every tool result is redacted (key shapes and these exact values).
      ...createToolSecurity({
        env: deps.env,
        apiKeyEnvNames: () => [
          ...deps.configs().map((c) => c.apiKeyEnv),
          settings().embeddings?.apiKeyEnv,
          ...SEARCH_KEY_ENV_NAMES,
        ],
        passThrough: () => readPassEnv(deps.settings),
        secrets: deps.knownSecrets,
      }),
    };
    if (settings().allowPrivateHosts.length) this.logPrivateHosts();
  }

  /** A research run's own read-only browser (navigate, snapshot, close); none in Restricted Mode. */
  readonly researchBrowser = (runId: string): PageBrowser | undefined =>
    this.deps.trusted() ? toolPageBrowser(this.webTools, this.ports, runId) : undefined;

  /**
   * The tools a mode is built with (undefined: none). Memory search reads only Sextant's own history.
   * Rebuilt when the external tools change (an MCP server connects, its approved list changes).
   */
  readonly toolsFor = (mode: Mode): ToolRuntime | undefined => {
    const setting = readToolSearchSetting(this.deps.settings.user('mcp.toolSearch'));
    const window = this.deps.contextWindow?.() ?? DEFAULT_CONTEXT_WINDOW;
    const key = `${mode}|${setting}|${window}|${this.external?.toolsKey() ?? ''}|${this.editorTools?.toolsKey() ?? ''}`;
    if (!this.registries.has(key)) {
      const tools = toolsWithWeb(mode, { trusted: this.deps.trusted() }, this.webTools);
      if (tools.length) {
        tools.push(createMemorySearchTool(this.deps.store, () => readSettings(this.deps.settings).memoryScope));
        tools.push(...(this.deps.moreTools?.() ?? []));
      }
      if (this.deps.trusted()) tools.push(...(this.editorTools?.tools(mode) ?? []));
      const external = this.external?.tools(mode) ?? [];
      // Many MCP tools: only their names go in the prompt, behind tool_search (core/mcp/tool-search.ts).
      const deferred = shouldDefer(setting, external, window);
      if (!deferred) tools.push(...external);
      for (const k of [...this.registries.keys()]) if (k.startsWith(`${mode}|`)) this.registries.delete(k);
      const any = tools.length + external.length > 0;
      this.registries.set(key, !any ? undefined : registryWithToolSearch(tools, deferred ? external : []));
    }
    return this.registries.get(key);
  };

  /** Tools from outside Sextant (MCP servers), offered beside the built-ins through the same registry. */
  useExternalTools(source: ExternalTools): void {
    this.external = source;
    this.registries.clear();
  }

  /** The language-model tools other extensions register (VS Code only), offered beside the built-ins. */
  useEditorTools(source: ExternalTools): void {
    this.editorTools = source;
    this.registries.clear();
  }

  /** The workspace was trusted: modes get their full tool sets from the next request on. */
  rebuild(): void {
    this.registries.clear();
  }

  /** Web search settings, read on every search; problems in them are logged once per change. */
  searchSettings() {
    const parsed = readSearchSettings(this.deps.settings);
    const problems = parsed.problems.join('\n');
    if (problems && problems !== this.searchProblems) for (const p of parsed.problems) this.deps.log.warn(p);
    this.searchProblems = problems;
    return parsed;
  }

  logPrivateHosts(): void {
    const hosts = readSettings(this.deps.settings).allowPrivateHosts;
    const what = hosts.length
      ? `web_fetch may reach ${hosts.join(', ')}`
      : 'none (web_fetch reaches public hosts only)';
    this.deps.log.info(`sextant.web.allowPrivateHosts: ${what}`);
  }

  /** Ends the page converter's worker thread (started on the first HTML page) and every chat's browser. */
  dispose(): void {
    void this.htmlConverter.dispose();
    this.deps.hostPorts.language?.dispose?.();
    void this.browsers.closeAll();
  }
}
