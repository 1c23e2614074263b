// The sink every chat holds for the window's life, forwarding to whatever the settings say now: nothing
// (the default), or the OpenTelemetry export once the user turns it on. A request takes the sink that is
// current when it starts, so turning the export off mid-request ends nothing abruptly.
import { NO_TELEMETRY_SINK, type RequestFacts, type TelemetrySink, type TelemetrySpan } from './telemetry-sink';

export class SwitchableSink implements TelemetrySink {
  private current: TelemetrySink = NO_TELEMETRY_SINK;

  get active(): boolean {
    return this.current.active;
  }

  request(facts: RequestFacts): TelemetrySpan {
    return this.current.request(facts);
  }

  use(sink: TelemetrySink | undefined): void {
    this.current = sink ?? NO_TELEMETRY_SINK;
  }
}
