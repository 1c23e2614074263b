// The "Sextant" output channel redacts every line, whichever method writes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { redactingLogChannel, redactLogSecrets } from '../../../extension/vscode/adapters/log-channel';
import { REDACTED } from '../../../extension/core/security/redact';

function fakeChannel() {
  const lines: string[] = [];
  const rec =
    (kind: string) =>
    (...args: unknown[]) =>
      lines.push(`${kind} ${args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')}`);
  const channel = {
    name: 'Sextant',
    logLevel: 2,
    append: rec('append'),
    appendLine: rec('appendLine'),
    replace: rec('replace'),
    trace: rec('trace'),
    debug: rec('debug'),
    info: rec('info'),
    warn: rec('warn'),
    error: rec('error'),
    clear: () => lines.push('clear'),
    show: () => undefined,
    hide: () => undefined,
    dispose: () => lines.push('dispose'),
  };
  return { lines, channel: channel as unknown as vscode.LogOutputChannel };
}

test('every writer redacts key shapes, and exact values once the runtime hands them over', () => {
  const { lines, channel } = fakeChannel();
  const log = redactingLogChannel(channel);
  const shaped = 'sk-proj-abcdefghijklmnopqrstuvwx';
  const exact = 'exactStoredValue-777';
  log.info(`calling with ${shaped}`);
  log.warn('object', { apiKey: exact, nested: [shaped] });
  log.error(new Error(`failed: ${shaped}`));
  log.appendLine(`exact ${exact}`);
  const secrets = new Set<string>();
  redactLogSecrets(log, secrets);
  secrets.add(exact);
  log.append(`exact ${exact}`);
  log.trace(`exact ${exact}`);
  log.debug(`exact ${exact}`);
  log.replace(`exact ${exact}`);
  log.clear();
  log.dispose();
  const all = lines.join('\n');
  assert.ok(!all.includes(shaped), all);
  assert.equal(lines[0], `info calling with ${REDACTED}`);
  assert.match(lines[2], /^error Error: failed: \[REDACTED\]/);
  assert.equal(lines[3], `appendLine exact ${exact}`, 'before the values are known');
  assert.deepEqual(lines.slice(4), [
    `append exact ${REDACTED}`,
    `trace exact ${REDACTED}`,
    `debug exact ${REDACTED}`,
    `replace exact ${REDACTED}`,
    'clear',
    'dispose',
  ]);
  assert.equal(log.name, 'Sextant');
  // A plain channel is left alone.
  redactLogSecrets(channel, secrets);
});
