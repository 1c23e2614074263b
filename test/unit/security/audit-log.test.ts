// The audit log: JSON lines, redacted, capped, owner-only, rotated.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditLog, type AuditEntry } from '../../../extension/core/security/audit-log';
import { createRedactor } from '../../../extension/core/security/redact';

const KEY = 'sk-stored-key-abcdefghijklmnop';

function entry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    sessionId: 's1',
    callId: 'c1',
    tool: 'bash',
    decision: 'ask',
    decidedBy: 'user',
    status: 'ok',
    durationMs: 12.6,
    args: { command: `curl -H "Authorization: Bearer ${KEY}" https://x` },
    ...overrides,
  };
}

describe('audit log', () => {
  it('appends one JSON line per call, with the decision, status and duration, the key redacted', () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-'));
    const file = join(dir, 'logs', 'audit.jsonl');
    const log = new AuditLog({ file, redact: createRedactor([KEY]), now: () => new Date('2026-11-23T10:00:00Z') });
    assert.ok(log.append(entry()));
    assert.ok(
      log.append(
        entry({ callId: 'c2', tool: 'write_file', decision: 'allow', decidedBy: 'rule', rule: 'edit(src/**)' }),
      ),
    );
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    assert.equal(lines.length, 2);
    const first = JSON.parse(lines[0]);
    assert.equal(first.ts, '2026-11-23T10:00:00.000Z');
    assert.equal(first.decidedBy, 'user');
    assert.equal(first.durationMs, 13);
    assert.ok(!lines.join('\n').includes(KEY), 'the key reached the audit log');
    assert.match(first.args.command, /\[REDACTED\]/);
    assert.equal(JSON.parse(lines[1]).rule, 'edit(src/**)');
  });

  it('is owner-only: 0600 file in a 0700 folder', { skip: process.platform === 'win32' }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-'));
    const file = join(dir, 'logs', 'audit.jsonl');
    new AuditLog({ file, redact: createRedactor() }).append(entry());
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, 'logs')).mode & 0o777, 0o700);
  });

  it('caps long arguments and rotates past its size', () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-'));
    const file = join(dir, 'audit.jsonl');
    const log = new AuditLog({ file, redact: createRedactor(), maxBytes: 6_000 });
    log.append(entry({ args: { content: 'x'.repeat(50_000) } }));
    const line = readFileSync(file, 'utf8');
    assert.ok(line.length < 3_000, `a 50 kB argument took ${line.length} bytes`);
    assert.match(line, /more characters/);
    for (let i = 0; i < 5; i++) log.append(entry({ callId: `c${i}`, args: { content: 'y'.repeat(1_900) } }));
    assert.ok(existsSync(`${file}.1`), 'rotated');
    assert.ok(statSync(file).size <= 6_000);
  });

  it('never throws when it cannot write', () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-'));
    writeFileSync(join(dir, 'a-file'), '');
    // The folder would have to be created inside a regular file.
    const log = new AuditLog({ file: join(dir, 'a-file', 'logs', 'audit.jsonl'), redact: createRedactor() });
    assert.equal(log.append(entry()), false);
  });
});
