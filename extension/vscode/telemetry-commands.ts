// "Sextant: Set Telemetry Headers…": the OTLP export's headers (an API key for the collector) go to
// SecretStorage only — never to settings, where they would sync and show, and never to a log. In the
// runtime bundle (the command loads it, as the key commands do): activation carries none of it.
import * as vscode from 'vscode';
import { OTLP_HEADERS_SECRET, parseOtlpHeaders } from '../core/telemetry/otlp-headers';

export async function setTelemetryHeaders(secrets: vscode.SecretStorage): Promise<void> {
  const text = await vscode.window.showInputBox({
    title: 'Sextant: OpenTelemetry export headers',
    prompt: 'key=value pairs separated by commas (as OTEL_EXPORTER_OTLP_HEADERS). Empty clears them.',
    placeHolder: 'authorization=Bearer …,x-tenant=team-a',
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => {
      const parsed = parseOtlpHeaders(v);
      return 'error' in parsed ? parsed.error : undefined;
    },
  });
  if (text === undefined) return;
  const parsed = parseOtlpHeaders(text);
  if ('error' in parsed) return;
  const names = Object.keys(parsed.headers);
  if (names.length) await secrets.store(OTLP_HEADERS_SECRET, JSON.stringify(parsed.headers));
  else await secrets.delete(OTLP_HEADERS_SECRET);
  void vscode.window.showInformationMessage(
    names.length
      ? `Sextant: telemetry headers stored (${names.join(', ')}); the export uses them from now on.`
      : 'Sextant: telemetry headers cleared.',
  );
}
