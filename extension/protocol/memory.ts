// Memory you review on the wire: a fact the agent proposes to keep ("this repo uses pnpm"), shown as a
// card inside its `remember` tool card (a `group` named "Memory" with Keep / Edit / Drop), and the
// user's answer. Accepted memories are appended to a Markdown file whose path the host fixes, never the model.
import * as z from 'zod';

/** Where a memory is kept: the workspace's `.sextant/memory.md`, or the user's `~/.sextant/memory.md`. */
export const MemoryScopeSchema = z.enum(['workspace', 'user']);
export type MemoryScope = z.infer<typeof MemoryScopeSchema>;

/** The longest memory kept (a fact, not a document); the card and the host both hold to it. */
export const MEMORY_MAX_CHARS = 1_000;

export const PendingMemorySchema = z.object({
  /** The memory as proposed (the card lets the user edit it before keeping it). */
  text: z.string().max(MEMORY_MAX_CHARS),
  /** The file the model suggests; the user may pick the other. */
  scope: MemoryScopeSchema,
  /** How the card names each file it could go to (`.sextant/memory.md`, `~/.sextant/memory.md`); absent: none. */
  files: z.object({ workspace: z.string().optional(), user: z.string().optional() }),
  /** Why the model wants it kept, in its words (one line). */
  reason: z.string().max(500).optional(),
});
export type PendingMemory = z.infer<typeof PendingMemorySchema>;

/** The user's answer to a memory card. */
export const MemoryReplySchema = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('keep'), text: z.string().min(1).max(MEMORY_MAX_CHARS), scope: MemoryScopeSchema }),
  z.object({ decision: z.literal('drop') }),
]);
export type MemoryReply = z.infer<typeof MemoryReplySchema>;

/** `# text` at the start of a message adds a memory directly (as in Claude Code); `##` is a heading. */
export function memoryFromMessage(text: string): string | undefined {
  const m = /^#(?!#)[ \t]*([\s\S]*\S)\s*$/.exec(text);
  return m?.[1]?.trim() || undefined;
}
