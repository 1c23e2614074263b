// The headers an OTLP export sends (an API key, a tenant), typed by the user as OpenTelemetry's own
// OTEL_EXPORTER_OTLP_HEADERS: `key=value,key2=value2`, values URL-encoded where they hold a comma.
// Kept in SecretStorage, never in settings or logs.

export const OTLP_HEADERS_SECRET = 'sextant.telemetry.otel.headers';

/** The headers, or an error naming the first entry that is not `key=value` with a valid header name. */
export function parseOtlpHeaders(text: string): { headers: Record<string, string> } | { error: string } {
  const headers: Record<string, string> = {};
  for (const part of text.split(',')) {
    const entry = part.trim();
    if (!entry) continue;
    const eq = entry.indexOf('=');
    const key = eq > 0 ? entry.slice(0, eq).trim() : '';
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(key))
      return { error: `"${key || entry.slice(0, 20)}" is not a header name; write key=value,key2=value2` };
    let value = entry.slice(eq + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      // not URL-encoded: taken as typed
    }
    if (/[\r\n]/.test(value)) return { error: `the value of ${key} holds a line break` };
    headers[key.toLowerCase()] = value;
  }
  return { headers };
}
