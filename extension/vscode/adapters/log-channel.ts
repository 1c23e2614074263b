// The "Sextant" output channel with every line redacted: whatever any part of the extension logs
// (errors with stacks, request failures, tool errors) passes the redactor before VS Code writes it.
// Known key shapes from the start; the exact stored key values once the runtime has looked them up.
import type * as vscode from 'vscode';
import { createLiveRedactor, redactDeep, type Redactor } from '../../core/security/redact';

export interface RedactingLogChannel extends vscode.LogOutputChannel {
  /** Also removes these exact values from every later line (a live set is read at each line). */
  redactSecrets(values: Iterable<string>): void;
}

const WRITERS = new Set<PropertyKey>(['append', 'appendLine', 'replace', 'trace', 'debug', 'info', 'warn', 'error']);

function clean(value: unknown, redact: Redactor): unknown {
  if (typeof value === 'string') return redact(value);
  if (value instanceof Error) return redact(value.stack ?? `${value.name}: ${value.message}`);
  return value && typeof value === 'object' ? redactDeep(value, redact) : value;
}

export function redactingLogChannel(channel: vscode.LogOutputChannel): RedactingLogChannel {
  let secrets: Iterable<string> = [];
  const redact = createLiveRedactor(() => secrets);
  const redactSecrets = (values: Iterable<string>) => {
    secrets = values;
  };
  const cleanArg = (a: unknown) => clean(a, redact);
  return new Proxy(channel, {
    get(target, prop) {
      if (prop === 'redactSecrets') return redactSecrets;
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const fn = value as (...a: unknown[]) => unknown;
      if (!WRITERS.has(prop)) return fn.bind(target);
      return (...args: unknown[]) => fn.apply(target, args.map(cleanArg));
    },
  }) as RedactingLogChannel;
}

/** Gives a redacting channel the exact key values; a plain channel is left as it is. */
export function redactLogSecrets(channel: vscode.LogOutputChannel, values: Iterable<string>): void {
  const c = channel as Partial<RedactingLogChannel>;
  if (typeof c.redactSecrets === 'function') c.redactSecrets(values);
}
