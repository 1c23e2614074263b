// The OpenTelemetry SDK as Sextant sets it up: a tracer and a meter that export over OTLP/HTTP (JSON) to
// the user's endpoint. Spans wait in a bounded queue (BatchSpanProcessor) and leave in batches on a timer,
// so a slow or dead receiver never holds a request: when the queue is full new spans are dropped (the
// SDK's own otel.sdk.processor.span.processed metric counts them, error.type=queue_full), and spans of a
// failed export are counted here (`dropped`). Nothing is registered globally: no other extension's
// instrumentation sees this tracer, and this one sees no one else's.
import type { Meter, Tracer } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Logger } from '../../ports';

export interface PipelineOptions {
  /** The collector's base URL (`http://localhost:4318`): traces go to /v1/traces, metrics to /v1/metrics. */
  endpoint?: string;
  /** Sent with every export (an API key): from SecretStorage, never logged. */
  headers?: Record<string, string>;
  serviceVersion: string;
  log: Logger;
  /** More exporters beside the endpoint's (the tests' in-memory ones). */
  spanExporters?: SpanExporter[];
  metricExporters?: PushMetricExporter[];
  /** How often spans and metrics leave (defaults: 5 s and 30 s). */
  scheduledDelayMillis?: number;
  exportIntervalMillis?: number;
  /** How long one export may take, retries included (default 10 s). */
  exportTimeoutMillis?: number;
}

/** Bounds: a dead endpoint holds at most this many spans in memory, and each export gives up after 10 s. */
const MAX_QUEUE = 2048;
const MAX_BATCH = 512;

export class OtelPipeline {
  readonly tracer: Tracer;
  readonly meter: Meter;
  private readonly traces: BasicTracerProvider;
  private readonly metrics: MeterProvider;
  private droppedSpans = 0;
  /** Exports under way: the batch processor's timer starts them, and its forceFlush does not wait for them. */
  private readonly exporting = new Set<Promise<void>>();

  constructor(o: PipelineOptions) {
    const resource = resourceFromAttributes({ 'service.name': 'sextant', 'service.version': o.serviceVersion });
    const base = o.endpoint?.replace(/\/+$/, '');
    const headers = o.headers ?? {};
    const timeoutMillis = o.exportTimeoutMillis ?? 10_000;
    const interval = o.exportIntervalMillis ?? 30_000;
    const metricExporters = [
      ...(base ? [new OTLPMetricExporter({ url: `${base}/v1/metrics`, headers, timeoutMillis })] : []),
      ...(o.metricExporters ?? []),
    ];
    this.metrics = new MeterProvider({
      resource,
      readers: metricExporters.map(
        (exporter) =>
          new PeriodicExportingMetricReader({
            exporter,
            exportIntervalMillis: interval,
            exportTimeoutMillis: Math.min(timeoutMillis, interval), // the SDK refuses a longer timeout
          }),
      ),
    });
    const spanExporters = [
      ...(base ? [new OTLPTraceExporter({ url: `${base}/v1/traces`, headers, timeoutMillis })] : []),
      ...(o.spanExporters ?? []),
    ];
    this.traces = new BasicTracerProvider({
      resource,
      // Content (when included) is capped per attribute: a pasted file is not sent whole.
      spanLimits: { attributeValueLengthLimit: 4096, attributeCountLimit: 64 },
      spanProcessors: spanExporters.map(
        (exporter) =>
          new BatchSpanProcessor(this.countingSpans(exporter, o.log), {
            maxQueueSize: MAX_QUEUE,
            maxExportBatchSize: MAX_BATCH,
            scheduledDelayMillis: o.scheduledDelayMillis ?? 5_000,
            exportTimeoutMillis: timeoutMillis,
            // Read by the SDK's batch processor (not in the shim's type): its queue_full drops become a metric.
            ...{ selfObsMeterProvider: this.metrics },
          }),
      ),
    });
    this.tracer = this.traces.getTracer('sextant', o.serviceVersion);
    this.meter = this.metrics.getMeter('sextant', o.serviceVersion);
  }

  /** Spans lost to failed exports since the start (queue overflows are counted by the SDK's own metric). */
  get dropped(): number {
    return this.droppedSpans;
  }

  /** Sends what waits now (tests; the window closing). Resolves even when the endpoint is down. */
  async flush(): Promise<void> {
    await Promise.allSettled([this.traces.forceFlush(), this.metrics.forceFlush()]);
    // A batch the timer sent just before is still being tried: its spans are sent (or counted lost) first.
    await Promise.allSettled([...this.exporting]);
  }

  async shutdown(): Promise<void> {
    await Promise.allSettled([this.traces.shutdown(), this.metrics.shutdown()]);
  }

  private countingSpans(inner: SpanExporter, log: Logger): SpanExporter {
    // Failures in a row of this exporter alone: the in-memory exporter beside a dead endpoint succeeds
    // every time, and must not make the endpoint's next failure be said again.
    let failures = 0;
    return {
      export: (spans, done) => {
        let settle = () => {};
        const underWay = new Promise<void>((resolve) => {
          settle = resolve;
        });
        this.exporting.add(underWay);
        inner.export(spans, (result) => {
          if (result.code !== 0) {
            this.droppedSpans += spans.length;
            // Said once per run of failures, without the headers (the exporter's error names the URL only).
            if (failures++ === 0)
              log.warn(`telemetry: export failed (${result.error?.message ?? 'unknown error'}); spans are dropped`);
          } else failures = 0;
          this.exporting.delete(underWay);
          settle();
          done(result);
        });
      },
      shutdown: () => inner.shutdown(),
      ...(inner.forceFlush ? { forceFlush: () => inner.forceFlush?.() ?? Promise.resolve() } : {}),
    };
  }
}
