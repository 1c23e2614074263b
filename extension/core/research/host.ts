// What Research mode needs from its host: the web (search with failover, the guarded fetcher), the
// limits from settings, and the fast model for claim checks. The VS Code runtime implements it; the
// controller offers Research mode only when one is given.
import type { ClaimJudge } from './verify';
import type { ResearchLimits, ResearchServices } from './loop/research-run';
import type { ResearchScope, SourceFilters } from '../../protocol';
import type { WorkspaceSourceDeps } from './workspace/workspace-sources';
import type { PageBrowser } from './browser-reader';
import type { McpSources, McpToolApproval } from './mcp/mcp-sources';

/** Asks the user about reading a file the read rules ask for (outside the workspace): read_file's card. */
export type ReadApproval = NonNullable<WorkspaceSourceDeps['approve']>;

export interface ResearchHost {
  /**
   * The search and fetch services. Rejects with an Error whose `code` is 'no_key' and whose message
   * says exactly what to configure when no search provider has a key.
   */
  services(): Promise<ResearchServices>;
  limits(): ResearchLimits;
  /** The fast-model claim check; undefined: claims are checked lexically only. */
  judge?(): Promise<ClaimJudge | undefined>;
  /**
   * The services for a run that reads only the workspace: no search key is needed. Absent: the
   * workspace cannot be read (then `services()` is used and the web searched). `approve` asks the user
   * about a file the read rules ask for; without it such a file is left out, and the report says so.
   */
  workspaceServices?(approve?: ReadApproval): Promise<ResearchServices>;
  /**
   * A browser of its own for one run, read-only (browser-reader.ts `toolPageBrowser`): thin pages are read
   * again in it. Absent: no browser tools (or Restricted Mode).
   */
  browser?(runId: string): PageBrowser | undefined;
  /**
   * The user's approved MCP servers as sources for one run (sextant.research.mcpSources); `approveTools`
   * asks once per run before their read-only tools are called. Absent or undefined: no MCP sources.
   */
  mcpSources?(approveTools?: McpToolApproval): McpSources | undefined;
  /** sextant.research.clarify, .includeDomains, .excludeDomains, .recencyDays. */
  defaults?(): { clarify: 'auto' | 'never'; filters: SourceFilters };
  /** The scope picked in the composer ("Research scope"), kept by the host; default the web. */
  scope?(): ResearchScope;
  setScope?(scope: ResearchScope): void;
}
