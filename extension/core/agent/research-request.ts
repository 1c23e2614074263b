// A request in Research mode, or a "Plan Research" request in Plan mode, as a stream of the same
// events a turn yields, so the controller journals and forwards them the same way. Research runs
// isolated from the chat: the question (or an approved research plan) is all it takes from it.
import { filterLines, researchPlanToMarkdown, type ResearchPlanInput, type ResearchScope } from '../../protocol';
import type { ClarifyPort, PriorResearch } from '../research/loop/research-run-types';
import { costOf } from '../usage/cost';
import type { RunBudget } from '../usage/budget';
import { ProviderError, type ProviderConfig } from '../providers/types';
import type { ReadApproval, ResearchHost } from '../research/host';
import type { BrowseApproval } from '../research/browser-reader';
import { runResearch, type ResearchEvent } from '../research/loop/research-run';
import { planResearch } from '../research/loop/research-planner';
import type { LlmTarget } from '../research/loop/llm-text';
import type { PlannerTarget } from '../research/loop/research-run';
import type { ResearchStop } from '../research/loop/research-stop';
import type { ToolPorts } from '../ports';
import type { McpToolApproval } from '../research/mcp/mcp-sources';

export interface ResearchRequestOptions {
  question: string;
  research: ResearchHost;
  llm: LlmTarget;
  price?: ProviderConfig['price'];
  /** sextant.plannerModel, when it differs from `llm`: the planning call and the gap checks run on it. */
  planner?: PlannerTarget;
  /** Spending caps of the run (sextant.budget.*). */
  budget?: RunBudget;
  /** An approved (possibly edited) research plan to carry out. */
  plan?: ResearchPlanInput;
  /** The user's first Stop: ends the gathering, the report is written from what was read (partial). */
  stop?: ResearchStop;
  /** The ask-user form, for clarifying questions (sextant.research.clarify `auto`). */
  clarify?: ClarifyPort;
  /** The earlier report this request follows up (its sources are reused). */
  prior?: PriorResearch;
  /** Keeps what a follow-up on this run's report would start from. */
  remember?(prior: PriorResearch): void;
  /** Asks the user about a workspace source the read rules ask for (a file outside the workspace). */
  approveRead?: ReadApproval;
  /** Asks before the run's browser opens an origin (a page that needs JavaScript); without it no browser. */
  approveBrowse?: BrowseApproval;
  /** Asks once per run before the approved MCP servers' read-only tools are called as sources. */
  approveMcpTools?: McpToolApproval;
  /** Messages the user steers the run with: each is added to the brief. */
  steers?: { take(): string[] };
  /** Where to look, over the composer's picker (the `researcher` sub-agent: the web). */
  scope?: ResearchScope;
  signal: AbortSignal;
  now(): number;
  newId(): string;
}

/** Runs the researcher and delivers a verified report. */
export async function* researchRequest(opts: ResearchRequestOptions): AsyncGenerator<ResearchEvent, void> {
  const host = opts.research;
  const scope = opts.plan?.scope ?? opts.scope ?? host.scope?.() ?? 'web';
  const defaults = host.defaults?.();
  let services: Awaited<ReturnType<ResearchHost['services']>>;
  try {
    // A workspace-only run searches nothing on the web: it needs no search key.
    services =
      scope === 'workspace' && host.workspaceServices
        ? await host.workspaceServices(opts.approveRead)
        : await host.services();
    if (scope === 'both' && host.workspaceServices && !services.workspace)
      services = { ...services, workspace: (await host.workspaceServices(opts.approveRead)).workspace };
  } catch (e) {
    // No search key: the chat shows what to configure, with the same Retry as a missing model key.
    const code = (e as { code?: unknown }).code;
    throw code === 'no_key' ? new ProviderError('no_key', (e as Error).message) : e;
  }
  const judge = await opts.research.judge?.().catch(() => undefined);
  // Read-only navigation for pages a fetch cannot read (a run's own browser, closed when it ends).
  const browser = scope !== 'workspace' && opts.approveBrowse ? host.browser?.(opts.newId()) : undefined;
  if (browser) services = { ...services, browser };
  const mcp = host.mcpSources?.(opts.approveMcpTools);
  if (mcp) services = { ...services, mcp };
  yield* runResearch({
    question: opts.question,
    plan: opts.plan,
    services,
    llm: opts.llm,
    price: opts.price,
    ...(opts.planner ? { planner: opts.planner } : {}),
    judge,
    limits: opts.research.limits(),
    ...(opts.budget ? { budget: opts.budget } : {}),
    ...(opts.stop ? { stop: opts.stop } : {}),
    scope,
    ...(defaults ? { filters: defaults.filters } : {}),
    ...(opts.clarify && defaults?.clarify !== 'never' ? { clarify: opts.clarify } : {}),
    ...(opts.prior ? { prior: opts.prior } : {}),
    ...(opts.remember ? { remember: opts.remember } : {}),
    ...(opts.steers ? { steers: opts.steers } : {}),
    ...(browser && opts.approveBrowse ? { approveBrowse: opts.approveBrowse } : {}),
    signal: opts.signal,
    now: opts.now,
    newId: opts.newId,
  });
}

/** Plan Research: the research planner's plan as a card to approve, edit or reject. Nothing is searched. */
export async function* researchPlanRequest(
  opts: Omit<ResearchRequestOptions, 'plan'>,
): AsyncGenerator<ResearchEvent, void> {
  const host = opts.research;
  const scope = host.scope?.() ?? 'web';
  const ws = scope === 'web' ? undefined : await host.workspaceServices?.().catch(() => undefined);
  const files = await ws?.workspace?.list(opts.signal).catch(() => undefined);
  const planned = await planResearch(opts.question, opts.llm, host.limits(), opts.signal, {
    scope,
    ...(files ? { files } : {}),
  });
  const { usage, note } = planned;
  // The defaults' filters go on the card, where Edit plan changes them for this run; the scope is the
  // card's picker (the host's), read when the plan is approved.
  const filters = host.defaults?.().filters;
  const plan = filterLines(filters).length ? { ...planned.plan, filters } : planned.plan;
  if (opts.signal.aborted) return;
  if (usage) {
    const costUsd = costOf(usage, opts.price);
    // All of it is the planning phase (the Usage view's research sources).
    const planning = {
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      cachedTokens: usage.cachedTokens,
    };
    yield { type: 'usage', usage: { ...usage, costUsd, phases: { planning: { ...planning, costUsd } } } };
  }
  if (note) yield { type: 'notice', text: note };
  yield { type: 'plan_proposed', plan: { ...plan, kind: 'research', id: `plan-${opts.newId()}`, status: 'proposed' } };
  yield {
    type: 'history',
    messages: [{ role: 'assistant', text: researchPlanToMarkdown(plan) }],
  };
}

/**
 * What a research run in the chat asks the user through: clarifying questions on the ask-user form, and
 * read_file's approval card for a source the read rules ask about (no "Always allow" from a research run).
 */
export function researchAsking(
  ports: Pick<ToolPorts, 'ask' | 'approval'>,
  requestId: string,
  sessionId: string,
): Required<Pick<ResearchRequestOptions, 'clarify' | 'approveRead' | 'approveBrowse' | 'approveMcpTools'>> {
  let asked = 0;
  return {
    clarify: {
      ask: (questions, signal) =>
        ports.ask.ask({ callId: `${requestId}-clarify-${++asked}`, sessionId, questions }, signal),
    },
    approveRead: async (abs, reason, signal) => {
      const callId = `${requestId}-read-${++asked}`;
      const detail = `Research wants to read ${abs} as a source for its report.`;
      const req = { callId, sessionId, tool: 'read_file', kind: 'read' as const, subject: abs, detail, reason };
      return (await ports.approval.request(req, signal)).decision !== 'deny';
    },
    // The browser_navigate card Agent mode shows, once per origin per run: the page is only read.
    approveBrowse: async (url, origin, signal) => {
      const callId = `${requestId}-browse-${++asked}`;
      const detail =
        `Research wants to open ${url} in a headless browser to read it (the page needs JavaScript). ` +
        `Approving lets this run read pages of ${origin}; it never clicks or types.`;
      const req = { callId, sessionId, tool: 'browser_navigate', kind: 'network' as const, subject: url, detail };
      return (await ports.approval.request(req, signal)).decision !== 'deny';
    },
    // One card per run for all the read-only tools research would put its queries to.
    approveMcpTools: async (tools, signal) => {
      const callId = `${requestId}-mcp-${++asked}`;
      const names = tools.map((t) => `${t.server}: ${t.name}`);
      const detail =
        `Research wants to put its queries to these read-only MCP tools and cite their answers: ${names.join(', ')}. ` +
        'Approving holds for this run only.';
      const subject = names.join(', ').slice(0, 200);
      const req = { callId, sessionId, tool: 'mcp_sources', kind: 'read' as const, subject, detail };
      return (await ports.approval.request(req, signal)).decision !== 'deny';
    },
  };
}
