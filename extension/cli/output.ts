// What a run prints on stdout, by --output-format:
//   text         the answer as it streams; tool calls and refusals as short lines on stderr
//   json         one object at the end: the answer, the session, how it ended, cost, refusals
//   stream-json  every message the webview would get, one JSON object per line, then the result line
// stderr carries the log. Everything printed passes the redactor.
import type { Outbound, PendingApproval, Usage } from '../protocol';
import type { OutputFormat } from './args';

export interface RunResult {
  type: 'result';
  sessionId: string;
  requestId: string;
  /** complete | aborted | error | budget */
  end: string;
  exitCode: number;
  result: string;
  usage?: Usage;
  refused: Array<{ tool: string; subject: string; reason: string }>;
  error?: string;
}

export interface Output {
  /** Each message the engine posts. */
  message(m: Outbound): void;
  /** The run ended. */
  result(r: RunResult): void;
}

export function createOutput(
  format: OutputFormat,
  redact: (text: string) => string,
  out: (s: string) => void,
  err: (s: string) => void,
): Output {
  const json = (v: unknown) => out(`${redact(JSON.stringify(v))}\n`);
  if (format === 'stream-json') return { message: (m) => json(m), result: (r) => json(r) };
  if (format === 'json') return { message: () => {}, result: (r) => json(r) };
  let endsWithNewline = true;
  return {
    message: (m) => {
      if (m.type !== 'events') return;
      for (const { event: e } of m.envelopes) {
        if (e.type === 'text_delta') {
          out(redact(e.text));
          endsWithNewline = e.text.endsWith('\n');
        } else if (e.type === 'tool_started') err(redact(`• ${e.call.name} ${e.call.subject}\n`));
        else if (e.type === 'approval_needed') err(redact(`• refused: ${describe(e.approval)}\n`));
        else if (e.type === 'notice' || e.type === 'budget_stop') err(redact(`• ${e.text}\n`));
        else if (e.type === 'report') out(redact(`\n${e.report.markdown ?? ''}\n`));
      }
    },
    result: (r) => {
      if (!endsWithNewline) out('\n');
      if (r.error) err(redact(`sextant: error: ${r.error}\n`));
    },
  };
}

export function describe(a: PendingApproval): string {
  return `${a.tool} ${a.subject}${a.reason ? ` (${a.reason})` : ''}`;
}
