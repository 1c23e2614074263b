// What a research question asked after a report continues from: per session, the last report's question and
// sources — kept in memory as runs finish, and read back from the store (StoredResearch) after a restart, so a
// follow-up fetches nothing already read. The report's sources go to the journal with the report itself.
import type { SessionPersistence, StoredResearch } from '../ports';
import type { PriorResearch } from '../research/loop/research-run-types';

export class ResearchFollowUps {
  private readonly remembered = new Map<string, PriorResearch>();

  /** The store's reader of a session's last report (absent in stores without one). */
  constructor(private readonly store: () => Pick<SessionPersistence, 'research'>) {}

  /** The session's last report to continue from: this window's, else the store's. */
  prior(sessionId: string): PriorResearch | undefined {
    return this.remembered.get(sessionId) ?? this.store().research?.({ sessionId });
  }

  remember(sessionId: string, prior: PriorResearch): void {
    this.remembered.set(sessionId, prior);
  }

  /** A finished report's question and sources, as the store keeps them. */
  sourcesOf(reportId: string): StoredResearch | undefined {
    const p = [...this.remembered.values()].find((x) => x.reportId === reportId);
    return p && { question: p.question, sources: p.sources };
  }
}
