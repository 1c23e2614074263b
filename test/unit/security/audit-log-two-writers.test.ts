// Two VS Code windows write one audit log (it lives in the shared global storage). Every entry must be
// there once, on a line of its own; a rotation must keep what the first rotated file holds — the two
// windows each deciding to rotate must not move a nearly empty file over a full one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleChild } from '../store/child';

let script: Promise<string> | undefined;

/** Two audit log writers in their own processes, started together once both are up. */
async function writers(file: string, count: number, maxBytes: number): Promise<void> {
  script ??= bundleChild('test/fixtures/security/audit-child.ts', 'audit-child');
  const path = await script;
  const runs = ['A', 'B'].map((tag) => {
    const child = spawn(process.execPath, [path, file, tag, String(count), String(maxBytes)], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let ready!: () => void;
    const isReady = new Promise<void>((r) => (ready = r));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.startsWith('ready\n')) ready();
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exit = new Promise<number | null>((r) => child.on('exit', r));
    return { tag, child, isReady, exit, out: () => out, err: () => err };
  });
  await Promise.all(runs.map((r) => Promise.race([r.isReady, r.exit])));
  for (const r of runs) r.child.stdin.write('go\n');
  for (const r of runs) {
    assert.equal(await r.exit, 0, r.err());
    assert.equal(r.out().trim(), 'ready\ndone 0', `${r.tag}: every append was written`);
  }
}

function entries(file: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { callId: string }).callId);
}

test('two processes appending to one audit log: every entry once, each on its own line', {
  timeout: 60_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-audit-two-'));
  try {
    const file = join(dir, 'logs', 'audit.jsonl');
    const count = 1500;
    await writers(file, count, 100 * 1024 * 1024);
    const got = entries(file);
    assert.equal(got.length, 2 * count);
    assert.equal(new Set(got).size, got.length, 'no entry twice');
    for (const tag of ['A', 'B'])
      assert.deepEqual(
        got.filter((c) => c.startsWith(`${tag}-`)),
        Array.from({ length: count }, (_, i) => `${tag}-${i}`),
        `${tag}'s entries in order`,
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('two processes rotating one audit log: the rotated file is a full one, the live file stays under the cap', {
  timeout: 60_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-audit-rot-'));
  try {
    const file = join(dir, 'audit.jsonl');
    const maxBytes = 64 * 1024;
    // 275 bytes an entry: both together write about 2.6 × the cap, so the log rotates twice.
    const count = 310;
    await writers(file, count, maxBytes);
    const live = statSync(file).size;
    const rotated = statSync(`${file}.1`).size;
    const line = readFileSync(file, 'utf8').split('\n')[0].length + 1;
    assert.ok(live <= maxBytes, `the live file (${live} bytes) stays under the cap ${maxBytes}`);
    assert.ok(rotated > maxBytes - 2 * line, `the rotated file holds a full file's entries (${rotated} bytes)`);
    const kept = [...entries(`${file}.1`), ...entries(file)];
    assert.equal(new Set(kept).size, kept.length, 'no entry twice');
    // What is kept is the newest entries: each writer's kept ones are the tail of what it wrote.
    for (const tag of ['A', 'B']) {
      const mine = kept.filter((c) => c.startsWith(`${tag}-`)).map((c) => Number(c.slice(2)));
      const sorted = [...mine].sort((a, b) => a - b);
      assert.deepEqual(mine, sorted, `${tag}'s kept entries in order`);
      assert.equal(sorted.at(-1), count - 1, `${tag}'s last entry kept`);
      assert.equal(sorted.length, sorted.at(-1)! - sorted[0] + 1, `${tag}'s kept entries have no gap`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
