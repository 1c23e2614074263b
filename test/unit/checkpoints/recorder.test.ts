import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import {
  CheckpointRecorder,
  CheckpointSchema,
  MemoryCheckpointBlobs,
  sha256Hex,
} from '../../../extension/core/checkpoints';
import { makeTempWorkspace } from '../../fixtures/node-ports';
import { blobFiles, POSIX, setup, turn } from './helpers';

test('beforeWrite records the prior state once per turn; finish records the after-state hashes', async () => {
  const env = await setup({ 'a.txt': 'one\n' });
  const rec = new CheckpointRecorder(env.files, env.blobs, { turnId: 't1', now: () => 42, newId: () => 'cp1' });
  const first = await rec.beforeWrite(env.abs('a.txt'));
  assert.deepEqual(first, { recorded: true, path: env.abs('a.txt'), first: true });
  await env.write('a.txt', 'two\n');
  const again = await rec.beforeWrite(env.abs('a.txt'));
  assert.equal(again.recorded && again.first, false);
  await env.write('a.txt', 'three\n');
  await rec.beforeWrite(env.abs('new/b.txt'));
  await env.write('new/b.txt', 'b\n');
  const cp = await rec.finish();
  assert.deepEqual(cp, {
    version: 1,
    id: 'cp1',
    createdAt: 42,
    turnId: 't1',
    kind: 'turn',
    skipped: [],
    files: [
      {
        path: env.abs('a.txt'),
        existed: true,
        hash: sha256Hex(Buffer.from('one\n')),
        size: 4,
        ...(POSIX ? { mode: cp.files[0].mode } : {}),
        after: { existed: true, hash: sha256Hex(Buffer.from('three\n')) },
      },
      { path: env.abs('new/b.txt'), existed: false, after: { existed: true, hash: sha256Hex(Buffer.from('b\n')) } },
    ],
  });
  assert.deepEqual(Buffer.from((await env.blobs.get(cp.files[0].hash!))!).toString(), 'one\n');
  // Small and JSON-serialisable: parses back through the schema unchanged.
  assert.deepEqual(CheckpointSchema.parse(JSON.parse(JSON.stringify(cp))), cp);
  assert.ok(JSON.stringify(cp).length < 600);
  const late = await rec.beforeWrite(env.abs('a.txt'));
  assert.equal(late.recorded, false);
});

test('concurrent beforeWrite calls for one path share one capture', async () => {
  const env = await setup({ 'a.txt': 'one\n' });
  const blobs = new MemoryCheckpointBlobs();
  const rec = new CheckpointRecorder(env.files, blobs, { turnId: 't' });
  const rs = await Promise.all([1, 2, 3].map(() => rec.beforeWrite(env.abs('a.txt'))));
  // Which call wins the race is up to the event loop; exactly one of them captures.
  assert.equal(rs.filter((r) => r.recorded && r.first).length, 1);
  assert.ok(rs.every((r) => r.recorded));
  assert.equal((await rec.finish()).files.length, 1);
  assert.equal(blobs.writes, 1);
});

test('a path outside the workspace is refused, directly, through .. and through a symlink', async () => {
  const outside = await makeTempWorkspace({ 'secret.txt': 'x' });
  const env = await setup({ 'in.txt': 'in' });
  symlinkSync(outside, env.abs('link'));
  const rec = new CheckpointRecorder(env.files, env.blobs, { turnId: 't' });
  for (const p of [path.join(outside, 'secret.txt'), `${env.root}/../${path.basename(outside)}/secret.txt`]) {
    const r = await rec.beforeWrite(p);
    assert.equal(r.recorded, false);
    assert.match(!r.recorded ? r.reason : '', /outside the workspace/);
  }
  const viaLink = await rec.beforeWrite(env.abs('link/secret.txt'));
  assert.equal(viaLink.recorded, false);
  assert.match(!viaLink.recorded ? viaLink.reason : '', /outside the workspace folders \(it resolves to /);
  const rel = await rec.beforeWrite('in.txt');
  assert.match(!rel.recorded ? rel.reason : '', /not an absolute path/);
  const cp = await rec.finish();
  assert.equal(cp.files.length, 0);
  assert.equal(cp.skipped.length, 4);
});

test('a file over the size limit is skipped with a reason, not stored', async () => {
  const env = await setup({ 'big.bin': Buffer.alloc(2048, 7), 'small.txt': 'ok' });
  const blobs = new MemoryCheckpointBlobs();
  const rec = new CheckpointRecorder(env.files, blobs, { turnId: 't', maxFileBytes: 1024 });
  const big = await rec.beforeWrite(env.abs('big.bin'));
  assert.equal(big.recorded, false);
  assert.match(!big.recorded ? big.reason : '', /too large to keep a copy \(0\.0 MB, limit 0\.0 MB\)/);
  assert.equal((await rec.beforeWrite(env.abs('small.txt'))).recorded, true);
  const cp = await rec.finish();
  assert.deepEqual(
    cp.skipped.map((s) => s.path),
    [env.abs('big.bin')],
  );
  assert.equal(blobs.blobs.size, 1);
});

test('a folder is not a file to checkpoint', async () => {
  const env = await setup({ 'dir/x.txt': 'x' });
  const rec = new CheckpointRecorder(env.files, env.blobs, { turnId: 't' });
  const r = await rec.beforeWrite(env.abs('dir'));
  assert.match(!r.recorded ? r.reason : '', /not a regular file \(directory\)/);
});

test('identical content is stored once across files and turns', async () => {
  const same = 'the same content\n'.repeat(100);
  const env = await setup({ 'a.txt': same, 'b.txt': same, 'c/d.txt': same });
  const blobs = new MemoryCheckpointBlobs();
  const local = { ...env, blobs };
  await turn(local, { 'a.txt': 'changed', 'b.txt': 'changed', 'c/d.txt': 'changed' });
  await turn(local, { 'a.txt': same, 'b.txt': 'other' });
  // Turn 1 stored `same` once; turn 2 stored `changed` (a and b before it) once.
  assert.equal(blobs.blobs.size, 2);
  assert.equal(blobs.writes, 2);
});

test('the file-system store keeps one blob per distinct content across turns', async () => {
  const same = Buffer.alloc(10_000, 'x');
  const env = await setup({ 'a.txt': same, 'b.txt': same });
  await turn(env, { 'a.txt': 'A', 'b.txt': 'A' });
  await turn(env, { 'a.txt': same, 'b.txt': 'B' });
  assert.equal(blobFiles(env.blobDir).length, 2);
  assert.equal((await fs.readdir(env.blobDir)).length, 2);
});
