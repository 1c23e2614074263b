// The history view's search box: sessions ranked by memory search (BM25, fused with vectors when
// configured), one row per session with its best excerpt, described by the session list.
import type { SessionSummary } from '../../protocol';
import type { SessionStore } from './store';

export async function searchSessions(
  store: Pick<SessionStore, 'searchMemory' | 'listSessions'>,
  query: string,
  limit = 30,
): Promise<SessionSummary[]> {
  // The user's own History search spans every workspace (History lists them all).
  const hits = await store.searchMemory(query, { limit, scope: 'all' });
  // Summaries of just the hits, from one query (not the whole list, nor every matching session whole).
  const ids = [...new Set(hits.map((h) => h.sessionId))];
  if (ids.length === 0) return [];
  const summaries = new Map(store.listSessions({ ids, limit: ids.length }).map((s) => [s.id, s]));
  const seen = new Set<string>();
  return hits.flatMap((h) => {
    const summary = summaries.get(h.sessionId);
    if (!summary || seen.has(h.sessionId)) return [];
    seen.add(h.sessionId);
    return [{ ...summary, excerpt: h.excerpt }];
  });
}
