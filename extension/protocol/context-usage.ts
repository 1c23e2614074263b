// The context meter: how full the model's context window is with the next request as it stands, and
// what fills it. Every figure is the compaction's own estimate (core/util/tokens.ts), so the parts add
// up to the total and the threshold marked is the one compaction acts at.
import * as z from 'zod';

export const ContextPartNameSchema = z.enum([
  'system',
  'rules',
  'skills',
  'tools',
  'mcpTools',
  'conversation',
  'attachments',
]);
export type ContextPartName = z.infer<typeof ContextPartNameSchema>;

export const CONTEXT_PART_LABELS: Record<ContextPartName, string> = {
  system: 'System prompt',
  rules: 'Rules files',
  skills: 'Skills list',
  tools: 'Tool definitions',
  mcpTools: 'MCP tools',
  conversation: 'Conversation',
  attachments: 'Attachments (@)',
};

export const ContextBreakdownSchema = z.object({
  /** The model the figures are for, and its context window in tokens. */
  model: z.string(),
  window: z.number().int().positive(),
  /** Compaction runs when the next prompt reaches this many tokens. */
  compactAt: z.number().int().positive(),
  /** Estimated tokens of the next request (system, tools, conversation), the sum of `parts`. */
  total: z.number().int().min(0),
  parts: z.array(z.object({ name: ContextPartNameSchema, tokens: z.number().int().min(0) })),
  /** The provider's own count for the last request's prompt, when it reported one. */
  lastReported: z.number().int().min(0).optional(),
});
export type ContextBreakdown = z.infer<typeof ContextBreakdownSchema>;

/** "34 % · 43.5k of 128k tokens". */
export function contextShare(b: Pick<ContextBreakdown, 'total' | 'window'>): number {
  return Math.min(100, Math.round((b.total / b.window) * 100));
}
