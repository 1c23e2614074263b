// What a research run is given and what it gives back: the services it reaches the web through, its
// limits (with the defaults), the optional planner model, the run's options, the events it emits and
// how it ends. Kept apart from the loop so the host, the limits reader and the agent's research
// request can name these without reading the loop itself; research-run.ts re-exports them all.
import type { Question, RequestEvent, ResearchPlanInput, ResearchScope, SourceFilters } from '../../../protocol';
import type { WorkspaceSources } from '../workspace/workspace-sources';
import type { McpSources } from '../mcp/mcp-sources';
import type { FetchedSource } from '../verify';
import type { RunBudget } from '../../usage/budget';
import type { ModelMessage, ProviderConfig } from '../../providers/types';
import type { FetchedPage, SearchProviderId, SearchQuery, SearchResult } from '../../web/types';
import type { ClaimJudge } from '../verify';
import type { LlmTarget } from './llm-text';
import type { ResearchStop } from './research-stop';
import type { BrowseApproval, PageBrowser } from '../browser-reader';

/** What the loop reaches the web through (the search client with failover, the guarded fetcher). */
export interface ResearchServices {
  search(query: SearchQuery & { provider?: SearchProviderId }, signal: AbortSignal): Promise<SearchResult[]>;
  fetchPage(url: string, signal: AbortSignal): Promise<FetchedPage>;
  /** The workspace's files as sources (scope "workspace" or "both"); absent: web only. */
  workspace?: WorkspaceSources;
  /** The resources and read-only tools of the user's approved MCP servers; absent: none are read. */
  mcp?: McpSources;
  /**
   * Read-only navigation (browser-reader.ts): a page whose fetch yields almost no text (drawn by
   * JavaScript) is read again in the browser. Absent: no browser (the static text is used).
   */
  browser?: PageBrowser;
}

export interface ResearchLimits {
  minSearches: number;
  maxSearches: number;
  /** Time for gathering (planning, searching, reading); writing and verifying come after it. */
  timeBudgetMs: number;
  /** Pages fetched at once. */
  fetchConcurrency: number;
  /** New pages read per search (its top results not read yet). */
  pagesPerSearch: number;
  /** Sub-questions researched at once by parallel sub-researchers; 1: one search after another. */
  subResearchers: number;
}

export const DEFAULT_LIMITS: ResearchLimits = {
  minSearches: 2,
  maxSearches: 7,
  timeBudgetMs: 180_000,
  fetchConcurrency: 4,
  pagesPerSearch: 3,
  // The loop on its own searches one query after another; the setting (default 3) turns branches on.
  subResearchers: 1,
};

/** What a follow-up continues from: the earlier report's sources, with their texts and report numbers. */
export interface PriorResearch {
  reportId: string;
  question: string;
  sources: FetchedSource[];
}

/** Asking the user before searching: the ask-user form's questions and their answers. */
export interface ClarifyPort {
  ask(questions: Question[], signal: AbortSignal): Promise<Array<{ selected: string[]; other?: string }>>;
}

/** A second model for the planning call and the gap checks (sextant.plannerModel), with its own price. */
export interface PlannerTarget {
  llm: LlmTarget;
  price?: ProviderConfig['price'];
  /** Its model reference, named in the report's notes. */
  ref: string;
}

export interface ResearchRunOptions {
  question: string;
  /** Messages the user steers the run with while it gathers: each is added to the brief. */
  steers?: { take(): string[] };
  /** An approved research plan: its queries run first and the planning call is skipped. */
  plan?: ResearchPlanInput;
  services: ResearchServices;
  llm: LlmTarget;
  price?: ProviderConfig['price'];
  /** Plans and checks for gaps on this model instead of `llm` (which still writes the report). */
  planner?: PlannerTarget;
  /** The fast-model claim check; without it claims are checked lexically only. */
  judge?: ClaimJudge;
  limits: ResearchLimits;
  /** Spending caps (sextant.budget.*): reaching one ends the gathering, like the time budget. */
  budget?: RunBudget;
  /** The user's first Stop, which ends the gathering and keeps what was found (a partial report). */
  stop?: ResearchStop;
  /** Where the run looks (default: the web); an approved plan's own scope wins. */
  scope?: ResearchScope;
  /** Source filters for every search (an approved plan's own filters win). */
  filters?: SourceFilters;
  /** Asks before the browser opens an origin (once per origin per run); without it the browser is not used. */
  approveBrowse?: BrowseApproval;
  /** sextant.research.clarify `auto`: an ambiguous question is first clarified through this form. */
  clarify?: ClarifyPort;
  /** A follow-up on this report: its sources are reused (not fetched again unless stale) and keep their numbers. */
  prior?: PriorResearch;
  /** A source read longer ago than this is fetched again in a follow-up (default 15 minutes). */
  staleAfterMs?: number;
  /** Called with what a follow-up on this run's report would continue from. */
  remember?(prior: PriorResearch): void;
  /** Aborts the run outright (a second Stop, a new request). */
  signal: AbortSignal;
  now(): number;
  newId(): string;
}

export type ResearchEvent =
  | Exclude<RequestEvent, { type: 'started' | 'complete' | 'aborted' | 'error' }>
  | { type: 'history'; messages: ModelMessage[] };

export type ResearchOutcome = { kind: 'reported'; reportId: string } | { kind: 'nothing_found' } | { kind: 'aborted' };
