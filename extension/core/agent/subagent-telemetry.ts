// A sub-agent as telemetry sees it: a span of its own under the request's, with its model calls (through
// its provider, whichever model it runs on) and its tool calls (through its audit entries) below it.
// The sub-agent's code is unchanged: it runs on a scope whose provider and audit report to that span.
import type { SubagentView } from '../../protocol';
import type { ScopeEnd } from '../telemetry/telemetry-sink';
import { auditWithTelemetry } from '../telemetry/traced-audit';
import { errorType, tracedProvider } from '../telemetry/traced-provider';
import type { ToolResult } from '../tools/types';
import type { SubagentScope } from './subagent-run';

const OUTCOMES: Record<SubagentView['status'], ScopeEnd['outcome']> = {
  waiting: 'aborted',
  running: 'aborted',
  done: 'complete',
  error: 'error',
  stopped: 'aborted',
  budget: 'budget',
  max_steps: 'max_steps',
};

export async function tracedSubagent(
  scope: SubagentScope,
  name: string,
  run: (scope: SubagentScope, seen: (view: SubagentView) => void) => Promise<ToolResult>,
): Promise<ToolResult> {
  const parent = scope.telemetry;
  if (!parent?.active) return run(scope, () => undefined);
  const span = parent.subagent(name, scope.now());
  const traced: SubagentScope = {
    ...scope,
    parentTarget: { ...scope.parentTarget, provider: tracedProvider(scope.parentTarget.provider, span, scope.now) },
    resolveModel: async (ref) => {
      const target = await scope.resolveModel(ref);
      return { ...target, provider: tracedProvider(target.provider, span, scope.now) };
    },
    ...(scope.audit ? { audit: auditWithTelemetry(scope.audit, span, scope.now) } : {}),
    telemetry: span,
  };
  let last: SubagentView | undefined;
  try {
    const result = await run(traced, (view) => {
      last = view;
    });
    const u = last?.usage;
    const usage = u && { inputTokens: u.inputTokens, outputTokens: u.outputTokens, cachedTokens: u.cachedTokens };
    span.end(
      {
        outcome: last ? OUTCOMES[last.status] : result.isError ? 'error' : 'complete',
        ...(usage ? { usage: { ...usage, ...(u.costUsd !== undefined ? { costUsd: u.costUsd } : {}) } } : {}),
      },
      scope.now(),
    );
    return result;
  } catch (err) {
    span.end({ outcome: 'error', errorType: errorType(err) }, scope.now());
    throw err;
  }
}
