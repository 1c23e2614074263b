// The Tool contract: one file per tool, each built with defineTool, and the result helpers.
import type { z } from 'zod';
import type { ChangePlanInput, Mode, SubagentView, ToolKind, Todo } from '../../protocol';
import { factsProblem, type ToolPermission } from '../permissions/tool-facts';
import type { ContentBlock } from '../providers/types';
import type { ToolPorts } from '../ports';
import type { AuditDecidedBy } from '../security/audit-log';
import type { Usage } from '../../protocol';

/** State a tool may keep for the life of a chat session (files read, jobs, todos). */
export interface ToolSessionState {
  readonly sessionId: string;
  /**
   * Absolute path → mtimeMs and size at the time the model last read (or wrote) it; `sha256` of
   * the bytes then, so a touch that left the content unchanged is not taken as a change.
   */
  readonly readFiles: Map<string, { mtimeMs: number; size: number; sha256?: string }>;
  todos: Todo[];
  /** True once older turns of this session were compacted: memory_search then searches this session too. */
  compacted?: boolean;
  /** Free slots for tools that need their own state (background jobs, …), keyed by tool. */
  readonly extras: Map<string, unknown>;
}

export interface ToolContext {
  signal: AbortSignal;
  ports: ToolPorts;
  session: ToolSessionState;
  callId: string;
  /** Streams progress (e.g. live command output) to the tool card. */
  progress(output: string): void;
  /** Tells the UI the session's todos changed. */
  todosChanged?(todos: Todo[]): void;
  /** The `task` tool's sub-agent moved on: its card (steps, tokens, cost) is shown inside this call's card. */
  subagentUpdated?(view: SubagentView): void;
  /** Tells the loop a plan was submitted (Plan mode's submit_plan): it is shown and the turn ends. */
  planSubmitted?(plan: ChangePlanInput): void;
  /** Whether the model accepts images in tool results. */
  supportsImages: boolean;
  /**
   * Who let this call run, set once it was judged and approved: a rule, the user's click, the default …
   * (an install the user allowed keeps what it changes in package.json and node_modules/.bin).
   */
  decidedBy?: AuditDecidedBy;
  /**
   * Whether read_file could read this absolute path without asking (the permission policy's read
   * rules); tools that show other files' text (a definition's line) show only those. Absent: only
   * files inside the workspace folders are shown.
   */
  mayRead?(absPath: string): Promise<boolean>;
  /**
   * Why read_file would be refused this absolute path (a read deny rule, a secret location), or undefined
   * when it would not. Tools that show several files' contents (grep) leave such files out: a search must
   * not show what read_file refuses. Asks count as not refused (the user approved the search itself).
   */
  readDenied?(absPath: string): Promise<string | undefined>;
  /**
   * Every writer calls this with the absolute path before it creates, changes or deletes a file, so
   * the turn's checkpoint keeps what the file was (core/checkpoints). Never throws.
   */
  beforeWrite?(absPath: string): Promise<void>;
  /**
   * Every tool that runs a command calls this before it starts, and the function it returns once the
   * command has ended (a background job: when it exits), so the checkpoint records the files the command
   * created, changed or deleted (core/checkpoints/command-coverage.ts). Never throws.
   */
  beforeCommand?(): Promise<() => Promise<unknown>>;
}

export interface ToolResult {
  /** What goes back to the model. */
  forModel: string | ContentBlock[];
  /** What the card shows (may be shorter or richer than forModel). */
  forUi: string;
  isError: boolean;
  /** One plain line the card shows above the result, for failures whose text is long. */
  summary?: string;
  /**
   * Images the card shows (a browser screenshot), also when the model cannot see them; without it the
   * card shows the image parts of `forModel`. Stored in the image store; the card keeps references.
   */
  images?: Array<Extract<ContentBlock, { type: 'image' }>>;
  /** A model call the tool made (web_fetch's page answer) and its cost: counted in the turn's usage. */
  spent?: { usage: Usage; costUsd: number | undefined };
}

export interface ProposedChange {
  /** Absolute path of the file. */
  path: string;
  /** Workspace-relative path for display. */
  displayPath: string;
  isNew: boolean;
  before: string;
  after: string;
}

/**
 * A change of several files reviewed and approved as one (rename): each file's full texts. The
 * user approves or denies all of it; core applies it all or, on a failure, restores what it wrote.
 */
export interface ChangeSet {
  files: ProposedChange[];
  /** Said on the card and to the model: what the proposal left out or could not show. */
  note?: string;
  /**
   * The input the permission policy judges once the files are known: the tool's `permission.paths`
   * names every file in it, so path rules, protected paths and write roots apply to each.
   */
  judgedInput: unknown;
}

/** What a diff review shows: one file's change, or a change of several files. */
export type Proposal = ProposedChange | ChangeSet;

export function isChangeSet(p: Proposal): p is ChangeSet {
  return 'files' in p;
}

/** The files of a proposal, in order. */
export function proposalFiles(p: Proposal): ProposedChange[] {
  return isChangeSet(p) ? p.files : [p];
}

/**
 * Everything about a tool in one place: what the model is told (name, description, input schema),
 * what the permission policy judges (kind, permission), where it is offered (modes), what the card
 * shows (subject, describeForApproval, proposeChange), and what it does (execute). The registry,
 * the policy, the gate and the card read these declarations and nothing else.
 */
export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  /** Written for the model: what the tool does and how to use it well. */
  description: string;
  input: S;
  /**
   * The JSON Schema sent to the model when the tool brings its own (MCP tools): `input` then only
   * checks that the arguments are an object, and the server validates them.
   */
  jsonSchema?: Record<string, unknown>;
  kind: ToolKind;
  /** What the permission policy judges: the rule subject and the paths, command, URL or text of a call. */
  permission: ToolPermission<z.infer<S>>;
  /** The modes whose tool set includes it (Restricted Mode offers none). */
  modes: readonly Mode[];
  /** The subject shown on the card: a path, command, pattern. */
  subject(input: z.infer<S>): string;
  /**
   * Why this call needs no new approval although the policy would ask by default: the user already
   * approved what it touches in this session (the browser: an origin navigated to). Never consulted
   * when a rule asks or denies, so the user's own rules keep deciding.
   */
  approvedEarlier?(input: z.infer<S>, session: ToolSessionState): string | undefined;
  /** Optional detail for an approval card (a command and cwd, a diff). */
  describeForApproval?(input: z.infer<S>, ctx: ToolContext): Promise<string>;
  /**
   * For file writers: the change this call would make (original vs proposed text), so a diff
   * review can show it in the editor. Rejects with the reason when the call would fail.
   */
  proposeChange?(input: z.infer<S>, ctx: ToolContext): Promise<ProposedChange>;
  /**
   * For writers of several files that only the change itself names (rename: the language server says
   * which files change). Made before the policy judges the call — which then judges
   * `judgedInput`, every file named — and applied by core exactly as reviewed (tools/util/change-set.ts).
   * Rejects with the reason when the change cannot be made.
   */
  proposeChanges?(input: z.infer<S>, ctx: ToolContext): Promise<ChangeSet>;
  execute(input: z.infer<S>, ctx: ToolContext): Promise<ToolResult>;
}

/** Declares a tool. A declaration without complete permission facts is refused here, at load time. */
export function defineTool<S extends z.ZodType>(def: ToolDefinition<S>): ToolDefinition<S> {
  const problem = factsProblem(def);
  if (problem) throw new Error(`defineTool: ${problem}`);
  return def;
}

/**
 * A call resolved against the tool set, its arguments parsed and validated once: what the approval
 * step, the card and the execution all work from. When not `ok`, `error` is written for the model.
 */
export type PreparedCall =
  | { ok: true; tool: AnyTool; input: unknown }
  | { ok: false; tool: AnyTool | undefined; error: string };

/** A failed call: the same text for the model (which should act on it) and for the card. */
export function errorResult(message: string, summary?: string): ToolResult {
  return { forModel: message, forUi: message, isError: true, ...(summary ? { summary } : {}) };
}

/** Any tool, whatever its input schema (its methods then take the parsed input as `unknown`). */
export type AnyTool = ToolDefinition;
