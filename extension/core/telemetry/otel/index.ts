// The OpenTelemetry export as its own bundle (dist/telemetry-otel.js): loaded by the host only when the
// user turns sextant.telemetry.otel.enabled on, so activation and a window without it never load the SDK.
import type { Logger } from '../../ports';
import type { Redactor } from '../../security/redact';
import type { TelemetrySink } from '../telemetry-sink';
import { OtelPipeline, type PipelineOptions } from './otel-pipeline';
import { OtelSink } from './otel-sink';

export interface OtelTelemetryOptions extends Omit<PipelineOptions, 'log'> {
  includeContent: boolean;
  redact: Redactor;
  log: Logger;
}

export interface OtelTelemetry {
  sink: TelemetrySink;
  /** Spans lost to failed exports so far. */
  dropped(): number;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

export function createOtelTelemetry(o: OtelTelemetryOptions): OtelTelemetry {
  const pipeline = new OtelPipeline(o);
  const sink = new OtelSink(pipeline, { includeContent: o.includeContent, redact: o.redact });
  return {
    sink,
    dropped: () => pipeline.dropped,
    flush: () => pipeline.flush(),
    shutdown: () => pipeline.shutdown(),
  };
}
