// The port through which the agent reports what it did to an observability backend (OpenTelemetry when
// the user turns it on: otel/). The agent reports facts — a request started or ended, a model call, a tool
// call as the audit log records it, a sub-agent, a research phase — and knows nothing of spans or metrics.
// Off (the default), every call lands on NO_TELEMETRY: a shared object whose methods do nothing, so the
// agent pays one property read and a call per fact, and the OpenTelemetry modules are never loaded.
import type { Mode, ResearchPhase } from '../../protocol';
import type { ProviderKind } from '../providers/types';
import type { AuditEntry } from '../security/audit-log';

/** One model call as it ended (or failed): what the model was asked for, what it cost in tokens. */
export interface ModelCallFact {
  provider: { name: string; kind: ProviderKind };
  model: string;
  /** Epoch ms. */
  startedAt: number;
  endedAt: number;
  inputTokens: number;
  outputTokens: number;
  /** Prompt tokens read from the provider's cache (a part of inputTokens). */
  cachedTokens: number;
  finishReason?: string;
  /** The error's code or class name when the call failed (never its message: it may quote content). */
  errorType?: string;
}

/** How a request, a sub-agent or a phase ended. */
export interface ScopeEnd {
  outcome: 'complete' | 'aborted' | 'error' | 'budget' | 'max_steps';
  errorType?: string;
  /** What it spent in all (its model calls, its tools' and sub-agents'), when known. */
  usage?: { inputTokens: number; outputTokens: number; cachedTokens: number; costUsd?: number };
}

/** Where facts of one request (or a part of it) go: its own span, and its children under it. */
export interface TelemetryScope {
  /** False on the no-op scope: callers skip wrapping providers and building facts. */
  readonly active: boolean;
  modelCall(fact: ModelCallFact): void;
  /** A tool call as the audit log records it (its args are dropped unless content is included). */
  toolCall(entry: AuditEntry, endedAt: number): void;
  /** A sub-agent the request started (the `task` tool). */
  subagent(name: string, startedAt: number): TelemetrySpan;
  /** A research run moved to `phase` (the previous one ends). */
  researchPhase(phase: ResearchPhase, at: number): void;
}

export interface TelemetrySpan extends TelemetryScope {
  end(how: ScopeEnd, at: number): void;
}

export interface RequestFacts {
  sessionId: string;
  requestId: string;
  mode: Mode;
  /** The model reference the request runs on (`provider/model`). */
  model: string;
  /** The user's message: exported only when the user included content, and redacted even then. */
  text: string;
  startedAt: number;
}

export interface TelemetrySink {
  readonly active: boolean;
  request(facts: RequestFacts): TelemetrySpan;
}

const noop = (): void => undefined;

/** The scope that records nothing (telemetry off, or a part run outside a request). */
export const NO_TELEMETRY: TelemetrySpan = {
  active: false,
  modelCall: noop,
  toolCall: noop,
  subagent: () => NO_TELEMETRY,
  researchPhase: noop,
  end: noop,
};

export const NO_TELEMETRY_SINK: TelemetrySink = { active: false, request: () => NO_TELEMETRY };
