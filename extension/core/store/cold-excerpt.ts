// The excerpt for a memory-search hit on a cold session: the index keeps only a cold session's word
// list, so the message and its excerpt come from the session read back from its file. Kept apart from
// store.ts, which only reads the session.
import type { StoredSession } from '../ports';
import { excerptOf, type MemoryHit, queryTerms } from './memory-query';
import { messageText } from './message-rows';

/** Points `hit` at the session's message that matches most of the query's words, with its excerpt. */
export function fillColdExcerpt(hit: MemoryHit, session: StoredSession, query: string): void {
  const terms = queryTerms(query);
  let best: { id: string; text: string; score: number } | undefined;
  for (const m of session.messages) {
    const text = messageText(m);
    const lower = text.toLowerCase();
    const score = terms.reduce((n, t) => n + (lower.includes(t.length > 5 ? t.slice(0, t.length - 3) : t) ? 1 : 0), 0);
    if (text && (!best || score > best.score)) best = { id: m.id, text, score };
  }
  if (!best) return;
  hit.messageId = best.id;
  hit.excerpt = excerptOf(best.text.replace(/\s+/g, ' '), terms);
}
