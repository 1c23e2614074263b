import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireLock, lockPath } from '../../../extension/core/store/lock';

/** The pid of a process that has already exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

test('the lock never exists without its owner: a dead owner is taken over at once, orphans are swept', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-lock-'));
  try {
    const dead = deadPid();
    writeFileSync(lockPath(dir), JSON.stringify({ pid: dead, owner: 'crashed-window', at: Date.now() }));
    writeFileSync(join(dir, `sextant.lock.${dead}.abc123`), '{}'); // a private file its owner never linked
    const release = await acquireLock(dir, 'me', { timeoutMs: 2_000 });
    const held = JSON.parse(readFileSync(lockPath(dir), 'utf8')) as { pid: number; owner: string };
    assert.deepEqual([held.pid, held.owner], [process.pid, 'me']);
    assert.deepEqual(readdirSync(dir).sort(), ['sextant.lock'], 'no private lock files are left behind');
    release();
    assert.deepEqual(readdirSync(dir), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('two owners in turn: the second waits for the first to release', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-lock-'));
  try {
    const order: string[] = [];
    const releaseA = await acquireLock(dir, 'a');
    const b = acquireLock(dir, 'b', { timeoutMs: 10_000 }).then((release) => {
      order.push('b');
      release();
    });
    await new Promise((r) => setTimeout(r, 50));
    order.push('a releases');
    releaseA();
    await b;
    assert.deepEqual(order, ['a releases', 'b']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
