// What the chat needs from its host, grouped by concern: a few typed services instead of one bag of
// callbacks. The runtime (extension/vscode/runtime.ts) builds them; the unit tests build them in memory.
import type { SessionWrites } from '../sessions/session-writes';
import type { ModelChoice, Mode, Outbound, ReasoningChoice, SessionSummary } from '../../protocol';
import type { DiffReviewPort, Logger, SessionPersistence, ToolPorts } from '../ports';
import type { Provider, ProviderConfig } from '../providers/types';
import type { ResearchHost } from '../research/host';
import type { AuditEntry } from '../security/audit-log';
import type { ToolSessionState } from '../tools/types';
import type { BudgetLimits } from '../usage/budget';
import type { ProjectContext } from '../extensions/project-context';
import type { HookEngine } from '../extensions/hooks/hook-engine';
import type { ApprovalBroker } from './approval-broker';
import type { AutoModeSettings } from './auto-review/turn-reviewer';
import type { PermissionGate } from './permission-gate';
import type { CheckpointStorage } from './rewind-session';
import type { Scheduler } from './outbox';
import type { SubagentServices } from './task-tool';
import type { ToolRuntime } from './turn';
import type { Fleet } from './fleet-seat';
import type { TelemetrySink } from '../telemetry/telemetry-sink';

/** The editor around the chat: where messages go, the log, time, ids and the workspace's state. */
export interface ChatHost {
  post(message: Outbound): void;
  log: Logger;
  now(): number;
  newId(): string;
  scheduler?: Scheduler;
  trusted(): boolean;
  hasWorkspaceFolder(): boolean;
  /** Told which session is current (undefined: an empty new chat), so a reloaded window can reopen it. */
  onCurrentSessionChanged?(sessionId: string | undefined): void;
  /**
   * Calls `written` once the model call just dispatched is written to its connection (the host knows
   * its HTTP client), or soon after at most; a request's start is recorded then (request-start.ts).
   * Absent: in the next turn of the event loop.
   */
  afterModelCallSent?(written: () => void): void;
  /** A send was refused because another window runs the session now (running-elsewhere.ts): offer a way on. */
  onRunningElsewhere?(sessionId: string, message: string): void;
}

/** The reasoning option chosen per model reference (`off` or absent: nothing is sent). */
export interface ReasoningChoices {
  get(modelRef: string): ReasoningChoice | undefined;
  all(): Record<string, ReasoningChoice>;
  set(modelRef: string, choice: ReasoningChoice): void;
}

/** Which models exist and which one a request runs on. */
export interface ModelServices {
  resolveModel(ref: string): Promise<{ provider: Provider; model: string; config: ProviderConfig }>;
  /**
   * A model's provider settings without making a client: no key is looked up or bound, so nothing asks
   * the user (the context meter reads the window size from it). Absent: resolveModel's config is used.
   */
  modelConfig?(ref: string): ProviderConfig | undefined;
  modelChoices(): Promise<ModelChoice[]>;
  defaultModel(): string;
  /** sextant.fallbackModel (user settings): the model a chat or agent turn fails over to; none without it. */
  fallbackModel?(): string | undefined;
  /**
   * sextant.plannerModel: the model reference Plan mode (and the research planner and gap check) runs on,
   * while Agent mode and the research report use the chat's model. Undefined: the chat's model for all.
   */
  plannerModel?(): string | undefined;
  /** The model picker's reasoning choice per model reference, kept by the host; without it nothing is sent. */
  reasoning?: ReasoningChoices;
  /**
   * The mode's system prompt. `sessionStartedAt` dates it: the prompt is the head of every request, so
   * it must not change within a session (a new day would otherwise empty the provider's prompt cache).
   */
  systemPrompt(mode: Mode, sessionStartedAt: number): string;
}

/** How far one run may go: steps per batch (sextant.agent.maxSteps) and spending caps (sextant.budget.*). */
export interface RunLimits {
  maxSteps(): number;
  /** Without it runs are bounded by steps only. */
  budget?(): BudgetLimits;
  /** sextant.budget.maxCostUsdPerMinute: a run spending faster gets a warning notice (undefined: none). */
  maxCostUsdPerMinute?(): number | undefined;
  /** sextant.goal.maxAttempts: turns a `/goal` may take before it stops (default 10). */
  goalMaxAttempts?(): number | undefined;
}

/** The tools a turn is built with, what they reach, and what guards them. */
export interface ToolServices {
  /** The tools a mode is built with (undefined: none). */
  toolsFor(mode: Mode): ToolRuntime | undefined;
  /**
   * Called before a chat or agent turn takes its tools: starts what they come from on first use (MCP
   * servers) and settles when they are ready, failed, or `signal` aborts.
   */
  prepareTools?(mode: Mode, signal: AbortSignal): Promise<void>;
  ports: Omit<ToolPorts, 'approval' | 'ask'>;
  createSession(sessionId: string): ToolSessionState;
  disposeSession(state: ToolSessionState): void;
  /** The permission policy; without it reads run and writes and commands ask. */
  permissions?: PermissionGate;
  /** The audit log: one entry per decided tool call. */
  audit?(entry: AuditEntry): void;
  /** Shows file writers' proposals in the editor's diff view while they wait for approval. */
  diffReview?: DiffReviewPort;
  /** Where turn checkpoints keep file contents; without it no files are checkpointed (conversations still rewind). */
  checkpoints?: CheckpointStorage;
}

/** Where sessions are kept and searched. */
export interface HistoryServices {
  persistence: SessionPersistence;
  /** Ranked search over past sessions (memory search) for the history view; optional. */
  searchSessions?(query: string): Promise<SessionSummary[]>;
}

export interface ChatServices {
  host: ChatHost;
  models: ModelServices;
  limits: RunLimits;
  tools: ToolServices;
  history: HistoryServices;
  /** The one place approvals and questions are asked and answered; one is made when not given. */
  approvals?: ApprovalBroker;
  /** Rules files, skills and slash commands of the workspace and the user; without it none are read. */
  project?: ProjectContext;
  /** Sub-agents (the `task` tool): their caps and Stop; without it nothing is delegated. */
  subagents?: SubagentServices;
  /** Web search, fetching and limits for Research mode; without it Research mode is not offered. */
  research?: ResearchHost;
  /** The user's and the approved workspace hooks (Claude Code's format); without it none run. */
  hooks?: HookEngine;
  /**
   * The window's sessions together (core/usage/fleet-budget.ts): parallel slots, total caps, the spend-rate
   * warning. One FleetBudget shared by every session's services; without it a session runs alone.
   */
  fleet?: Fleet;
  /** sextant.autoMode.*: without it nothing is reviewed, and defaultMode auto asks like ask. */
  autoMode?: AutoModeSettings;
  /**
   * The files the window's running sessions changed (shared by every chat) and whether this chat works in a
   * worktree of its own: a write of another running session's file asks. Without it nothing is guarded.
   */
  writes?: { all: SessionWrites; ownWorktree(): boolean };
  /**
   * Where requests, model and tool calls are reported (core/telemetry): the user's OpenTelemetry export
   * when they turned it on. Without it, or while it is inactive, nothing is recorded.
   */
  telemetry?: TelemetrySink;
}
