// Research mode's host: the search client (failover across the user's providers) and the guarded page
// fetcher the engine already built for web_search / web_fetch, the loop's limits from settings, and
// the fast model (sextant.research.fastModel, else the chat's model) as the claim checker. Host-neutral:
// the host hands it the `sextant.research.*` settings and where the scope choice is kept.
import type { Logger } from '../core/ports';
import type { ReadApproval, ResearchHost } from '../core/research/host';
import type { PageBrowser } from '../core/research/browser-reader';
import { researchLimits } from '../core/research/limits';
import { collectText } from '../core/research/loop/llm-text';
import type { PageFetcher } from '../core/web/fetch/page-fetcher';
import type { SearchClient } from '../core/web/search/client';
import { claimJudgeFrom } from '../core/research/verify';
import type { Provider, ProviderConfig } from '../core/providers/types';
import { researchDefaults } from '../core/research/defaults';
import type { ResearchServices } from '../core/research/loop/research-run';
import { createWorkspaceSources, type WorkspaceSourceDeps } from '../core/research/workspace/workspace-sources';
import { ResearchScopeSchema, type ResearchScope } from '../protocol';
import type { KeyValueState } from './state';
import { createMcpSources, type McpSourcePort } from '../core/research/mcp/mcp-sources';

export interface ResearchHostDeps {
  searchClient: SearchClient;
  pageFetcher: PageFetcher;
  /** What workspace sources are read through: the tools' ports, ripgrep, and the permission policy. */
  workspace?: () => Omit<WorkspaceSourceDeps, 'approve'>;
  /** Where the "Research scope" picker's choice is kept (the workspace's state). */
  memento?: KeyValueState;
  log?: Pick<Logger, 'warn'>;
  /** `sextant.research.<key>` from the host's settings. */
  setting(key: string): unknown;
  resolveModel(ref: string): Promise<{ provider: Provider; model: string; config?: ProviderConfig }>;
  /** The fast model's reference now (the setting, else the chat's current model). */
  fastModelRef(): string;
  /** A run's own read-only browser (ToolsHost.researchBrowser); absent: no browser. */
  browser?(runId: string): PageBrowser | undefined;
  /** The MCP manager's research view (core/mcp/research-port.ts); absent: no MCP sources. */
  mcp?: McpSourcePort;
}

const SCOPE_KEY = 'sextant.researchScope';

export function createResearchHost(deps: ResearchHostDeps): ResearchHost {
  let scope: ResearchScope = ResearchScopeSchema.catch('web').parse(deps.memento?.get(SCOPE_KEY));
  const workspaceServices = deps.workspace
    ? async (approve?: ReadApproval): Promise<ResearchServices> => {
        const wsDeps = (deps.workspace as () => Omit<WorkspaceSourceDeps, 'approve'>)();
        const refuse = async (): Promise<never> => {
          throw new Error('A workspace-only research run reads no web page.');
        };
        return {
          search: refuse,
          fetchPage: refuse,
          // One per run: a run reads each file once.
          workspace: createWorkspaceSources({ ...wsDeps, ...(approve ? { approve } : {}) }),
        };
      }
    : undefined;
  return {
    ...(workspaceServices ? { workspaceServices } : {}),
    ...(deps.browser ? { browser: deps.browser } : {}),
    mcpSources(approveTools) {
      // One per run: each resource is read once and the tools are asked about once.
      if (!deps.mcp || deps.setting('mcpSources') === false) return undefined;
      return createMcpSources(deps.mcp, approveTools);
    },
    scope: () => scope,
    setScope(next) {
      scope = next;
      void deps.memento?.update(SCOPE_KEY, next);
    },
    defaults() {
      const c = deps.setting;
      const d = researchDefaults({
        clarify: c('clarify'),
        includeDomains: c('includeDomains'),
        excludeDomains: c('excludeDomains'),
        recencyDays: c('recencyDays'),
      });
      for (const p of d.problems) deps.log?.warn(p);
      return d;
    },
    async services() {
      const problem = await deps.searchClient.setupProblem();
      if (problem) throw Object.assign(new Error(problem), { code: 'no_key' });
      return {
        search: async (q, signal) => {
          try {
            return (await deps.searchClient.search(q, signal)).results;
          } catch (e) {
            // A plan may name a provider the user has since switched off: search with the others.
            if (q.provider && (e as { code?: unknown }).code === 'disabled')
              return (await deps.searchClient.search({ ...q, provider: undefined }, signal)).results;
            throw e;
          }
        },
        fetchPage: async (url, signal) => (await deps.pageFetcher.fetch(url, { signal })).page,
      };
    },
    limits() {
      const c = deps.setting;
      return researchLimits({
        minSearches: c('minSearches'),
        maxSearches: c('maxSearches'),
        timeBudgetSeconds: c('timeBudgetSeconds'),
        subResearchers: c('subResearchers'),
      });
    },
    async judge() {
      const target = await deps.resolveModel(deps.fastModelRef());
      // Its calls are costed at the fast model's own price and counted in the run's usage.
      return claimJudgeFrom(
        (req, signal) => collectText(target, { system: req.system, user: req.user }, signal),
        target.config?.price,
      );
    },
  };
}
