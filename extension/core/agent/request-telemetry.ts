// A request as telemetry sees it (core/telemetry): its span opens when the request runs, its model calls
// are reported through its provider, research phases and the final spending are read from the very events
// the chat shows, and it ends with the request's outcome. With telemetry off every call here is a no-op.
import type { RequestEvent, Usage } from '../../protocol';
import type { Provider } from '../providers/types';
import { NO_TELEMETRY, type RequestFacts, type TelemetrySink, type TelemetrySpan } from '../telemetry/telemetry-sink';
import { tracedProvider } from '../telemetry/traced-provider';

export class RequestTelemetry {
  readonly scope: TelemetrySpan;
  private usage: Usage | undefined;
  private errorType: string | undefined;
  private ended = false;

  constructor(
    sink: TelemetrySink | undefined,
    facts: RequestFacts,
    private readonly now: () => number,
  ) {
    this.scope = (sink?.active && safely(() => sink.request(facts))) || NO_TELEMETRY;
  }

  /** Telemetry that records nothing (before the first request). */
  static off(): RequestTelemetry {
    return new RequestTelemetry(
      undefined,
      { sessionId: '', requestId: '', mode: 'chat', model: '', text: '', startedAt: 0 },
      Date.now,
    );
  }

  /** The request's provider, its calls reported under the request's span. */
  provider(p: Provider): Provider {
    return tracedProvider(p, this.scope, this.now);
  }

  /** Every event of the request passes here on its way to the chat. */
  seen(ev: RequestEvent): void {
    if (!this.scope.active) return;
    if (ev.type === 'usage') this.usage = ev.usage;
    else if (ev.type === 'research_progress') safely(() => this.scope.researchPhase(ev.progress.phase, this.now()));
  }

  failed(errorType: string): void {
    this.errorType = errorType;
  }

  end(ended: 'complete' | 'aborted' | 'error' | undefined, paused: 'budget' | 'max_steps' | undefined): void {
    if (this.ended || !this.scope.active) return;
    this.ended = true;
    const outcome = ended === 'complete' && paused ? paused : (ended ?? 'aborted');
    const u = this.usage;
    safely(() =>
      this.scope.end(
        {
          outcome,
          ...(this.errorType ? { errorType: this.errorType } : {}),
          ...(u
            ? {
                usage: {
                  inputTokens: u.inputTokens,
                  outputTokens: u.outputTokens,
                  cachedTokens: u.cachedTokens,
                  ...(u.costUsd !== undefined ? { costUsd: u.costUsd } : {}),
                },
              }
            : {}),
        },
        this.now(),
      ),
    );
  }
}

/** Telemetry never fails a request: what the sink throws is dropped here (the sink logs its own). */
function safely<T>(work: () => T): T | undefined {
  try {
    return work();
  } catch {
    return undefined;
  }
}
