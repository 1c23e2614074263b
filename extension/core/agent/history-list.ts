// The History list: pages of past sessions (newest first, or ranked by memory search for a query),
// and the renames, deletes and restores made from it.
import type { SessionSummary } from '../../protocol';
import { errorText } from '../util/error-text';
import type { ChatServices } from './chat-services';
import type { CurrentChat } from './current-chat';

/** Rows per page of the history list (the view asks for the next page as it scrolls near the end). */
export const HISTORY_PAGE = 100;

export class HistoryList {
  /** How many history rows the view has loaded (re-sent whole after a rename, delete or undo). */
  private loaded = 0;

  constructor(
    private readonly chat: CurrentChat,
    private readonly services: ChatServices,
  ) {}

  /**
   * One page of the history list: newest first, or for a query the memory-search ranking, then plain
   * title/content matches. With `reload` (after a rename, delete or undo) every row the view has
   * loaded is sent again, so its list keeps its length and scroll position.
   */
  async post(query?: string, page: { offset?: number; limit?: number; reload?: boolean } = {}): Promise<void> {
    const { persistence, searchSessions } = this.services.history;
    const q = query?.trim() || undefined;
    const offset = page.reload ? 0 : (page.offset ?? 0);
    const limit = page.reload ? Math.max(HISTORY_PAGE, this.loaded) : (page.limit ?? HISTORY_PAGE);
    let sessions: SessionSummary[];
    if (!q) sessions = persistence.listSessions({ limit: limit + 1, offset });
    else {
      sessions = persistence.listSessions({ query: q, limit: 200 });
      if (searchSessions) {
        const ranked = await searchSessions(q).catch((err: unknown) => {
          this.services.host.log.warn(`memory search failed: ${errorText(err)}`);
          return [];
        });
        const seen = new Set(ranked.map((r) => r.id));
        sessions = [...ranked, ...sessions.filter((r) => !seen.has(r.id))];
      }
      sessions = sessions.slice(offset, offset + limit + 1);
    }
    const hasMore = sessions.length > limit;
    if (hasMore) sessions = sessions.slice(0, limit);
    this.loaded = offset + sessions.length;
    this.chat.post({ type: 'history', sessions, query, offset, hasMore });
  }

  rename(sessionId: string, title: string): void {
    this.chat.journal({ kind: 'session_meta', sessionId, title, titleSource: 'user', at: this.services.host.now() });
    if (sessionId === this.chat.session.id) this.chat.session.title = title;
  }

  delete(sessionId: string): void {
    this.chat.journal({ kind: 'session_deleted', sessionId, at: this.services.host.now() });
  }

  restore(sessionId: string): void {
    this.chat.journal({ kind: 'session_restored', sessionId, at: this.services.host.now() });
  }
}
