// A full disk, by fault injection into Node's fs (so the test also runs as non-root, with no tmpfs):
// while "full", every write fails with ENOSPC after writing part of what it was given, as a real full disk
// does. The user is told once (onWriteError, with the storage folder), the chat goes on (the session reads
// back whole from memory), no snapshot is written that lacks records, nothing half-written is left, and
// once space returns every acknowledged exchange is written and opens after a restart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { created, exchange, open, recordingLog, sql, tempDir, WASM } from './helpers';
import { openSessionStoreLazily } from '../../../extension/core/store';

// The real module object (an import namespace's bindings are read-only); the store reads its functions
// from it at each call, so replacing them here is what the store meets.
const nodeFs: typeof import('node:fs') = require('node:fs');
let full = false;
const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
const realWriteSync = nodeFs.writeSync;
const realOpen = nodeFs.promises.open;
(nodeFs as { writeSync: unknown }).writeSync = (
  fd: number,
  buf: Uint8Array,
  off?: number,
  len?: number,
  pos?: number,
) => {
  if (!full) return (realWriteSync as (...a: unknown[]) => number)(fd, buf, off, len, pos);
  const want = len ?? buf.byteLength - (off ?? 0);
  // A full disk takes what fits (here: half, once), then refuses.
  if (want > 1 && !partial.has(fd)) {
    partial.add(fd);
    return (realWriteSync as (...a: unknown[]) => number)(fd, buf, off ?? 0, Math.floor(want / 2), pos);
  }
  throw enospc();
};
const partial = new Set<number>();
(nodeFs.promises as { open: unknown }).open = async (...args: Parameters<typeof realOpen>) => {
  if (full && String(args[1] ?? 'r') !== 'r') throw enospc();
  return realOpen(...args);
};

async function until(what: string, cond: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(cond(), what);
}

test('disk full: the user is told once, the chat goes on in memory, after space returns all opens', async () => {
  const { dir, cleanup } = tempDir('disk-full');
  const failures: Array<{ message: string; dir: string }> = [];
  let recovered = 0;
  const log = recordingLog();
  const long = `a long answer ${'x'.repeat(40_000)}`; // over the blob threshold: a blob file too
  const store = await open(dir, {
    log,
    writeRetryMs: 20,
    onWriteError: (err, where) => failures.push({ message: err.message, dir: where }),
    onWriteRecovered: () => recovered++,
  });
  try {
    for (const r of [created('s', 1, 'Disk fills'), ...exchange('s', 'r1', 10, 'first question', 'first answer')])
      store.append(r);
    await store.flush();

    full = true;
    partial.clear();
    for (const r of exchange('s', 'r2', 20, 'second question', long)) store.append(r);
    assert.equal(failures.length, 1, 'told once, not per record');
    assert.equal(failures[0].dir, dir, 'with where the storage is');
    assert.match(failures[0].message, /ENOSPC/);
    assert.ok(store.unsavedRecords > 0);
    const live = store.getSession('s');
    assert.equal(live?.messages.length, 4, 'the chat goes on: both exchanges read back from memory');
    assert.ok(live?.messages[3].parts.some((p) => p.type === 'text' && p.text === long));
    await assert.rejects(store.flush(), /not written yet/, 'no snapshot that lacks records');

    full = false;
    await until('the records kept in memory are written', () => store.unsavedRecords === 0 && recovered === 1);
    for (const r of exchange('s', 'r3', 30, 'third question', 'third answer')) store.append(r);
    await store.flush();
  } finally {
    full = false;
    await store.close();
  }
  // Nothing half-written: every journal line parses, no temporary file is left.
  const files = readdirSync(dir, { recursive: true }).map(String);
  assert.deepEqual(
    files.filter((f) => f.includes('.tmp-')),
    [],
  );
  for (const f of files.filter((f) => f.endsWith('.jsonl')))
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean)) JSON.parse(line);

  const reopened = await open(dir);
  try {
    const s = reopened.getSession('s');
    assert.equal(s?.messages.length, 6, 'every acknowledged exchange opens after a restart');
    const texts = s?.messages.map((m) => m.parts.map((p) => (p.type === 'text' ? p.text : '')).join(''));
    assert.equal(texts?.[3], long);
    assert.equal(texts?.[5], 'third answer');
  } finally {
    await reopened.close();
    cleanup();
  }
});

test('disk full while history opens: records are kept, handed to the store, written once there is space', async () => {
  const { dir, cleanup } = tempDir('disk-full-lazy');
  let told = 0;
  let recovered = 0;
  const lazyLog = recordingLog();
  const lazy = openSessionStoreLazily({
    dir,
    log: lazyLog,
    onUnavailable: (err) => lazyLog.lines.push(`unavailable ${String(err)}`),
    sql: await sql(),
    wasmPath: WASM,
    writeRetryMs: 20,
    onWriteError: () => told++,
    onWriteRecovered: () => recovered++,
  });
  // The disk fills right after the window started opening history (its first, synchronous steps done).
  full = true;
  partial.clear();
  try {
    for (const r of [created('s', 1, 'Early'), ...exchange('s', 'r1', 10, 'question', 'answer')]) lazy.append(r);
    assert.equal(told, 1);
    full = false;
    assert.equal(await lazy.ready, true, lazyLog.lines.join('\n'));
    await until('written after space returned', () => lazy.unsavedRecords === 0 && recovered === 1);
    assert.equal(told, 1, 'told once in all');
    assert.equal(lazy.getSession('s')?.messages.length, 2);
  } finally {
    full = false;
    await lazy.close();
  }
  const reopened = await open(dir);
  try {
    assert.equal(reopened.getSession('s')?.messages.length, 2, 'the exchange opens after a restart');
  } finally {
    await reopened.close();
    cleanup();
  }
});
