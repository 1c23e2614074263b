// memory_search: lets the agent look up what was said in earlier sessions (BM25 over FTS4, fused
// with embeddings when configured — see extension/core/store/memory-query.ts). Built by a
// factory because it needs the store; the runtime adds it to the registry when the store exists.
import * as z from 'zod';
import { defineTool, type ToolDefinition } from './types';
import { plural } from './util/cap';
import type { MemoryHit, MemorySearchOptions } from '../store/memory-query';

/** The part of the session store this tool uses. */
export interface MemorySearcher {
  searchMemory(query: string, opts?: MemorySearchOptions): Promise<MemoryHit[]>;
}

const input = z.object({
  query: z
    .string()
    .min(2)
    .max(500)
    .describe('What to look for: keywords or a short description of the earlier discussion.'),
  limit: z.number().int().min(1).max(20).optional().describe('How many sessions to return (default 5).'),
});
type Input = z.infer<typeof input>;

export function formatHits(query: string, hits: MemoryHit[]): string {
  if (hits.length === 0) return `No earlier session matches "${query}".`;
  return hits
    .map(
      (h, i) =>
        `${i + 1}. ${h.title || 'Untitled session'} (session ${h.sessionId}, score ${h.score.toFixed(3)})\n` +
        `   ${h.excerpt.replace(/\s+/g, ' ')}`,
    )
    .join('\n');
}

/** Everything about memory_search but the store: what the modes and the permission policy read. */
export const memorySearchDeclaration = {
  name: 'memory_search',
  kind: 'read',
  permission: { subject: 'text', text: (i: Input) => i.query },
  modes: ['agent'],
  description: [
    "Searches the user's earlier Sextant sessions for past discussions, decisions and answers (this session",
    'too once its older turns were compacted into a summary: the original messages are found here).',
    'Returns the best-matching sessions with an excerpt each. Use it when the user refers to earlier work',
    '("like we did last week", "the deploy script from before") or when past context would help.',
  ].join(' '),
  input,
  subject: (i: Input) => i.query,
} satisfies Omit<ToolDefinition<typeof input>, 'execute'>;

export function createMemorySearchTool(store: MemorySearcher) {
  return defineTool({
    ...memorySearchDeclaration,
    async execute(i, ctx) {
      const hits = await store.searchMemory(i.query, {
        limit: i.limit ?? 5,
        // After a compaction the originals of this session are only a search away, so it is not left out.
        excludeSessionId: ctx.session.compacted ? undefined : ctx.session.sessionId,
        signal: ctx.signal,
      });
      const text = formatHits(i.query, hits);
      return {
        forModel: text,
        forUi: hits.length ? `${plural(hits.length, 'earlier session')}\n${text}` : text,
        isError: false,
      };
    },
  });
}
