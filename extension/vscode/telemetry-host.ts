// The OpenTelemetry export, as the user's settings say: off by default; on, it loads its bundle
// (dist/telemetry-otel.js, the SDK) and every chat's requests report to it through the window's one
// SwitchableSink. The settings are read from user settings only (a repository's .vscode/settings.json must
// not send a session's telemetry to an endpoint of its choosing); the headers come from SecretStorage.
// VS Code's telemetry.telemetryLevel does not turn this off: it is the user's own export to their own
// collector, configured explicitly. Sextant itself sends nothing anywhere (docs/guide/usage-and-telemetry.md).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../core/ports';
import { createLiveRedactor } from '../core/security/redact';
import type { OtelTelemetry, createOtelTelemetry } from '../core/telemetry/otel';
import { OTLP_HEADERS_SECRET, parseOtlpHeaders } from '../core/telemetry/otlp-headers';
import { SwitchableSink } from '../core/telemetry/switchable-sink';
import { setTelemetryHeaders } from './telemetry-commands';
import { errorText } from '../core/util/error-text';

export interface OtelSettings {
  enabled: boolean;
  endpoint: string;
  includeContent: boolean;
}

export const DEFAULT_OTLP_ENDPOINT = 'http://localhost:4318';

/** The export's settings as the user set them (user settings only; workspace values are ignored). */
export function readOtelSettings(): OtelSettings {
  const c = vscode.workspace.getConfiguration('sextant.telemetry.otel');
  const user = <T>(key: string): T | undefined => c.inspect<T>(key)?.globalValue;
  return {
    enabled: user<boolean>('enabled') === true,
    endpoint: user<string>('endpoint')?.trim() || DEFAULT_OTLP_ENDPOINT,
    includeContent: user<boolean>('includeContent') === true,
  };
}

export class TelemetryHost implements vscode.Disposable {
  readonly sink = new SwitchableSink();
  private running: OtelTelemetry | undefined;
  private generation = 0;
  private readonly subscriptions: vscode.Disposable[];

  private readonly secrets: vscode.SecretStorage;
  private readonly version: string;

  constructor(
    context: Pick<vscode.ExtensionContext, 'secrets' | 'extension'>,
    private readonly log: Logger,
    /** Values the redactor removes wherever they appear (API keys), besides the known key shapes. */
    private readonly knownSecrets: () => Iterable<string>,
  ) {
    const secrets = context.secrets;
    this.secrets = secrets;
    this.version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
    this.subscriptions = [
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('sextant.telemetry')) void this.reload();
      }),
      secrets.onDidChange((e) => {
        if (e.key === OTLP_HEADERS_SECRET) void this.reload();
      }),
    ];
    void this.reload();
  }

  /** Sextant: Set Telemetry Headers… (the export restarts with them: SecretStorage says they changed). */
  setHeaders(): Promise<void> {
    return setTelemetryHeaders(this.secrets);
  }

  /** Applies the settings now: stops the running export (sending what waits) and starts a new one if on. */
  async reload(): Promise<void> {
    const generation = ++this.generation;
    const settings = readOtelSettings();
    this.stop();
    if (!settings.enabled) return;
    if (!/^https?:\/\/[^\s/]+/.test(settings.endpoint)) {
      this.log.warn(`telemetry: sextant.telemetry.otel.endpoint is not an http(s) URL; nothing is exported`);
      return;
    }
    const stored = await this.secrets.get(OTLP_HEADERS_SECRET);
    if (generation !== this.generation) return; // a newer change is being applied
    const headers = stored ? headersOf(stored) : {};
    try {
      // Loaded only now: a window that never turns the export on never loads the SDK.
      const otel = require(path.join(__dirname, 'telemetry-otel.js')) as {
        createOtelTelemetry: typeof createOtelTelemetry;
      };
      this.running = otel.createOtelTelemetry({
        endpoint: settings.endpoint,
        headers,
        includeContent: settings.includeContent,
        redact: createLiveRedactor(() => [...this.knownSecrets(), ...Object.values(headers)]),
        log: this.log,
        serviceVersion: this.version,
      });
    } catch (err) {
      this.log.error(`telemetry: the OpenTelemetry export could not start: ${errorText(err)}`);
      return;
    }
    this.sink.use(this.running.sink);
    const content = settings.includeContent ? ', prompts and tool arguments included (redacted)' : ', no content';
    this.log.info(`telemetry: OpenTelemetry export on, to ${settings.endpoint}${content}`);
    if (!vscode.env.isTelemetryEnabled)
      this.log.info(
        "telemetry: VS Code's telemetry is off; the export you turned on (sextant.telemetry.otel.enabled) stays " +
          'on — it goes only to your endpoint',
      );
  }

  private stop(): void {
    const old = this.running;
    this.running = undefined;
    this.sink.use(undefined);
    if (!old) return;
    if (old.dropped()) this.log.info(`telemetry: ${old.dropped()} spans could not be exported`);
    void old.shutdown(); // sends what waits, bounded by the export timeout
  }

  dispose(): void {
    this.generation++;
    this.stop();
    for (const d of this.subscriptions) d.dispose();
  }
}

function headersOf(stored: string): Record<string, string> {
  try {
    const parsed = JSON.parse(stored) as unknown;
    if (parsed && typeof parsed === 'object')
      return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    // an older plain `k=v` form
  }
  const plain = parseOtlpHeaders(stored);
  return 'headers' in plain ? plain.headers : {};
}
