// A provider whose every model call is reported to a telemetry scope once it ends: its duration, its
// tokens, how it finished. The stream itself passes through untouched (same events, same order); the
// report is a synchronous call into the scope after the last event, so it adds no wait to the answer.
import type { Provider, ProviderEvent } from '../providers/types';
import type { ModelCallFact, TelemetryScope } from './telemetry-sink';

export function tracedProvider(provider: Provider, scope: TelemetryScope, now: () => number = Date.now): Provider {
  if (!scope.active) return provider;
  return {
    name: provider.name,
    kind: provider.kind,
    stream(request, signal) {
      const inner = provider.stream(request, signal);
      return {
        async *[Symbol.asyncIterator](): AsyncIterator<ProviderEvent> {
          const fact: ModelCallFact = {
            provider: { name: provider.name, kind: provider.kind },
            model: request.model,
            startedAt: now(),
            endedAt: 0,
            inputTokens: 0,
            outputTokens: 0,
            cachedTokens: 0,
          };
          try {
            for await (const ev of inner) {
              if (ev.type === 'usage') {
                fact.inputTokens += ev.usage.inputTokens;
                fact.outputTokens += ev.usage.outputTokens;
                fact.cachedTokens += ev.usage.cachedTokens;
              } else if (ev.type === 'done') fact.finishReason = ev.stopReason;
              yield ev;
            }
          } catch (err) {
            fact.errorType = signal.aborted ? 'aborted' : errorType(err);
            throw err;
          } finally {
            fact.endedAt = now();
            report(scope, fact);
          }
        },
      };
    },
  };
}

/** A class of error, never its text: `code` when the error has one (ProviderError), else its class name. */
export function errorType(err: unknown): string {
  if (err && typeof err === 'object') {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && /^[\w.-]{1,64}$/.test(code)) return code;
    const name = (err as { name?: unknown }).name;
    if (typeof name === 'string' && /^[\w.-]{1,64}$/.test(name)) return name;
  }
  return 'error';
}

/** Telemetry never breaks a request: a failing exporter is the sink's problem, not the agent's. */
function report(scope: TelemetryScope, fact: ModelCallFact): void {
  try {
    scope.modelCall(fact);
  } catch {
    // the sink logs its own failures; nothing to do here
  }
}
