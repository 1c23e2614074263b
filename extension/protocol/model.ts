// The view model shared by host and webview: what a chat looks like on screen.
// Both sides validate it with these schemas; the host is the only source of truth.
// A namespace import lets the webview bundle drop the parts of zod it never uses (e.g. locales).
import * as z from 'zod';
import { GoalViewSchema } from './goal';
import { AttachmentMetaSchema, MAX_REFERENCES, ReferenceSchema } from './references';
import { ChatImagesSchema, ImageRefSchema } from './images';
import { PlanArtifactSchema } from './plan';
import { ReportSchema, ResearchProgressSchema } from './research';
import { RedoOfferSchema } from './rewind';
import { PendingMemorySchema } from './memory';
import { BudgetStopSchema, UsageSchema } from './spend';

export const MODES = ['chat', 'plan', 'research', 'agent'] as const;
export const ModeSchema = z.enum(MODES);
export type Mode = z.infer<typeof ModeSchema>;

export const ToolKindSchema = z.enum(['read', 'write', 'execute', 'network']);
export type ToolKind = z.infer<typeof ToolKindSchema>;

export const ToolStatusSchema = z.enum(['pending', 'awaiting_approval', 'running', 'ok', 'error', 'denied', 'aborted']);
export type ToolStatus = z.infer<typeof ToolStatusSchema>;

/** One step of a sub-agent as its card lists it: a tool call, or the text it wrote. */
export const SubagentStepSchema = z.union([
  z.object({ kind: z.literal('tool'), callId: z.string(), name: z.string(), subject: z.string(), status: z.string() }),
  z.object({ kind: z.literal('text'), text: z.string() }),
]);
export type SubagentStep = z.infer<typeof SubagentStepSchema>;

/**
 * A sub-agent started by the `task` tool, shown inside that tool's card (a `group` "Sub-agent: <name>")
 * and stored with it: its task, live steps (its transcript, capped), tokens and cost, and how it ended.
 */
export const SubagentViewSchema = z.object({
  name: z.string(),
  description: z.string(),
  prompt: z.string(),
  status: z.enum(['waiting', 'running', 'done', 'error', 'stopped', 'budget', 'max_steps']),
  steps: z.array(SubagentStepSchema),
  usage: z.lazy(() => UsageSchema).optional(),
  /** Model calls made. */
  modelCalls: z.number().int().nonnegative(),
  filesRead: z.array(z.string()).optional(),
  filesChanged: z.array(z.string()).optional(),
  /** The model it ran on (`provider/model`). */
  model: z.string().optional(),
  /** Why that is not the model its definition names (a Claude Code alias with no such model configured). */
  modelNote: z.string().optional(),
});
export type SubagentView = z.infer<typeof SubagentViewSchema>;

/** Auto mode's reviewer on one call: its answer and one-line reason ("Reviewed: …" on the card). */
export const ReviewNoteSchema = z.object({
  decision: z.enum(['allow', 'ask']),
  reason: z.string(),
  /** The reviewer model (`provider/model`); absent when the reviewer could not answer. */
  model: z.string().optional(),
});
export type ReviewNote = z.infer<typeof ReviewNoteSchema>;

/** One tool call as the chat shows it: a compact card. */
export const ToolCallViewSchema = z.object({
  callId: z.string(),
  name: z.string(),
  kind: ToolKindSchema,
  /** The thing acted on: a path, a command, a pattern. */
  subject: z.string(),
  status: ToolStatusSchema,
  startedAt: z.number().optional(),
  durationMs: z.number().optional(),
  /** Live output of a running command (tail only; capped by the host). */
  liveOutput: z.string().optional(),
  /** A short preview of the result. */
  preview: z.string().optional(),
  /** The full result text as shown to the user (capped by the host). */
  detail: z.string().optional(),
  /** One plain line saying why a call failed, shown above the preview (a failed edit's closest match). */
  summary: z.string().optional(),
  /** The sub-agent a `task` call started. */
  subagent: SubagentViewSchema.optional(),
  /** What the hooks around this call said (PreToolUse / PostToolUse), one line each. */
  hooks: z.array(z.string()).optional(),
  /** Images the call returned (a browser screenshot), shown as thumbnails; the bytes are in the image store. */
  images: z.array(ImageRefSchema).max(8).optional(),
  /** Auto mode: what the reviewer said about this call. */
  review: ReviewNoteSchema.optional(),
  /** A `remember` call's memory, waiting for the user's Keep / Edit / Drop (shown inside this card). */
  memory: PendingMemorySchema.optional(),
});
export type ToolCallView = z.infer<typeof ToolCallViewSchema>;

/**
 * Older turns summarised so the conversation fits the model's context window. `brief` is exactly what
 * the model is sent in their place (the summary, the todos and approved plan verbatim, the user's own
 * words); the originals stay in the store, searchable with memory_search.
 */
export const CompactionSchema = z.object({
  id: z.string(),
  /** How many model-history messages (from the start) the brief replaces. */
  replaces: z.number().int().nonnegative(),
  brief: z.string(),
  trigger: z.enum(['auto', 'manual']),
  /** Estimated prompt tokens before and after, and the model's context window. */
  tokensBefore: z.number(),
  tokensAfter: z.number(),
  contextWindow: z.number().optional(),
  at: z.number(),
  /** What the summarising model call cost: counted in the session's usage and its caps like an answer. */
  usage: UsageSchema.optional(),
});
export type Compaction = z.infer<typeof CompactionSchema>;

/**
 * What a notice is about: a spending cap that ended the run, a failover to the fallback model, a
 * compaction that could not be made, the step limit reached (both of the last two ending kinds offer
 * Continue), or anything else worth a line in the answer.
 */
/** A message the user queued while a turn ran. */
export const QueuedMessageSchema = z.object({
  id: z.string(),
  text: z.string(),
  mode: ModeSchema,
  /** The `@` chips the message was written with: read when it is sent, not when it was queued. */
  references: z.array(ReferenceSchema).max(MAX_REFERENCES).optional(),
  /** Images pasted or dropped into the composer: they go with the message when it is sent. */
  images: ChatImagesSchema.optional(),
});
export type QueuedMessage = z.infer<typeof QueuedMessageSchema>;

export const NoticeKindSchema = z.enum(['info', 'budget', 'fallback', 'compaction', 'step_limit', 'steer', 'goal']);
export type NoticeKind = z.infer<typeof NoticeKindSchema>;

/** A notice in an answer: stored and replayed like any other part, so its Continue survives a reload. */
export const NoticeSchema = z.object({
  kind: NoticeKindSchema,
  text: z.string(),
  /** A spending cap ended the run: which one (Continue lifts the session caps for one run). */
  budgetStop: BudgetStopSchema.optional(),
});
export type Notice = z.infer<typeof NoticeSchema>;

export const MessagePartSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('thinking'), text: z.string() }),
  z.object({ type: z.literal('tool'), call: ToolCallViewSchema }),
  /** A plan submitted in Plan mode, shown as a card with Approve / Edit / Reject. */
  z.object({ type: z.literal('plan'), plan: PlanArtifactSchema }),
  /** A research run's verified report, shown as a card with its Sources list and notes. */
  z.object({ type: z.literal('report'), report: ReportSchema }),
  /** A compaction marker: the brief that replaced older turns, which the user can open and read. */
  z.object({ type: z.literal('compaction'), compaction: CompactionSchema }),
  /** A notice (budget stop, fallback, failed compaction, step limit, …) where it happened in the answer. */
  z.object({ type: z.literal('notice'), notice: NoticeSchema }),
  /** A user message's `@` references: what was attached (names and sizes; the content went to the model). */
  z.object({ type: z.literal('attachments'), attachments: z.array(AttachmentMetaSchema) }),
]);
export type MessagePart = z.infer<typeof MessagePartSchema>;

export const MessageStatusSchema = z.enum(['done', 'streaming', 'stopped', 'error']);
export type MessageStatus = z.infer<typeof MessageStatusSchema>;

export const ErrorInfoSchema = z.object({
  code: z.enum([
    'no_key',
    'auth',
    'rate_limit',
    'server',
    'unreachable',
    'bad_request',
    'max_steps',
    'internal',
    'protocol',
  ]),
  message: z.string(),
  recoverable: z.boolean(),
});
export type ErrorInfo = z.infer<typeof ErrorInfoSchema>;

/**
 * The composer's per-run choice: a dollar cap for this run (null: none) in place of
 * sextant.budget.maxCostUsd, and `continuing` (the Continue button after a budget stop), which lifts
 * the session caps for that one run.
 */
export const RunBudgetChoiceSchema = z.object({
  maxCostUsd: z.number().positive().finite().nullable().optional(),
  continuing: z.boolean().optional(),
});
export type RunBudgetChoice = z.infer<typeof RunBudgetChoiceSchema>;

export const ChatMessageSchema = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  mode: ModeSchema,
  /** Ordered parts: text, thinking and tool cards as they happened. */
  parts: z.array(MessagePartSchema),
  status: MessageStatusSchema,
  error: ErrorInfoSchema.optional(),
  usage: UsageSchema.optional(),
  model: z.string().optional(),
  createdAt: z.number(),
  /** A research run's latest progress (the "Research progress" bar while it streams). */
  research: ResearchProgressSchema.optional(),
  /** A user-side message the goal loop wrote (a failed check's output), not the user: labelled so. */
  origin: z.literal('goal').optional(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

export const TodoSchema = z.object({
  id: z.string(),
  content: z.string(),
  status: z.enum(['pending', 'in_progress', 'completed']),
});
export type Todo = z.infer<typeof TodoSchema>;

export const QuestionSchema = z.object({
  question: z.string(),
  header: z.string().optional(),
  options: z
    .array(z.object({ label: z.string(), description: z.string().optional() }))
    // One choice beside "Other" is a free-text question (research's clarifying questions: "Just go").
    .min(1)
    .max(4),
  multiSelect: z.boolean().default(false),
});
export type Question = z.infer<typeof QuestionSchema>;

/** One file's change as the approval card shows it: path, +/− counts and a compact diff. */
export const ChangeSummarySchema = z.object({
  path: z.string(),
  isNew: z.boolean(),
  added: z.number(),
  removed: z.number(),
  /** A compact unified diff (capped by the host). */
  diff: z.string(),
});

export const PendingApprovalSchema = z.object({
  callId: z.string(),
  tool: z.string(),
  kind: ToolKindSchema,
  subject: z.string(),
  /** Human-readable detail: a command and its cwd, a compact diff, … */
  detail: z.string(),
  /** Why it asks, in plain words: the rule, the default or the protected path that decided. */
  reason: z.string().optional(),
  /** The rule that made it ask, as written in settings, if one did. */
  rule: z.string().optional(),
  /** The sub-agent whose tool call asks (its name), when not the chat's own agent. */
  subagent: z.string().optional(),
  /** The narrow rule "Always allow" would add to the user's settings; absent when it may not be offered. */
  alwaysRule: z.string().optional(),
  /** A file writer's change, also shown in the editor's diff view: the card shows its path, counts and diff. */
  change: ChangeSummarySchema.optional(),
  /**
   * A change of several files approved as one (rename): each file as `change` shows one (a diff
   * past the host's cap is empty), and what the proposal left out. Absent for a one-file writer.
   */
  changeSet: z.object({ files: z.array(ChangeSummarySchema).max(200), note: z.string().optional() }).optional(),
  /**
   * Other words for the buttons (the sandbox's edge prompt: "Run once outside the box", "Allow this
   * host") and the setting "always" writes to (default sextant.permissions.allow).
   */
  labels: z
    .object({
      approve: z.string().optional(),
      deny: z.string().optional(),
      always: z.string().optional(),
      alwaysWhere: z.string().optional(),
    })
    .optional(),
  /** The user edited the proposal (a file of it) in the diff view; Approve writes their text. */
  edited: z.boolean().optional(),
  /** A one-file edit: the card offers "Approve rest of turn for this file" (core/permissions/run-grant.ts). */
  restOfTurn: z.boolean().optional(),
  /** Why the proposal is out of date (the file changed since it was made); Approve would be refused. */
  stale: z.string().optional(),
});
export type PendingApproval = z.infer<typeof PendingApprovalSchema>;

export const PendingQuestionSchema = z.object({
  callId: z.string(),
  questions: z.array(QuestionSchema).min(1).max(4),
});
export type PendingQuestion = z.infer<typeof PendingQuestionSchema>;

export const ModeAvailabilitySchema = z.object({
  mode: ModeSchema,
  enabled: z.boolean(),
  /** Why a disabled mode is disabled (shown as a tooltip). */
  reason: z.string().optional(),
});
/** Whether a mode is offered here, and why not (the header's segmented control, Shift+Tab, the palette). */
export type ModeAvailability = z.infer<typeof ModeAvailabilitySchema>;

/** The model picker's per-model reasoning option; `off` sends nothing (Anthropic: no extended thinking). */
export const ReasoningChoiceSchema = z.enum(['off', 'low', 'medium', 'high']);
export type ReasoningChoice = z.infer<typeof ReasoningChoiceSchema>;
export type ReasoningEffort = Exclude<ReasoningChoice, 'off'>;

export const ModelChoiceSchema = z.object({
  ref: z.string(),
  label: z.string(),
  hasKey: z.boolean(),
  /** Offers the reasoning option: `thinking` (Anthropic extended thinking) or `effort` (reasoning_effort). */
  reasoning: z.enum(['thinking', 'effort']).optional(),
  /** Shown but not selectable, with this text (e.g. no VS Code language model installed). */
  unavailable: z.string().optional(),
});
export type ModelChoice = z.infer<typeof ModelChoiceSchema>;

export const SessionSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  updatedAt: z.number(),
  messageCount: z.number(),
  mode: ModeSchema,
  /** A matching excerpt when the list answers a search. */
  excerpt: z.string().optional(),
  /** Its request was running in a window that closed or crashed: partial work kept, Continue offered. */
  interrupted: z.literal(true).optional(),
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

/** Everything the webview needs to draw itself from nothing. */
/**
 * The sandbox commands run in, for the header: `boxed` (sextant.sandbox.mode box), `auto` (boxed,
 * without asking), `off` (the user turned it off), `unavailable` (no backend works here: `detail`
 * says why and how to fix it).
 */
export const SandboxViewSchema = z.object({
  state: z.enum(['boxed', 'auto', 'off', 'unavailable']),
  /** A few words for the header ("Sandbox: bubblewrap"). */
  summary: z.string(),
  /** What it allows, or why there is none and the fix. */
  detail: z.string(),
});
export type SandboxView = z.infer<typeof SandboxViewSchema>;

/** sextant.permissions.defaultMode, as the header's "Permission mode" picker shows and sets it. */
export const PermissionModeSchema = z.enum(['ask', 'auto', 'acceptEdits', 'allow']);
export type PermissionMode = z.infer<typeof PermissionModeSchema>;

export const SnapshotSchema = z.object({
  sessionId: z.string(),
  title: z.string(),
  mode: ModeSchema,
  model: z.string(),
  models: z.array(ModelChoiceSchema),
  modes: z.array(ModeAvailabilitySchema),
  messages: z.array(ChatMessageSchema),
  todos: z.array(TodoSchema),
  /** The request in flight, if any, so a re-created view shows Stop and keeps streaming. */
  inFlightRequestId: z.string().optional(),
  /** With inFlightRequestId: where its events go and the last seq already folded into `messages`. */
  inFlightAssistantMessageId: z.string().optional(),
  inFlightLastSeq: z.number().optional(),
  approvals: z.array(PendingApprovalSchema),
  questions: z.array(PendingQuestionSchema),
  workspaceTrusted: z.boolean(),
  /** The last rewind, while it can be undone (Redo). */
  redo: RedoOfferSchema.optional(),
  /** The reasoning option chosen per model reference (absent: off). */
  reasoning: z.record(z.string(), ReasoningChoiceSchema).optional(),
  /** The sandbox's state, where the host has one. */
  sandbox: SandboxViewSchema.optional(),
  /** Research mode's "Research scope" picker: where the next run looks. */
  researchScope: z.enum(['web', 'workspace', 'both']).optional(),
  /** The session's goal (`/goal`), running or as it ended, for the goal banner. */
  goal: GoalViewSchema.optional(),
  /** The permission mode in force (absent: the host has no policy). */
  permissionMode: PermissionModeSchema.optional(),
});
export type Snapshot = z.infer<typeof SnapshotSchema>;
