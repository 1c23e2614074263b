import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
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

test('a live owner holding the lock for long is not taken over: only a silent heartbeat makes it stale', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-lock-'));
  try {
    const releaseA = await acquireLock(dir, 'a');
    // A snapshot that has held the lock for a minute, its owner alive and its heartbeat fresh.
    const held = JSON.parse(readFileSync(lockPath(dir), 'utf8')) as { pid: number; owner: string; at: number };
    writeFileSync(lockPath(dir), JSON.stringify({ ...held, at: Date.now() - 60_000 }));
    await assert.rejects(acquireLock(dir, 'b', { timeoutMs: 300 }), /could not take the store lock/);
    assert.equal((JSON.parse(readFileSync(lockPath(dir), 'utf8')) as { owner: string }).owner, 'a', 'still a’s');
    // Its heartbeat silent for longer than staleMs (a hung owner, or its pid reused after a crash): taken.
    const old = new Date(Date.now() - 60_000);
    utimesSync(lockPath(dir), old, old);
    const releaseB = await acquireLock(dir, 'b', { timeoutMs: 2_000, staleMs: 30_000 });
    assert.equal((JSON.parse(readFileSync(lockPath(dir), 'utf8')) as { owner: string }).owner, 'b');
    releaseA(); // a's late release leaves b's lock alone
    assert.equal((JSON.parse(readFileSync(lockPath(dir), 'utf8')) as { owner: string }).owner, 'b');
    releaseB();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the owner keeps the lock fresh while it holds it (the heartbeat)', { timeout: 20_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-lock-'));
  try {
    const release = await acquireLock(dir, 'a', { staleMs: 60 });
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(lockPath(dir), old, old);
    while (statSync(lockPath(dir)).mtimeMs <= old.getTime()) await new Promise((r) => setTimeout(r, 10));
    release();
    assert.deepEqual(readdirSync(dir), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
