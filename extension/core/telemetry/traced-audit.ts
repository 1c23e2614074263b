// Tool calls reach telemetry the way they reach the audit log: one entry per decided call, with who
// decided and how it ended. The audit callback is wrapped, so both see the very same entries.
import type { AuditEntry } from '../security/audit-log';
import type { TelemetryScope } from './telemetry-sink';

export function auditWithTelemetry(
  audit: ((entry: AuditEntry) => void) | undefined,
  scope: TelemetryScope | undefined,
  now: () => number = Date.now,
): ((entry: AuditEntry) => void) | undefined {
  if (!scope?.active) return audit;
  return (entry) => {
    audit?.(entry);
    try {
      scope.toolCall(entry, now());
    } catch {
      // telemetry never breaks a tool call
    }
  };
}
