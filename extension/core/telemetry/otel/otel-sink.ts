// The telemetry port (../telemetry-sink.ts) over OpenTelemetry: a request is an `invoke_agent sextant`
// span; below it each model call (`chat {model}`), tool call (`execute_tool {tool}`), sub-agent
// (`invoke_agent {name}`, its own calls below it) and research phase (`research {phase}`, the model calls
// made during it below it). Model and tool calls are reported when they end, with their start time, so
// the agent never holds a span open for them. Metrics follow the GenAI conventions where they exist
// (semconv.ts). No text of the user's, the model's or a tool's leaves unless `includeContent` is on, and
// then only through the redactor.
import {
  type Attributes,
  type Counter,
  type Histogram,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { ResearchPhase } from '../../../protocol';
import type { AuditEntry } from '../../security/audit-log';
import type { Redactor } from '../../security/redact';
import type { ModelCallFact, RequestFacts, ScopeEnd, TelemetrySink, TelemetrySpan } from '../telemetry-sink';
import type { OtelPipeline } from './otel-pipeline';
import { ERROR_TYPE, GEN_AI, METRIC, OPERATION, providerName, SEXTANT } from './semconv';

export interface OtelSinkOptions {
  /** The user's prompt and tools' arguments go on spans (redacted); off by default. */
  includeContent: boolean;
  redact: Redactor;
}

interface Instruments {
  tokenUsage: Histogram;
  duration: Histogram;
  cached: Counter;
  cost: Counter;
  toolCalls: Counter;
  approvals: Counter;
  errors: Counter;
}

export class OtelSink implements TelemetrySink {
  readonly active = true;
  readonly metrics: Instruments;

  constructor(
    readonly pipeline: OtelPipeline,
    readonly options: OtelSinkOptions,
  ) {
    const m = pipeline.meter;
    this.metrics = {
      tokenUsage: m.createHistogram(METRIC.tokenUsage, { unit: '{token}', description: 'Tokens per model call' }),
      duration: m.createHistogram(METRIC.operationDuration, { unit: 's', description: 'Model call duration' }),
      cached: m.createCounter(METRIC.cachedTokens, { unit: '{token}', description: 'Prompt tokens read from cache' }),
      cost: m.createCounter(METRIC.costUsd, { unit: 'USD', description: 'Spent by requests (priced models)' }),
      toolCalls: m.createCounter(METRIC.toolCalls, { unit: '{call}', description: 'Tool calls by outcome' }),
      approvals: m.createCounter(METRIC.approvals, { unit: '{approval}', description: 'Approvals asked/answered' }),
      errors: m.createCounter(METRIC.errors, { unit: '{error}', description: 'Failed requests and calls' }),
    };
  }

  request(f: RequestFacts): TelemetrySpan {
    const attributes: Attributes = {
      [GEN_AI.operationName]: OPERATION.invokeAgent,
      [GEN_AI.agentName]: 'sextant',
      [GEN_AI.conversationId]: f.sessionId,
      [GEN_AI.requestModel]: f.model,
      [SEXTANT.requestId]: f.requestId,
      [SEXTANT.mode]: f.mode,
    };
    if (this.options.includeContent)
      attributes[GEN_AI.inputMessages] = JSON.stringify([
        { role: 'user', parts: [{ type: 'text', content: this.options.redact(f.text) }] },
      ]);
    const span = this.pipeline.tracer.startSpan(
      `${OPERATION.invokeAgent} sextant`,
      { kind: SpanKind.INTERNAL, startTime: f.startedAt, attributes },
      ROOT_CONTEXT,
    );
    return new OtelScope(this, span, { model: f.model, mode: f.mode });
  }
}

/** A request's or a sub-agent's span, and what is reported under it. */
class OtelScope implements TelemetrySpan {
  readonly active = true;
  /** The research phase under way, whose span the model calls made during it go under. */
  private phase: { span: Span; name: ResearchPhase } | undefined;

  constructor(
    private readonly sink: OtelSink,
    private readonly span: Span,
    /** For the request's cost metric; a sub-agent's spending is in its request's. */
    private readonly request?: { model: string; mode: string },
    private readonly agent?: string,
  ) {}

  modelCall(f: ModelCallFact): void {
    const { tracer } = this.sink.pipeline;
    const m = this.sink.metrics;
    const base: Attributes = {
      [GEN_AI.operationName]: OPERATION.chat,
      [GEN_AI.providerName]: providerName(f.provider.kind, f.provider.name),
      [GEN_AI.requestModel]: f.model,
    };
    const span = tracer.startSpan(
      `${OPERATION.chat} ${f.model}`,
      {
        kind: SpanKind.CLIENT,
        startTime: f.startedAt,
        attributes: {
          ...base,
          [GEN_AI.inputTokens]: f.inputTokens,
          [GEN_AI.outputTokens]: f.outputTokens,
          [GEN_AI.cacheReadTokens]: f.cachedTokens,
          ...(f.finishReason ? { [GEN_AI.finishReasons]: [f.finishReason] } : {}),
          ...(this.agent ? { [GEN_AI.agentName]: this.agent } : {}),
        },
      },
      trace.setSpan(ROOT_CONTEXT, this.phase?.span ?? this.span),
    );
    const failed = f.errorType ? { [ERROR_TYPE]: f.errorType } : {};
    if (f.errorType) {
      span.setAttributes(failed);
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end(f.endedAt);
    m.duration.record(Math.max(0, f.endedAt - f.startedAt) / 1000, { ...base, ...failed });
    m.tokenUsage.record(f.inputTokens, { ...base, [GEN_AI.tokenType]: 'input' });
    m.tokenUsage.record(f.outputTokens, { ...base, [GEN_AI.tokenType]: 'output' });
    if (f.cachedTokens) m.cached.add(f.cachedTokens, base);
    if (f.errorType && f.errorType !== 'aborted')
      m.errors.add(1, { [SEXTANT.errorSource]: 'model', [ERROR_TYPE]: f.errorType });
  }

  toolCall(e: AuditEntry, endedAt: number): void {
    const m = this.sink.metrics;
    const tool = { [GEN_AI.toolName]: e.tool };
    const attributes: Attributes = {
      [GEN_AI.operationName]: OPERATION.executeTool,
      ...tool,
      [GEN_AI.toolCallId]: e.callId,
      [GEN_AI.toolType]: 'function',
      [SEXTANT.toolDecision]: e.decision,
      [SEXTANT.toolDecidedBy]: e.decidedBy,
      [SEXTANT.toolOutcome]: e.status,
      ...(e.subagent ? { [GEN_AI.agentName]: e.subagent } : {}),
    };
    if (this.sink.options.includeContent && e.args !== undefined)
      attributes[GEN_AI.toolArguments] = this.sink.options.redact(JSON.stringify(e.args) ?? '');
    const span = this.sink.pipeline.tracer.startSpan(
      `${OPERATION.executeTool} ${e.tool}`,
      { kind: SpanKind.INTERNAL, startTime: endedAt - e.durationMs, attributes },
      trace.setSpan(ROOT_CONTEXT, this.span),
    );
    if (e.status === 'error') {
      span.setAttribute(ERROR_TYPE, 'tool_error');
      span.setStatus({ code: SpanStatusCode.ERROR });
      m.errors.add(1, { [SEXTANT.errorSource]: 'tool', [ERROR_TYPE]: 'tool_error', ...tool });
    }
    span.end(endedAt);
    m.toolCalls.add(1, { ...tool, [SEXTANT.toolOutcome]: e.status });
    // The user was asked (an approval card): asked, then approved or denied (Stop while asked: neither).
    if (e.decision === 'ask' && e.decidedBy === 'user') {
      m.approvals.add(1, { ...tool, [SEXTANT.approvalOutcome]: 'asked' });
      const answer = e.status === 'denied' ? 'denied' : e.status === 'aborted' ? undefined : 'approved';
      if (answer) m.approvals.add(1, { ...tool, [SEXTANT.approvalOutcome]: answer });
    }
  }

  subagent(name: string, startedAt: number): TelemetrySpan {
    const span = this.sink.pipeline.tracer.startSpan(
      `${OPERATION.invokeAgent} ${name}`,
      {
        kind: SpanKind.INTERNAL,
        startTime: startedAt,
        attributes: { [GEN_AI.operationName]: OPERATION.invokeAgent, [GEN_AI.agentName]: name },
      },
      trace.setSpan(ROOT_CONTEXT, this.span),
    );
    return new OtelScope(this.sink, span, undefined, name);
  }

  researchPhase(phase: ResearchPhase, at: number): void {
    if (this.phase?.name === phase) return;
    this.phase?.span.end(at);
    this.phase = undefined;
    if (phase === 'done') return;
    const span = this.sink.pipeline.tracer.startSpan(
      `research ${phase}`,
      { kind: SpanKind.INTERNAL, startTime: at, attributes: { [SEXTANT.researchPhase]: phase } },
      trace.setSpan(ROOT_CONTEXT, this.span),
    );
    this.phase = { span, name: phase };
  }

  end(how: ScopeEnd, at: number): void {
    this.phase?.span.end(at);
    this.phase = undefined;
    const u = how.usage;
    this.span.setAttributes({
      [SEXTANT.outcome]: how.outcome,
      ...(u
        ? {
            [GEN_AI.inputTokens]: u.inputTokens,
            [GEN_AI.outputTokens]: u.outputTokens,
            [GEN_AI.cacheReadTokens]: u.cachedTokens,
            ...(u.costUsd !== undefined ? { [SEXTANT.costUsd]: u.costUsd } : {}),
          }
        : {}),
    });
    if (how.outcome === 'error') {
      const type = how.errorType ?? 'error';
      this.span.setAttribute(ERROR_TYPE, type);
      this.span.setStatus({ code: SpanStatusCode.ERROR });
      this.sink.metrics.errors.add(1, {
        [SEXTANT.errorSource]: this.agent ? 'subagent' : 'request',
        [ERROR_TYPE]: type,
      });
    }
    if (this.request && u?.costUsd)
      this.sink.metrics.cost.add(u.costUsd, {
        [GEN_AI.requestModel]: this.request.model,
        [SEXTANT.mode]: this.request.mode,
      });
    this.span.end(at);
  }
}
