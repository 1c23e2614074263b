// Command coverage: what a real shell command creates, changes and deletes in a real git repository is
// recorded in the turn's checkpoint and put back byte-exact by Rewind; ignored paths are left alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  applyRewind,
  type CheckpointFiles,
  CheckpointRecorder,
  CommandCoverage,
  FileCheckpointBlobs,
  IGNORED_NOTE,
  planRewind,
  withLocalFileOps,
} from '../../../extension/core/checkpoints';
import { localFiles } from '../../../extension/core/local-files';
import { fileBytes, makeGitWorkspace } from '../../fixtures/checkpoints/git-workspace';

function sh(cwd: string, script: string): void {
  execFileSync('bash', ['-c', script], { cwd });
}

function setup(root: string) {
  const files: CheckpointFiles = withLocalFileOps({ roots: () => [root], ...localFiles });
  const blobDir = join(realpathSync(mkdtempSync(join(tmpdir(), 'sextant-cov-blobs-'))), 'checkpoints');
  const blobs = new FileCheckpointBlobs(blobDir);
  const coverage = new CommandCoverage(files, blobs);
  return { files, blobs, coverage };
}

test('commands: edit 3, create 1, delete 1 in a 10,000-file repo; rewind restores all five byte-exact', async () => {
  const ws = makeGitWorkspace(10_000);
  const { files, blobs, coverage } = setup(ws.root);
  const [clean, dirty] = [ws.tracked[0], ws.tracked[1]];
  const deleted = ws.tracked[2];
  const before = new Map(
    [clean, dirty, 'notes.txt', deleted].map((rel) => [rel, readFileSync(join(ws.root, rel))] as const),
  );
  const rec = new CheckpointRecorder(files, blobs, { turnId: 't1', coverage });
  const after = await rec.beforeCommand();
  sh(
    ws.root,
    `sed -i 's/export/EXPORT/' ${clean} && printf 'dirty rewritten\\n' > ${dirty} && printf 'more\\n' >> notes.txt &&
     printf 'created\\n' > src/new.ts && rm ${deleted} &&
     printf 'x' > node_modules/dep/index.js && printf 'log' > build.log`,
  );
  await after();
  const cp = await rec.finish();
  const rels = cp.files.map((f) => f.path.slice(ws.root.length + 1)).sort();
  assert.deepEqual(
    rels,
    [clean, deleted, dirty, 'notes.txt', 'src/new.ts'].sort(),
    'exactly the five, no ignored path',
  );
  assert.ok(cp.notes?.includes(IGNORED_NOTE));

  const plan = await planRewind([cp], -1, files, blobs);
  const done = await applyRewind(plan, {}, files, blobs);
  assert.equal(done.restored.length, 4);
  assert.equal(done.deleted.length, 1);
  for (const [rel, bytes] of before) assert.deepEqual(readFileSync(join(ws.root, rel)), bytes, `${rel} byte-exact`);
  assert.deepEqual(readFileSync(join(ws.root, clean)), fileBytes(0));
  assert.equal(existsSync(join(ws.root, 'src/new.ts')), false, 'the created file is deleted');
  assert.equal(readFileSync(join(ws.root, 'node_modules/dep/index.js'), 'utf8'), 'x', 'ignored paths are left alone');
  assert.equal(readFileSync(join(ws.root, 'build.log'), 'utf8'), 'log');
});

test('commands: a file written before keeps its earlier state; later commands reuse copies', async () => {
  const ws = makeGitWorkspace(50);
  const { files, blobs, coverage } = setup(ws.root);
  const target = join(ws.root, ws.tracked[5]);
  const original = readFileSync(target);
  const rec = new CheckpointRecorder(files, blobs, { turnId: 't1', coverage });
  await rec.beforeWrite(target);
  writeFileSync(target, 'the agent wrote this\n');
  for (let i = 0; i < 3; i++) {
    const after = await rec.beforeCommand();
    sh(ws.root, `printf 'command ${i}\\n' > ${ws.tracked[5]} && printf '${i}' >> notes.txt`);
    await after();
  }
  const cp = await rec.finish();
  await applyRewind(await planRewind([cp], -1, files, blobs), {}, files, blobs);
  assert.deepEqual(readFileSync(target), original, 'back to before the turn, not before the last command');
  assert.equal(readFileSync(join(ws.root, 'notes.txt'), 'utf8'), 'untracked notes\n');
});

test('command coverage: a folder outside git is covered too, node_modules left out', async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-cov-plain-')));
  mkdirSync(join(root, 'node_modules'));
  writeFileSync(join(root, 'a.txt'), 'a\n');
  writeFileSync(join(root, 'node_modules/m.js'), 'm\n');
  const { files, blobs, coverage } = setup(root);
  const rec = new CheckpointRecorder(files, blobs, { turnId: 't', coverage });
  const after = await rec.beforeCommand();
  sh(root, `printf 'A' > a.txt && printf 'M' > node_modules/m.js && mkdir -p made && printf 'n' > made/n.txt`);
  await after();
  const cp = await rec.finish();
  assert.deepEqual(cp.files.map((f) => f.path.slice(root.length + 1)).sort(), ['a.txt', 'made/n.txt']);
  await applyRewind(await planRewind([cp], -1, files, blobs), {}, files, blobs);
  assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'a\n');
  assert.equal(existsSync(join(root, 'made/n.txt')), false);
  assert.equal(readFileSync(join(root, 'node_modules/m.js'), 'utf8'), 'M');
});

test('commands: a background job still running at finish is recorded as far as it got', async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-cov-bg-')));
  writeFileSync(join(root, 'a.txt'), 'a\n');
  const { files, blobs, coverage } = setup(root);
  const rec = new CheckpointRecorder(files, blobs, { turnId: 't', coverage });
  const after = await rec.beforeCommand();
  writeFileSync(join(root, 'a.txt'), 'changed by the job so far\n');
  const cp = await rec.finish();
  await after(); // the job ends after the turn: nothing more is recorded, and nothing throws
  assert.deepEqual(
    cp.files.map((f) => f.path),
    [join(root, 'a.txt')],
  );
});

test('commands: past the scan limit only files both scans saw count — nothing is taken for created', async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-cov-cap-')));
  for (let i = 0; i < 20; i++) writeFileSync(join(root, `f${String(i).padStart(2, '0')}.txt`), `${i}\n`);
  const files: CheckpointFiles = withLocalFileOps({ roots: () => [root], ...localFiles });
  const blobs = new FileCheckpointBlobs(join(realpathSync(mkdtempSync(join(tmpdir(), 'sextant-cov-b-'))), 'c'));
  const coverage = new CommandCoverage(files, blobs, { maxScanEntries: 10 });
  const rec = new CheckpointRecorder(files, blobs, { turnId: 't', coverage });
  const after = await rec.beforeCommand();
  sh(root, 'printf x > a-new.txt && for f in *.txt; do printf y >> "$f"; done');
  await after();
  const cp = await rec.finish();
  assert.ok(
    cp.files.every((f) => f.existed),
    'no file recorded as created (a rewind would delete it)',
  );
  assert.ok(cp.files.length > 0 && cp.files.length <= 10);
  assert.ok(cp.notes?.some((n) => n.includes('more than 10 files')));
});
