import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs, statSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import {
  applyRewind,
  type Checkpoint,
  CheckpointRecorder,
  type CheckpointFiles,
  planRewind,
} from '../../../extension/core/checkpoints';
import { makeTempWorkspace } from '../../fixtures/node-ports';
import { type Env, POSIX, setup, snapshot, turn } from './helpers';

const utf16 = (s: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
const binary = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));

const ORIGINAL: Record<string, string | Uint8Array> = {
  'text.md': '# Title\n\nSome text.\n',
  'bin/blob.bin': binary,
  'crlf.txt': 'line one\r\nline two\r\n',
  'bom.ts': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('export const x = 1;\n')]),
  'utf16.txt': utf16('héllo wörld\r\n'),
  'empty.txt': '',
};

async function rewind(env: Env, cps: Checkpoint[], toIndex: number, overwrite?: string[]) {
  const plan = await planRewind(cps, toIndex, env.files, env.blobs);
  const result = await applyRewind(plan, { overwriteUserChanges: overwrite }, env.files, env.blobs);
  return { plan, result };
}

test('round trip: text, binary, CRLF, BOM, UTF-16 and empty files come back byte for byte', async () => {
  const env = await setup(ORIGINAL);
  const before = await snapshot(env.root);
  const cp = await turn(env, {
    'text.md': '# Changed\n',
    'bin/blob.bin': Buffer.from([1, 2, 3]),
    'crlf.txt': 'line one\nline two\n',
    'bom.ts': 'export const x = 2;\n',
    'utf16.txt': 'hello world\n',
    'empty.txt': 'no longer empty',
  });
  assert.notDeepEqual(await snapshot(env.root), before);
  const { plan, result } = await rewind(env, [cp], -1);
  assert.equal(plan.counts.restore, 6);
  assert.equal(plan.summary, '6 files will be restored');
  assert.equal(result.restored.length, 6);
  assert.deepEqual(await snapshot(env.root), before);
});

test('a created file is deleted and a deleted file recreated (with its permission bits)', async () => {
  const env = await setup({ 'keep.sh': '#!/bin/sh\necho hi\n', 'other.txt': 'x' });
  if (POSIX) await fs.chmod(env.abs('keep.sh'), 0o755);
  const before = await snapshot(env.root);
  const cp = await turn(env, { 'new/created.ts': 'export {};\n', 'keep.sh': null, 'other.txt': 'y' });
  assert.equal(await env.read('keep.sh'), undefined);
  const plan = await planRewind([cp], -1, env.files, env.blobs);
  assert.deepEqual(
    plan.files.map((f) => [f.displayPath, f.action]),
    [
      ['keep.sh', 'restore'],
      ['new/created.ts', 'delete'],
      ['other.txt', 'restore'],
    ],
  );
  assert.equal(plan.summary, '2 files will be restored, 1 deleted');
  const result = await applyRewind(plan, {}, env.files, env.blobs);
  assert.deepEqual(result.deleted, [env.abs('new/created.ts')]);
  const after = await snapshot(env.root);
  assert.deepEqual(after, before);
  if (POSIX) assert.equal(statSync(env.abs('keep.sh')).mode & 0o777, 0o755);
});

test('several turns: rewinding to the middle restores the state right after that turn', async () => {
  const env = await setup({ 'a.txt': 'a0', 'c.txt': 'c0' });
  const s0 = await snapshot(env.root);
  const cp0 = await turn(env, { 'a.txt': 'a1' });
  const s1 = await snapshot(env.root);
  const cp1 = await turn(env, { 'a.txt': 'a2', 'b.txt': 'b2' });
  const s2 = await snapshot(env.root);
  const cp2 = await turn(env, { 'a.txt': 'a3', 'b.txt': 'b3', 'c.txt': null });

  const s3 = await snapshot(env.root);
  const all = [cp0, cp1, cp2];

  // Straight to the middle: turns 1 and 2 undone.
  const mid = await planRewind(all, 0, env.files, env.blobs);
  assert.deepEqual(mid.undone, [cp1.id, cp2.id]);
  assert.deepEqual(
    mid.files.map((f) => [f.displayPath, f.action, f.checkpointIds.length]),
    [
      ['a.txt', 'restore', 2],
      ['b.txt', 'delete', 2],
      ['c.txt', 'restore', 1],
    ],
  );
  assert.equal(mid.summary, '2 files will be restored, 1 deleted');
  const back = await applyRewind(mid, {}, env.files, env.blobs);
  assert.deepEqual(await snapshot(env.root), s1);
  await rewind(env, [back.redo], -1);
  assert.deepEqual(await snapshot(env.root), s3);

  // One turn at a time; after each rewind the caller keeps the checkpoints up to the index.
  await rewind(env, all, 1);
  assert.deepEqual(await snapshot(env.root), s2);
  await rewind(env, all.slice(0, 2), 0);
  assert.deepEqual(await snapshot(env.root), s1);
  const { result } = await rewind(env, all.slice(0, 1), -1);
  assert.deepEqual(result.restored, [env.abs('a.txt')]);
  assert.deepEqual(await snapshot(env.root), s0);
});

test('a file the user edited since the agent is named in the preview, kept, overwritten when asked', async () => {
  const env = await setup({ 'src/x.ts': 'x0\n', 'src/y.ts': 'y0\n', 'z.ts': 'z0\n' });
  const cp = await turn(env, { 'src/x.ts': 'x1\n', 'src/y.ts': 'y1\n', 'z.ts': 'z1\n', 'new.ts': 'n\n' });
  await env.write('src/x.ts', 'x1 + my edit\n');
  const plan = await planRewind([cp], -1, env.files, env.blobs);
  const x = plan.files.find((f) => f.displayPath === 'src/x.ts')!;
  assert.equal(x.changedByUser, true);
  assert.equal(plan.files.filter((f) => f.changedByUser).length, 1);
  assert.deepEqual(plan.counts, { restore: 2, delete: 1, unchanged: 0, changedByUser: 1, skipped: 0 });
  assert.equal(plan.summary, '2 files will be restored, 1 deleted; src/x.ts was changed by you since and will be kept');

  const kept = await applyRewind(plan, {}, env.files, env.blobs);
  assert.deepEqual(kept.kept, [{ path: env.abs('src/x.ts'), reason: 'changed since the agent changed it' }]);
  assert.equal((await env.read('src/x.ts'))!.toString(), 'x1 + my edit\n');
  assert.equal((await env.read('src/y.ts'))!.toString(), 'y0\n');
  assert.equal(await env.read('new.ts'), undefined);

  const again = await planRewind([cp], -1, env.files, env.blobs);
  assert.deepEqual(
    again.files.filter((f) => f.action !== 'unchanged').map((f) => f.displayPath),
    ['src/x.ts'],
  );
  const forced = await applyRewind(again, { overwriteUserChanges: ['src/x.ts'] }, env.files, env.blobs);
  assert.deepEqual(forced.restored, [env.abs('src/x.ts')]);
  assert.equal((await env.read('src/x.ts'))!.toString(), 'x0\n');
  // The user's edit is not lost: the redo checkpoint holds it.
  assert.equal(Buffer.from((await env.blobs.get(forced.redo.files[0].hash!))!).toString(), 'x1 + my edit\n');
});

test('a file changed between the preview and the apply is kept', async () => {
  const env = await setup({ 'a.txt': 'a0', 'b.txt': 'b0' });
  const cp = await turn(env, { 'a.txt': 'a1', 'b.txt': 'b1' });
  const plan = await planRewind([cp], -1, env.files, env.blobs);
  await env.write('b.txt', 'typed during the preview');
  const r = await applyRewind(plan, {}, env.files, env.blobs);
  assert.deepEqual(r.restored, [env.abs('a.txt')]);
  assert.deepEqual(r.kept, [{ path: env.abs('b.txt'), reason: 'changed since the preview' }]);
  assert.equal((await env.read('b.txt'))!.toString(), 'typed during the preview');
  assert.deepEqual(
    r.redo.files.map((f) => f.path),
    [env.abs('a.txt')],
  );
});

test('redo after a rewind returns to the exact post-turn state, and undoing the redo rewinds again', async () => {
  const env = await setup({ ...ORIGINAL, 'gone.txt': 'will be deleted' });
  const cp0 = await turn(env, { 'text.md': 'changed\r\n', 'bin/blob.bin': binary.subarray(10), 'made.txt': 'm' });
  const cp1 = await turn(env, { 'utf16.txt': utf16('other'), 'gone.txt': null, 'made.txt': 'm2' });
  const postTurns = await snapshot(env.root);
  const { result } = await rewind(env, [cp0, cp1], -1);
  const rewound = await snapshot(env.root);
  assert.notDeepEqual(rewound, postTurns);
  assert.equal(result.redo.kind, 'redo');
  assert.deepEqual(JSON.parse(JSON.stringify(result.redo)), result.redo);

  const redo = await rewind(env, [result.redo], -1);
  assert.deepEqual(await snapshot(env.root), postTurns);
  assert.equal(redo.plan.counts.changedByUser, 0);

  await rewind(env, [redo.result.redo], -1);
  assert.deepEqual(await snapshot(env.root), rewound);
});

test('edits by the user between two undone turns are flagged', async () => {
  const env = await setup({ 'a.txt': 'a0' });
  const cp0 = await turn(env, { 'a.txt': 'a1' });
  await env.write('a.txt', 'user');
  const cp1 = await turn(env, { 'a.txt': 'a2' });
  const plan = await planRewind([cp0, cp1], -1, env.files, env.blobs);
  assert.equal(plan.files[0].editedBetweenTurns, true);
  assert.equal(plan.files[0].changedByUser, false);
  const one = await planRewind([cp0, cp1], 0, env.files, env.blobs);
  assert.equal(one.files[0].editedBetweenTurns, false);
  assert.equal(one.files[0].target.hash, cp1.files[0].hash);
});

test('entries outside the workspace, or now behind a symlink, are skipped with a reason and not touched', async () => {
  const outside = await makeTempWorkspace({ 'victim.txt': 'do not touch' });
  const env = await setup({ 'dir/in.txt': 'in0', 'ok.txt': 'ok0' });
  const cp = await turn(env, { 'dir/in.txt': 'in1', 'ok.txt': 'ok1' });
  // A checkpoint that (by tampering, or from another workspace) names a file outside.
  const forged: Checkpoint = {
    ...cp,
    files: [...cp.files, { ...cp.files[0], path: path.join(outside, 'victim.txt') }],
  };
  // And the folder replaced by a link to the outside since the checkpoint.
  await fs.rm(env.abs('dir'), { recursive: true });
  symlinkSync(outside, env.abs('dir'));
  await fs.writeFile(path.join(outside, 'in.txt'), 'outside in.txt');
  const plan = await planRewind([forged], -1, env.files, env.blobs);
  const byPath = Object.fromEntries(plan.files.map((f) => [f.path, f]));
  assert.equal(byPath[path.join(outside, 'victim.txt')].action, 'skip');
  assert.match(byPath[path.join(outside, 'victim.txt')].reason!, /outside the workspace folders/);
  assert.equal(byPath[env.abs('dir/in.txt')].action, 'skip');
  assert.match(byPath[env.abs('dir/in.txt')].reason!, /outside the workspace folders \(it resolves to/);
  assert.equal(plan.counts.skipped, 2);
  assert.match(plan.summary, /^1 file will be restored; .* cannot be rewound$/);
  const r = await applyRewind(plan, { overwriteUserChanges: [path.join(outside, 'victim.txt')] }, env.files, env.blobs);
  assert.deepEqual(r.restored, [env.abs('ok.txt')]);
  assert.equal(r.skipped.length, 2);
  assert.equal((await fs.readFile(path.join(outside, 'victim.txt'))).toString(), 'do not touch');
  assert.equal((await fs.readFile(path.join(outside, 'in.txt'))).toString(), 'outside in.txt');
});

test('a symlink inside the workspace planted since the checkpoint is not followed', async () => {
  const env = await setup({ 'a.txt': 'a0', 'b.txt': 'b0' });
  const cp = await turn(env, { 'a.txt': 'a1' });
  await fs.unlink(env.abs('a.txt'));
  symlinkSync(env.abs('b.txt'), env.abs('a.txt'));
  const plan = await planRewind([cp], -1, env.files, env.blobs);
  assert.equal(plan.files[0].action, 'skip');
  assert.match(plan.files[0].reason!, /symbolic link/);
  await applyRewind(plan, { overwriteUserChanges: [env.abs('a.txt')] }, env.files, env.blobs);
  assert.equal((await env.read('b.txt'))!.toString(), 'b0');
});

test('a file too large to checkpoint is reported in the preview and left alone', async () => {
  const env = await setup({ 'big.bin': Buffer.alloc(4096, 1), 'a.txt': 'a0' });
  const rec = new CheckpointRecorder(env.files, env.blobs, { turnId: 't', maxFileBytes: 1024 });
  for (const p of ['big.bin', 'a.txt']) await rec.beforeWrite(env.abs(p));
  await env.write('big.bin', Buffer.alloc(4096, 2));
  await env.write('a.txt', 'a1');
  const cp = await rec.finish();
  const plan = await planRewind([cp], -1, env.files, env.blobs);
  assert.equal(plan.files.find((f) => f.displayPath === 'big.bin')?.action, 'skip');
  assert.match(plan.summary, /big\.bin cannot be rewound \(not saved before the agent changed it: too large/);
  const r = await applyRewind(plan, {}, env.files, env.blobs);
  assert.deepEqual(r.restored, [env.abs('a.txt')]);
  assert.equal((await env.read('big.bin'))![0], 2);
});

test('a missing or damaged saved copy is reported, never written', async () => {
  const env = await setup({ 'a.txt': 'a0', 'b.txt': 'b0' });
  const cp = await turn(env, { 'a.txt': 'a1', 'b.txt': 'b1' });
  const blobs = env.blobs as import('../../../extension/core/checkpoints').FileCheckpointBlobs;
  await fs.rm(blobs.pathOf(cp.files[0].hash!));
  const plan = await planRewind([cp], -1, env.files, env.blobs);
  assert.equal(plan.files[0].reason, 'its saved copy is missing');
  await fs.writeFile(blobs.pathOf(cp.files[1].hash!), 'garbage');
  const r = await applyRewind(plan, {}, env.files, env.blobs);
  assert.deepEqual(
    r.skipped.map((s) => s.reason),
    ['its saved copy is missing', 'its saved copy is missing or damaged'],
  );
  assert.equal((await env.read('b.txt'))!.toString(), 'b1');
});

test('without a delete operation, created files are skipped; index bounds are checked', async () => {
  const env = await setup({});
  const cp = await turn(env, { 'n.txt': 'n' });
  const { deleteFile: _, ...noDelete } = env.files;
  const plan = await planRewind([cp], -1, noDelete as CheckpointFiles, env.blobs);
  assert.equal(plan.files[0].reason, 'files cannot be deleted here');
  const none = await planRewind([cp], 0, env.files, env.blobs);
  assert.deepEqual(none.files, []);
  assert.equal(none.summary, 'No files need to change');
  await assert.rejects(planRewind([cp], 1, env.files, env.blobs), RangeError);
  await assert.rejects(planRewind([cp], -2, env.files, env.blobs), RangeError);
});

test('many files across two workspace folders: all restored, shown as <folder>/<path>', async () => {
  const env = await setup({});
  const second = await makeTempWorkspace({});
  const files: CheckpointFiles = { ...env.files, roots: () => [env.root, second] };
  const local = { ...env, files };
  const names = Array.from({ length: 40 }, (_, i) => `d${i % 4}/f${i}.txt`);
  for (const n of names) await env.write(n, `v0 ${n}\n`);
  await fs.writeFile(path.join(second, 'other.txt'), 'o0');
  const before = [await snapshot(env.root), await snapshot(second)];
  const rec = new CheckpointRecorder(files, env.blobs, { turnId: 't' });
  for (const n of names) {
    await rec.beforeWrite(env.abs(n));
    await env.write(n, `v1 ${n}\n`);
  }
  await rec.beforeWrite(path.join(second, 'other.txt'));
  await fs.writeFile(path.join(second, 'other.txt'), 'o1');
  const cp = await rec.finish();
  const plan = await planRewind([cp], -1, files, env.blobs);
  assert.equal(plan.counts.restore, 41);
  assert.ok(plan.files.some((f) => f.displayPath === `${path.basename(second)}/other.txt`));
  assert.ok(plan.files.some((f) => f.displayPath === `${path.basename(env.root)}/d0/f0.txt`));
  const r = await applyRewind(plan, {}, files, env.blobs);
  assert.deepEqual(
    r.restored,
    plan.files.map((f) => f.path),
  );
  assert.deepEqual([await snapshot(env.root), await snapshot(second)], before);
  await rewind(local, [r.redo], -1);
  assert.equal((await fs.readFile(path.join(second, 'other.txt'))).toString(), 'o1');
});
