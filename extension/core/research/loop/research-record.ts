// One research run's record: the pages read, the searches run, what the calls spent and the notes for
// the report, together with the events that show them (progress, the search and fetch cards, usage).
// The gathering, the writer and the partial report all add to the same record, so it lives apart from
// each of them; the spending caps are checked against it too.
import type { ResearchPhase, ResearchProgress, SourceFilters, Usage } from '../../../protocol';
import type { AsyncQueue } from '../../util/async-queue';
import { costOf } from '../../usage/cost';
import { addUsage, budgetReached } from '../../usage/budget';
import type { ProviderConfig } from '../../providers/types';
import type { FetchedSource } from '../verify';
import type { ResearchEvent, ResearchRunOptions } from './research-run-types';

export class ResearchRecord {
  readonly sources: FetchedSource[] = [];
  /** URLs being read right now. */
  readonly fetchesStarted = new Set<string>();
  readonly seenUrls = new Set<string>();
  readonly searchesRun: string[] = [];
  private readonly usage: Usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
  private lastCall: Usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
  budgetNote: string | undefined;
  readonly notes: string[] = [];
  searchesPlanned = 0;
  /** Search results the source filters removed after the provider answered. */
  filteredOut = 0;
  /** The run's source filters (the approved plan's, else the request's). */
  filters: SourceFilters = {};
  phase: ResearchPhase = 'planning';
  /** One read per page (by normalised URL), shared by every sub-researcher: a page is fetched once. */
  readonly reads = new Map<string, Promise<FetchedSource | undefined>>();
  /** The parallel sub-researchers' states, shown in the progress view. */
  branches: NonNullable<ResearchProgress['branches']> | undefined;
  private cards = 0;

  constructor(
    readonly o: ResearchRunOptions,
    readonly out: AsyncQueue<ResearchEvent>,
  ) {
    this.usage.costUsd = costOf(this.usage, o.price);
  }

  // ---- events ---------------------------------------------------------------------------------

  progress(phase: ResearchPhase, detail?: string): void {
    this.phase = phase;
    this.out.push({
      type: 'research_progress',
      progress: {
        phase,
        searchesDone: this.searchesRun.length,
        searchesPlanned: Math.max(this.searchesPlanned, this.searchesRun.length),
        sourcesRead: this.sources.length,
        ...(detail ? { detail: detail.slice(0, 500) } : {}),
        ...(this.branches ? { branches: this.branches.map((b) => ({ ...b })) } : {}),
      },
    });
  }

  /** The number the next source gets: after every source so far (a follow-up's earlier ones included). */
  nextN(): number {
    return this.sources.reduce((m, s) => Math.max(m, s.n), 0) + 1;
  }

  card(name: CardName, subject: string): string {
    const callId = `research-${++this.cards}`;
    this.out.push({
      type: 'tool_started',
      call: { callId, name, kind: kindOf(name), subject, status: 'running', startedAt: this.o.now() },
    });
    return callId;
  }

  cardDone(
    callId: string,
    name: CardName,
    subject: string,
    startedAt: number,
    r: { status: 'ok' | 'error' | 'aborted'; preview?: string; detail?: string; summary?: string },
  ): void {
    this.out.push({
      type: 'tool_updated',
      call: {
        callId,
        name,
        kind: kindOf(name),
        subject,
        status: r.status,
        startedAt,
        durationMs: this.o.now() - startedAt,
        ...(r.preview ? { preview: r.preview.slice(0, 240) } : {}),
        ...(r.detail ? { detail: r.detail.slice(0, 20_000) } : {}),
        ...(r.summary ? { summary: r.summary.slice(0, 300) } : {}),
      },
    });
  }

  /** Adds one call's usage; its cost at the price of the model that made it (the planner's may differ). */
  addUsage(u: Usage, price: ProviderConfig['price'] | undefined): void {
    this.addSpent(u, costOf(u, price));
  }

  /** Adds one call's usage and what it cost (undefined: its price is unknown). */
  addSpent(u: Usage, cost: number | undefined): void {
    const before = this.usage.costUsd;
    addUsage(this.usage, u);
    // One call at an unknown price makes the run's cost unknown: a partial sum would be a made-up figure.
    this.usage.costUsd = before === undefined || cost === undefined ? undefined : before + cost;
    this.lastCall = { ...u, costUsd: cost };
    this.addToPhase(u, cost);
    const phases = Object.fromEntries(Object.entries(this.usage.phases ?? {}).map(([k, p]) => [k, { ...p }]));
    this.out.push({ type: 'usage', usage: { ...this.usage, phases } });
  }

  /** The same call counted in the phase the run is in (the Usage view's research sources). */
  private addToPhase(u: Usage, cost: number | undefined): void {
    this.usage.phases ??= {};
    const phases = this.usage.phases;
    phases[this.phase] ??= { inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 0 };
    const p = phases[this.phase];
    const before = p.costUsd;
    p.inputTokens += u.inputTokens;
    p.outputTokens += u.outputTokens;
    p.cachedTokens += u.cachedTokens;
    p.costUsd = before === undefined || cost === undefined ? undefined : before + cost;
  }

  /**
   * Whether a spending cap ends the gathering (checked before each search and gap check). The report
   * is then written from the pages read so far, and its notes name the cap with the searches and pages.
   */
  overBudget(): boolean {
    if (this.budgetNote) return true;
    const stop = budgetReached(this.o.budget, this.usage, this.lastCall);
    if (!stop) return false;
    const money = stop.cap.endsWith('cost');
    const fmt = (n: number) => (money ? `$${n.toFixed(4)}` : `${Math.round(n)} tokens`);
    this.budgetNote =
      `The budget (${stop.setting}: ${fmt(stop.limit)}, ${fmt(stop.spent)} spent) ended the search after ` +
      `${this.searchesRun.length} searches and ${this.sources.length + this.fetchesStarted.size} pages; the ` +
      'report uses what was read by then.';
    return true;
  }
}

/** `mcp_sources`: a search of the user's MCP servers' resources and read-only tools (a read). */
type CardName = 'web_search' | 'web_fetch' | 'read_file' | 'browser_navigate' | 'mcp_sources';

const kindOf = (name: CardName) =>
  name === 'read_file' || name === 'mcp_sources' ? ('read' as const) : ('network' as const);
