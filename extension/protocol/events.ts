// Events of one request, wrapped in an envelope {requestId, seq, ts, event}.
// Exactly one terminal event (complete | aborted | error) ends a request; nothing follows it.
// A namespace import lets the webview bundle drop the parts of zod it never uses (e.g. locales).
import * as z from 'zod';
import { AttachmentMetaSchema } from './references';
import {
  CompactionSchema,
  ErrorInfoSchema,
  PendingApprovalSchema,
  PendingQuestionSchema,
  TodoSchema,
  SubagentViewSchema,
  ToolCallViewSchema,
  ModeSchema,
  NoticeKindSchema,
} from './model';
import { PendingMemorySchema } from './memory';
import { BudgetStopSchema, UsageSchema } from './spend';
import { PlanArtifactSchema, PlanStatusSchema } from './plan';
import { ReportSchema, ResearchProgressSchema } from './research';

export const RequestEventSchema = z.discriminatedUnion('type', [
  /** The request was accepted: the user's message and the empty assistant message it answers into. */
  z.object({
    type: z.literal('started'),
    userMessageId: z.string(),
    assistantMessageId: z.string(),
    text: z.string(),
    mode: ModeSchema,
    model: z.string(),
    /** The message's `@` references, attached to what the model was sent (names and sizes only here). */
    attachments: z.array(AttachmentMetaSchema).optional(),
    /** The message is the goal loop's (a failed check's output sent on), not the user's. */
    origin: z.literal('goal').optional(),
  }),
  z.object({ type: z.literal('text_delta'), text: z.string() }),
  z.object({ type: z.literal('thinking_delta'), text: z.string() }),
  z.object({ type: z.literal('tool_started'), call: ToolCallViewSchema }),
  /** New output of a running tool, appended to what the card shows. */
  z.object({ type: z.literal('tool_progress'), callId: z.string(), output: z.string() }),
  z.object({ type: z.literal('tool_updated'), call: ToolCallViewSchema }),
  /** A `task` call's sub-agent moved on: its card (steps, tokens, cost, status) replaces the one shown. */
  z.object({ type: z.literal('subagent_updated'), callId: z.string(), subagent: SubagentViewSchema }),
  z.object({ type: z.literal('approval_needed'), approval: PendingApprovalSchema }),
  z.object({ type: z.literal('approval_resolved'), callId: z.string() }),
  z.object({ type: z.literal('question'), question: PendingQuestionSchema }),
  z.object({ type: z.literal('question_resolved'), callId: z.string() }),
  /** A `remember` call proposes a memory: its card (inside the tool's card) waits for Keep / Edit / Drop. */
  z.object({ type: z.literal('memory_proposed'), callId: z.string(), memory: PendingMemorySchema }),
  z.object({ type: z.literal('memory_resolved'), callId: z.string() }),
  z.object({ type: z.literal('todos'), todos: z.array(TodoSchema) }),
  z.object({ type: z.literal('usage'), usage: UsageSchema }),
  z.object({ type: z.literal('notice'), text: z.string(), kind: NoticeKindSchema.optional() }),
  /** The goal's check ran after this turn (`/goal`): passed or failed, with what it said. Shown as a notice. */
  z.object({
    type: z.literal('goal_check'),
    attempt: z.number().int().positive(),
    maxAttempts: z.number().int().positive(),
    passed: z.boolean(),
    text: z.string(),
  }),
  /** A spending cap ended the run: shown as a notice naming the cap; the request then completes. */
  z.object({ type: z.literal('budget_stop'), stop: BudgetStopSchema, text: z.string() }),
  /**
   * The model failed before answering and the fallback model (sextant.fallbackModel) answers the rest of
   * the turn: shown as a notice; the message's model becomes the fallback (its usage is the fallback's).
   */
  z.object({ type: z.literal('failover'), from: z.string(), to: z.string(), reason: z.string(), text: z.string() }),
  /** Plan mode's submit_plan: the plan becomes a card in the answer (and the turn ends). */
  z.object({ type: z.literal('plan_proposed'), plan: PlanArtifactSchema }),
  /**
   * The user approved or rejected a plan. It may arrive on a request of its own (a plan's request has
   * ended by then): the reducer applies it to the plan wherever it is, without a `started`.
   */
  z.object({ type: z.literal('plan_status'), planId: z.string(), status: PlanStatusSchema }),
  /** A research run moved on (phase, searches done of planned, sources read). */
  z.object({ type: z.literal('research_progress'), progress: ResearchProgressSchema }),
  /** The verified report: it replaces the draft streamed into the message as text. */
  z.object({ type: z.literal('report'), report: ReportSchema }),
  /**
   * Older turns were compacted into a brief. In a running request it marks the answer; on a request of
   * its own ("Compact now") it adds a message `messageId` holding only the marker, without a `started`.
   */
  z.object({ type: z.literal('compacted'), compaction: CompactionSchema, messageId: z.string() }),
  // Terminal events.
  z.object({ type: z.literal('complete') }),
  z.object({ type: z.literal('aborted'), partialSaved: z.boolean() }),
  z.object({ type: z.literal('error'), error: ErrorInfoSchema }),
]);
export type RequestEvent = z.infer<typeof RequestEventSchema>;
export type RequestEventType = RequestEvent['type'];

export const TERMINAL_EVENT_TYPES = ['complete', 'aborted', 'error'] as const satisfies readonly RequestEventType[];
export type TerminalEvent = Extract<RequestEvent, { type: (typeof TERMINAL_EVENT_TYPES)[number] }>;

export function isTerminal(event: RequestEvent): event is TerminalEvent {
  return (TERMINAL_EVENT_TYPES as readonly string[]).includes(event.type);
}

export const EnvelopeSchema = z.object({
  requestId: z.string(),
  /** Strictly increasing per request, starting at 1. */
  seq: z.number().int().positive(),
  ts: z.number(),
  event: RequestEventSchema,
});
export type Envelope = z.infer<typeof EnvelopeSchema>;
