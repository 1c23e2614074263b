// Both directions of the host ↔ webview channel as discriminated unions.
// A namespace import lets the webview bundle drop the parts of zod it never uses (e.g. locales).
import * as z from 'zod';
import { EnvelopeSchema } from './events';
import {
  ModeSchema,
  QueuedMessageSchema,
  PermissionModeSchema,
  ReasoningChoiceSchema,
  RunBudgetChoiceSchema,
  SessionSummarySchema,
  SnapshotSchema,
  ErrorInfoSchema,
} from './model';
import { ProjectContextInfoSchema, PromptHistorySchema } from './project-context';
import { RewindPreviewSchema, RewindScopeSchema } from './rewind';
import { McpServerViewSchema } from './mcp';
import { MAX_REFERENCES, ReferenceCandidateSchema, ReferenceSchema } from './references';
import { ContextBreakdownSchema } from './context-usage';
import { HooksViewSchema } from './hooks';
import { GoalViewSchema } from './goal';
import { MEMORY_MAX_CHARS, MemoryReplySchema } from './memory';
import { ChatImageMediaTypeSchema, ChatImagesSchema } from './images';

/** Webview → host. */
export const InboundSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({
    type: z.literal('send'),
    requestId: z.string().min(1),
    text: z.string().min(1).max(1_000_000),
    mode: ModeSchema,
    budget: RunBudgetChoiceSchema.optional(),
    /** The composer's `@` chips: the host reads each and attaches its content to the message. */
    references: z.array(ReferenceSchema).max(MAX_REFERENCES).optional(),
    /** Images pasted, dropped or attached in the composer (re-checked by the host). */
    images: ChatImagesSchema.optional(),
  }),
  /**
   * The user is typing a message (throttled by the view: at most one per COMPOSING_INTERVAL_MS, only with
   * text in the box and no request running). Carries nothing of the draft: the host only gets ready for
   * the Send that follows (its connection to the model's server, opened again if it went idle) and never
   * sends a model request for it.
   */
  z.object({ type: z.literal('composing') }),
  z.object({ type: z.literal('abort'), requestId: z.string().optional() }),
  /** The goal banner's Stop (or `/goal clear`): the goal ends, and its running turn stops. */
  z.object({ type: z.literal('stopGoal') }),
  /** Stop on a sub-agent's card: that sub-agent alone ends; the run goes on with what it returned. */
  z.object({ type: z.literal('stopSubagent'), callId: z.string().min(1) }),
  /** A `path:line` link in an answer (/review's findings): opens the workspace file at that line. */
  z.object({
    type: z.literal('openFile'),
    path: z.string().min(1).max(4_096),
    line: z.number().int().min(1).optional(),
  }),
  /** Re-run the last user message of the session (after an error or a stop). */
  z.object({ type: z.literal('retry'), requestId: z.string().min(1) }),
  z.object({ type: z.literal('setMode'), mode: ModeSchema }),
  /** The "Research scope" picker (composer, Plan Research's card): where research runs look. */
  z.object({ type: z.literal('setResearchScope'), scope: z.enum(['web', 'workspace', 'both']) }),
  /** A report's citation of a workspace file: open it at the cited lines (a path inside the workspace). */
  z.object({
    type: z.literal('openSource'),
    path: z.string().min(1).max(4096),
    start: z.number().int().positive().optional(),
    end: z.number().int().positive().optional(),
  }),
  /** A report's citation of a web page: open the page's stored text at the quote (characters start–end). */
  z.object({
    type: z.literal('openSourceQuote'),
    reportId: z.string().min(1).max(200),
    n: z.number().int().positive(),
    start: z.number().int().nonnegative(),
    end: z.number().int().nonnegative(),
  }),
  z.object({ type: z.literal('setModel'), model: z.string().min(1) }),
  /** The header's "Permission mode" picker: sextant.permissions.defaultMode in the user's settings. */
  z.object({ type: z.literal('setPermissionMode'), mode: PermissionModeSchema }),
  /** The model picker's reasoning option for one model (kept per model reference). */
  z.object({ type: z.literal('setReasoning'), model: z.string().min(1), reasoning: ReasoningChoiceSchema }),
  z.object({ type: z.literal('newChat') }),
  z.object({ type: z.literal('openLink'), url: z.string() }),
  z.object({
    type: z.literal('runCommand'),
    command: z.enum(['setApiKey', 'selectModel', 'exportSession', 'getStarted']),
  }),
  z.object({
    type: z.literal('approval'),
    callId: z.string(),
    decision: z.enum(['approve', 'deny', 'always']),
    reason: z.string().optional(),
    /** An edit's "Approve rest of turn for this file": later edits of the file in this run do not ask. */
    restOfTurn: z.boolean().optional(),
  }),
  /** Shows a pending change's diff in the editor again (the card's "Open diff"). */
  z.object({
    type: z.literal('openDiff'),
    callId: z.string(),
    /** Which file of a change of several (its path as the card shows it); absent: the first. */
    path: z.string().optional(),
  }),
  z.object({
    type: z.literal('answer'),
    callId: z.string(),
    /** One entry per question: the chosen labels, and free text when "Other" was picked. */
    answers: z.array(z.object({ selected: z.array(z.string()), other: z.string().optional() })),
  }),
  /** The user's Keep (with the text and file as left on the card) or Drop on a proposed memory. */
  z.object({ type: z.literal('memoryReply'), callId: z.string().min(1), reply: MemoryReplySchema }),
  /** `# text` typed in the composer: the host asks which memory file and appends it there. */
  z.object({ type: z.literal('addMemory'), text: z.string().min(1).max(MEMORY_MAX_CHARS) }),
  /** One page of the history list: from `offset` (default 0), `limit` rows (default: the host's page size). */
  z.object({
    type: z.literal('history'),
    query: z.string().optional(),
    offset: z.number().int().min(0).max(1_000_000).optional(),
    limit: z.number().int().min(1).max(500).optional(),
  }),
  z.object({ type: z.literal('resume'), sessionId: z.string() }),
  /** "Open in Editor" on a History entry: the session in an editor tab (its live chat, if one runs). */
  z.object({ type: z.literal('openInEditor'), sessionId: z.string().min(1) }),
  z.object({ type: z.literal('renameSession'), sessionId: z.string(), title: z.string().min(1).max(200) }),
  z.object({ type: z.literal('deleteSession'), sessionId: z.string() }),
  z.object({ type: z.literal('undoDelete'), sessionId: z.string() }),
  z.object({ type: z.literal('export'), format: z.enum(['markdown', 'html', 'json']) }),
  /** Plan cards: approve starts an Agent request (requestId) on the plan or its edited text. */
  z.object({
    type: z.literal('approvePlan'),
    planId: z.string(),
    requestId: z.string().min(1),
    /** Also grant, for that run only, the files and commands the plan names (plan-grant.ts); absent: no grant. */
    withGrant: z.boolean().optional(),
  }),
  z.object({ type: z.literal('editPlan'), planId: z.string() }),
  z.object({ type: z.literal('rejectPlan'), planId: z.string() }),
  /** A report card's Export button: the host asks for the format and where, and writes the file. */
  z.object({
    type: z.literal('exportReport'),
    reportId: z.string(),
    format: z.enum(['markdown', 'html', 'json']).optional(),
  }),
  /** "Rewind to here" on a user message: the host answers with `rewindPreview`. */
  z.object({ type: z.literal('rewindPreview'), messageId: z.string().min(1) }),
  /** Carries a previewed rewind out; `overwrite` names user-changed files to rewind anyway. */
  z.object({
    type: z.literal('rewind'),
    messageId: z.string().min(1),
    scope: RewindScopeSchema,
    overwrite: z.array(z.string()).max(10_000).default([]),
  }),
  /** The rules files, skills and slash commands now in effect (the view asks on `/` and for the popover). */
  z.object({ type: z.literal('projectContext') }),
  /** "Compact now": summarise the older turns into a brief at once, without waiting for the window to fill. */
  z.object({ type: z.literal('compactNow') }),
  /** Undoes the last rewind (files and conversation as they were just before it). */
  z.object({ type: z.literal('redoRewind') }),
  /** Edit and resend: the chat forks before `messageId` (the old branch stays in History) and `text` is sent. */
  z.object({
    type: z.literal('editResend'),
    messageId: z.string().min(1),
    requestId: z.string().min(1),
    text: z.string().min(1).max(1_000_000),
    mode: ModeSchema,
    rewindFiles: z.boolean(),
    overwrite: z.array(z.string()).max(10_000).default([]),
  }),
  /** The user's answer to an MCP server waiting for approval (new, changed config, changed tools). */
  z.object({
    type: z.literal('mcpDecision'),
    server: z.string().min(1),
    decision: z.enum(['approve', 'deny']),
    /** The hashes the card showed (McpApproval's): an approval counts only while they are current. */
    configHash: z.string().min(1),
    toolsHash: z.string().optional(),
  }),
  /** The `@` listbox asks for files and folders matching what follows the `@`. */
  z.object({ type: z.literal('referenceCandidates'), query: z.string().max(1_000) }),
  /** The context meter asks for the breakdown of the next request. */
  z.object({ type: z.literal('contextUsage') }),
  /** A sent message or a tool card shows a stored image: its bytes, answered by `imageData`. */
  z.object({ type: z.literal('imageRequest'), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  /** Typed while a turn runs: queued, sent when the turn completes (sent at once when nothing runs). */
  z.object({
    type: z.literal('queue'),
    text: z.string().min(1),
    mode: ModeSchema,
    references: z.array(ReferenceSchema).max(MAX_REFERENCES).optional(),
    /** Images pasted, dropped or attached in the composer (re-checked by the host). */
    images: ChatImagesSchema.optional(),
  }),
  z.object({ type: z.literal('queueEdit'), id: z.string().min(1), text: z.string() }),
  z.object({ type: z.literal('queueRemove'), id: z.string().min(1) }),
  /**
   * Steer the running turn: `text` (or the queued message `id`) is delivered at its next step boundary
   * as the user's message; sent as a new message when nothing runs.
   */
  z.object({
    type: z.literal('steer'),
    text: z.string().optional(),
    id: z.string().optional(),
    mode: ModeSchema,
    references: z.array(ReferenceSchema).max(MAX_REFERENCES).optional(),
    /** Images pasted, dropped or attached in the composer (re-checked by the host). */
    images: ChatImagesSchema.optional(),
  }),
  /** "Create branch and pull request" at the end of an Agent run that changed files: for this chat's session. */
  z.object({ type: z.literal('createPullRequest') }),
  /** The user's answer to the workspace hooks' approval card, bound to the hash it showed. */
  z.object({ type: z.literal('hookDecision'), hash: z.string().min(1), decision: z.enum(['approve', 'deny']) }),
]);
export type Inbound = z.infer<typeof InboundSchema>;
export type InboundType = Inbound['type'];

/** Host → webview. */
export const OutboundSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('snapshot'), snapshot: SnapshotSchema }),
  /** One or more request events, batched so streaming costs one post per frame. */
  z.object({ type: z.literal('events'), envelopes: z.array(EnvelopeSchema) }),
  /** A page of the history list: `offset` 0 (or absent) replaces the list, a later page extends it. */
  z.object({
    type: z.literal('history'),
    sessions: z.array(SessionSummarySchema),
    query: z.string().optional(),
    offset: z.number().int().min(0).optional(),
    /** More rows follow this page (the view asks for them as it scrolls near the end). */
    hasMore: z.boolean().optional(),
  }),
  z.object({ type: z.literal('mode'), mode: ModeSchema }),
  z.object({ type: z.literal('model'), model: z.string() }),
  z.object({ type: z.literal('showView'), view: z.enum(['chat', 'history']) }),
  /** A message the host could not accept (malformed, or refused), not tied to a request. */
  z.object({ type: z.literal('protocolError'), error: ErrorInfoSchema }),
  /** The preview of a rewind the user asked for. */
  z.object({ type: z.literal('rewindPreview'), preview: RewindPreviewSchema }),
  z.object({ type: z.literal('projectContext'), info: ProjectContextInfoSchema }),
  /** The user's earlier prompts in this workspace (on ready and after each send). */
  z.object({ type: z.literal('promptHistory'), prompts: PromptHistorySchema }),
  /** A rewind was done; `draft` (the rewound message's text) goes back into the composer. */
  z.object({ type: z.literal('rewound'), summary: z.string(), draft: z.string().optional() }),
  /** Every MCP server's state; those with `approval` wait for the user. `problems`: configuration errors. */
  z.object({ type: z.literal('mcpServers'), servers: z.array(McpServerViewSchema), problems: z.array(z.string()) }),
  /** Files and folders for the `@` listbox, for the query they answer. */
  z.object({
    type: z.literal('referenceCandidates'),
    query: z.string(),
    items: z.array(ReferenceCandidateSchema).max(200),
  }),
  /**
   * A message was not sent because a reference could not be attached (a missing file, a refused read):
   * `message` says why, and the text and chips go back into the composer.
   */
  z.object({
    type: z.literal('sendRefused'),
    message: z.string(),
    text: z.string(),
    references: z.array(ReferenceSchema),
    /** The composer's images, given back with the text (nothing the user attached is lost). */
    images: ChatImagesSchema.optional(),
  }),
  z.object({ type: z.literal('contextUsage'), breakdown: ContextBreakdownSchema }),
  /** A stored image's bytes (`imageRequest`); without `dataBase64` the file is missing or damaged. */
  z.object({
    type: z.literal('imageData'),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    mediaType: ChatImageMediaTypeSchema.optional(),
    dataBase64: z.string().optional(),
  }),
  z.object({ type: z.literal('hooks'), view: HooksViewSchema }),
  /** The messages queued while a turn runs, in the order they will be sent (kept by the host). */
  z.object({ type: z.literal('queued'), items: z.array(QueuedMessageSchema) }),
  /** The session's goal moved on (attempt, check, end); null: no goal. */
  z.object({ type: z.literal('goal'), goal: GoalViewSchema.nullable() }),
]);
export type Outbound = z.infer<typeof OutboundSchema>;
