import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileCheckpointBlobs, MemoryCheckpointBlobs, sha256Hex } from '../../../extension/core/checkpoints';
import { blobFiles, POSIX } from './helpers';

async function tempBlobs() {
  const dir = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'sextant-blobs-')), 'store');
  return { dir, blobs: new FileCheckpointBlobs(dir) };
}

test('file blobs: stored under <aa>/<sha256>, read back exactly, identical content stored once', async () => {
  const { dir, blobs } = await tempBlobs();
  const bytes = Uint8Array.from([0, 255, 13, 10, 0xef, 0xbb, 0xbf, 1, 2, 3]);
  const hash = await blobs.put(bytes);
  await blobs.sync([hash]);
  assert.equal(hash, sha256Hex(bytes));
  assert.match(hash, /^[0-9a-f]{64}$/);
  assert.equal(blobs.pathOf(hash), path.join(dir, hash.slice(0, 2), hash));
  assert.deepEqual(Buffer.from((await blobs.get(hash))!), Buffer.from(bytes));
  assert.equal(await blobs.has(hash), true);
  assert.equal(await blobs.put(Uint8Array.from(bytes)), hash);
  await blobs.sync(
    await Promise.all([blobs.put(new Uint8Array(5)), blobs.put(new Uint8Array(5)), blobs.put(new Uint8Array(5))]),
  );
  assert.equal(blobFiles(dir).length, 2);
  assert.equal(await blobs.has('0'.repeat(64)), false);
  assert.equal(await blobs.get('0'.repeat(64)), undefined);
  assert.equal(await blobs.get('../../etc/passwd'), undefined);
  assert.equal(await blobs.has('../../etc/passwd'), false);
});

test('file blobs: an empty file is a blob too', async () => {
  const { blobs } = await tempBlobs();
  const hash = await blobs.put(new Uint8Array(0));
  assert.equal((await blobs.get(hash))?.byteLength, 0);
});

test('file blobs: a damaged blob reads as missing, never as wrong bytes', async () => {
  const { blobs } = await tempBlobs();
  const hash = await blobs.put(Buffer.from('original'));
  await blobs.sync([hash]);
  await fs.writeFile(blobs.pathOf(hash), 'tampered');
  assert.equal(await blobs.get(hash), undefined);
});

test('file blobs: files 0600, folders 0700, no temporary files left', { skip: !POSIX }, async () => {
  const { dir, blobs } = await tempBlobs();
  const hash = await blobs.put(Buffer.from('secret'));
  await blobs.sync([hash]);
  assert.equal(statSync(blobs.pathOf(hash)).mode & 0o777, 0o600);
  assert.equal(statSync(path.dirname(blobs.pathOf(hash))).mode & 0o777, 0o700);
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  assert.deepEqual(await fs.readdir(path.dirname(blobs.pathOf(hash))), [hash]);
});

test('file blobs: put stages the bytes (readable at once, no name yet); sync names all in one pass', async () => {
  const { dir, blobs } = await tempBlobs();
  const hashes = await Promise.all(['a', 'b', 'c', 'd'].map((t) => blobs.put(Buffer.from(t.repeat(100)))));
  assert.equal(blobFiles(dir).length, 0, 'nothing carries a hash name before sync');
  for (const h of hashes) {
    assert.equal(await blobs.has(h), true);
    assert.equal(Buffer.from((await blobs.get(h))!).toString()[0], Buffer.from((await blobs.get(h))!).toString()[1]);
  }
  await blobs.sync(hashes.slice(0, 2));
  assert.equal(blobFiles(dir).length, 2);
  await blobs.sync(hashes);
  assert.deepEqual(
    blobFiles(dir)
      .map((f) => path.basename(f))
      .sort(),
    [...hashes].sort(),
  );
  const staged = (await fs.readdir(dir, { recursive: true })).filter((f) =>
    path.basename(String(f)).startsWith('.tmp-'),
  );
  assert.deepEqual(staged, [], 'no staged file left after sync');
  // A second store over the same folder finds the synced blobs (durable names, not in-memory state).
  const again = new FileCheckpointBlobs(dir);
  for (const h of hashes) assert.equal(await again.has(h), true);
});

test('memory blobs: keep copies and count distinct writes', async () => {
  const blobs = new MemoryCheckpointBlobs();
  const bytes = Buffer.from('abc');
  const hash = await blobs.put(bytes);
  bytes[0] = 0x7a;
  assert.equal(Buffer.from((await blobs.get(hash))!).toString(), 'abc');
  await blobs.put(Buffer.from('abc'));
  assert.equal(blobs.writes, 1);
  assert.equal(blobs.blobs.size, 1);
});
