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
import type { AnyTool } from '../core/tools/types';
import { createToolRegistry } from '../core/tools/registry';
import { createWebFetchTool } from '../core/tools/web-fetch';
import type { HtmlConverter } from '../core/web/fetch/html-converter';
import { createPageFetcher, type PageFetcher } from '../core/web/fetch/page-fetcher';
import { createPageAnswerer, type PageAnswerDeps } from '../core/web/page-answer';
import { SEARCH_KEY_ENV_NAMES } from '../core/web/search/catalog';
import { SearchClient } from '../core/web/search/client';
import { createSearchPort } from './adapters/search';
import { createTerminalPort } from './adapters/terminal';
import { toolSecurityPorts } from './adapters/tool-security';
import { createWorkspacePort } from './adapters/workspace';
import { confirmKeyDestination } from './key-commands';
import { readSearchSettings, readSettings } from './settings';

/** linkedom, Readability and turndown are their own bundle, loaded on the first HTML page fetched. */
function loadHtmlConverter(): Promise<HtmlConverter> {
  return Promise.resolve(require(path.join(__dirname, 'research-html.js')) as HtmlConverter);
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

export class ToolsHost {
  readonly pageFetcher: PageFetcher;
  readonly searchClient: SearchClient;
  readonly ports: ToolServices['ports'];
  private readonly registries = new Map<Mode, ReturnType<typeof createToolRegistry> | undefined>();
  private readonly webTools: ReturnType<typeof createWebFetchTool>[];
  private searchProblems = '';

  constructor(private readonly deps: ToolsHostDeps) {
    this.pageFetcher = createPageFetcher({
      allowPrivateHosts: () => readSettings().allowPrivateHosts,
      loadHtmlConverter,
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
      // Commands get no keys; every tool result is redacted (key shapes and these exact values).
      ...toolSecurityPorts({
        configs: deps.configs,
        extraKeyEnvNames: () => [readSettings().embeddings?.apiKeyEnv, ...SEARCH_KEY_ENV_NAMES],
        secrets: deps.knownSecrets,
      }),
    };
    if (readSettings().allowPrivateHosts.length) this.logPrivateHosts();
  }

  /** The tools a mode is built with (undefined: none). Memory search reads only Sextant's own history. */
  readonly toolsFor = (mode: Mode): ToolRuntime | undefined => {
    if (!this.registries.has(mode)) {
      const tools = toolsWithWeb(mode, { trusted: this.deps.trusted() }, this.webTools);
      if (tools.length) tools.push(createMemorySearchTool(this.deps.store), ...(this.deps.moreTools?.() ?? []));
      this.registries.set(mode, tools.length ? createToolRegistry(tools) : undefined);
    }
    return this.registries.get(mode);
  };

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
}

export function onTrustGranted(tools: ToolsHost): vscode.Disposable {
  return vscode.workspace.onDidGrantWorkspaceTrust(() => tools.rebuild());
}
