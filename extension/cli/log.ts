// The command line's log: lines to stderr (stdout is the answer, or the JSON events), every line
// passed through the redactor first — key shapes and the exact key values the engine holds. Info lines
// only with --verbose; warnings and errors always.
import type { Logger } from '../core/ports';
import { createLiveRedactor } from '../core/security/redact';

export interface StderrLog extends Logger {
  /** Also removes these exact values from every later line (a live set is read at each line). */
  redactSecrets(values: Iterable<string>): void;
  /** The redactor, for anything else the CLI prints (errors, the text output's tool lines). */
  redact(text: string): string;
}

export function stderrLog(verbose: boolean, write: (line: string) => void = (l) => process.stderr.write(l)): StderrLog {
  let secrets: Iterable<string> = [];
  const redact = createLiveRedactor(() => secrets);
  const line = (level: string, m: string) => write(`sextant: ${level}${redact(m)}\n`);
  return {
    info: (m) => {
      if (verbose) line('', m);
    },
    warn: (m) => line('warning: ', m),
    error: (m) => line('error: ', m),
    redactSecrets: (values) => {
      secrets = values;
    },
    redact,
  };
}
