// Crash safety of a checkpoint's batched durability: a child runs one turn and is SIGKILLed at each
// file-system step in turn (every staged write, fdatasync, rename, folder sync and the record). After
// each kill the checkpoint is either not recorded (the old state: nothing refers to any new blob) or
// recorded with every blob it names readable and exact — never a record that names a torn blob.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  applyRewind,
  CheckpointSchema,
  FileCheckpointBlobs,
  planRewind,
  sha256Hex,
  withLocalFileOps,
} from '../../../extension/core/checkpoints';
import { localFiles } from '../../../extension/core/local-files';
import { bundleChild } from '../store/child';

const FILES = 4;

test('checkpoint: SIGKILL at any step finds the old state or the whole new one, never a torn one', async () => {
  const script = await bundleChild('test/fixtures/checkpoints/checkpoint-child.ts', 'checkpoint-child');
  let completed = false;
  let killedRuns = 0;
  for (let killAt = 1; !completed && killAt < 200; killAt++) {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-cp-crash-')));
    try {
      const ws = join(dir, 'ws');
      mkdirSync(ws);
      const original = new Map<string, string>();
      for (let i = 0; i < FILES; i++) {
        const text = `original ${i} ${'x'.repeat(i * 5000)}\n`;
        writeFileSync(join(ws, `f${i}.txt`), text);
        original.set(join(ws, `f${i}.txt`), text);
      }
      const record = join(dir, 'record.json');
      const r = spawnSync(process.execPath, [script, ws, join(dir, 'blobs'), record, String(killAt)], {
        encoding: 'utf8',
      });
      if (r.signal === 'SIGKILL') killedRuns++;
      else {
        assert.equal(r.status, 0, r.stderr);
        assert.match(r.stdout, /^done \d+/);
        completed = true;
      }
      if (!existsSync(record)) continue; // the old state: nothing recorded, nothing to trust
      const cp = CheckpointSchema.parse(JSON.parse(readFileSync(record, 'utf8')));
      assert.equal(cp.files.length, FILES, `kill at step ${killAt}: a recorded checkpoint names every file`);
      // A fresh store over the folder (no in-memory state): every blob named is there and exact.
      const blobs = new FileCheckpointBlobs(join(dir, 'blobs'));
      for (const f of cp.files) {
        const bytes = await blobs.get(f.hash as string);
        assert.ok(bytes, `kill at step ${killAt}: blob of ${f.path} readable`);
        assert.equal(sha256Hex(bytes), f.hash);
        assert.equal(Buffer.from(bytes).toString(), original.get(f.path));
      }
      const files = withLocalFileOps({ roots: () => [ws], ...localFiles });
      const done = await applyRewind(await planRewind([cp], -1, files, blobs), {}, files, blobs);
      assert.equal(done.restored.length, FILES);
      for (const [p, text] of original) assert.equal(readFileSync(p, 'utf8'), text);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  assert.ok(completed, 'the child finished once no kill step was left');
  assert.ok(killedRuns >= FILES * 3, `killed at ${killedRuns} distinct steps`);
});
