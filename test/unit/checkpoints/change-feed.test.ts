// Command coverage with file events (the change watcher in a real worker thread, real inotify): after the
// first command, only the paths the events name are looked at, and what is recorded is still exact —
// byte-exact rewind in a 10,000-file repository, user edits between commands learned, new and renamed
// folders, a command in a real bubblewrap box. When the events cannot be trusted (a burst that may have
// overflowed the queue, a watch limit, the watcher gone) the whole folder is scanned, and that is said.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleChild } from '../store/child';
import {
  applyRewind,
  type CheckpointFiles,
  CheckpointRecorder,
  CommandCoverage,
  FileCheckpointBlobs,
  planRewind,
  type ScanReport,
  withLocalFileOps,
} from '../../../extension/core/checkpoints';
import { localFiles } from '../../../extension/core/local-files';
import { detectBackend } from '../../../extension/platform/sandbox/detect';
import { WorkerChangeFeed, type WorkerChangeFeedOptions } from '../../../extension/platform/watch/worker-change-feed';
import { makeGitWorkspace } from '../../fixtures/checkpoints/git-workspace';
import { repoFile } from '../../fixtures/node-ports';

const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-feed-test-')));
let watcherFile = '';
before(async () => {
  watcherFile = await bundleChild('extension/platform/watch/change-watcher.ts', 'change-watcher');
});
after(() => rmSync(scratch, { recursive: true, force: true }));

function sh(cwd: string, script: string): void {
  execFileSync('bash', ['-c', script], { cwd });
}

function setup(root: string, feedOptions: Partial<WorkerChangeFeedOptions> = {}) {
  const files: CheckpointFiles = withLocalFileOps({ roots: () => [root], ...localFiles });
  const blobs = new FileCheckpointBlobs(join(realpathSync(mkdtempSync(join(scratch, 'blobs-'))), 'checkpoints'));
  // A take never waits for time here: on a loaded machine a sentinel may take seconds (the product then scans).
  const feed = new WorkerChangeFeed({ file: watcherFile, lateMs: 600_000, ...feedOptions });
  const scans: ScanReport[] = [];
  const coverage = new CommandCoverage(files, blobs, { feed, onScan: (r) => scans.push(r) });
  /** Runs one command under coverage; returns its checkpoint and how the index was refreshed for it. */
  const command = async (run: () => unknown, turnId = `t${Math.random()}`) => {
    const from = scans.length;
    const rec = new CheckpointRecorder(files, blobs, { turnId, coverage });
    const done = await rec.beforeCommand();
    await run();
    await done();
    return { cp: await rec.finish(), scans: scans.slice(from) };
  };
  return { files, blobs, feed, coverage, command };
}

const rels = (root: string, cp: { files: Array<{ path: string }> }) =>
  cp.files.map((f) => f.path.slice(root.length + 1)).sort();

test('events: edit 3, create 1, delete 1 in 10,000 files — only those paths looked at; rewind byte-exact', async () => {
  const ws = makeGitWorkspace(10_000);
  const { files, blobs, feed, command } = setup(ws.root);
  try {
    const first = await command(() => writeFileSync(join(ws.root, 'warm.txt'), 'w\n'));
    assert.equal(first.scans[0].mode, 'full', 'the first command scans: the watch has just started');
    assert.equal(first.scans[1].mode, 'changes', JSON.stringify(first.scans));
    // The user edits a tracked file between commands: learned from the events, not from a scan.
    const userEdited = join(ws.root, ws.tracked[20]);
    writeFileSync(userEdited, 'the user wrote this\n');
    const edited = [ws.tracked[10], ws.tracked[4_321], 'notes.txt'].map((r) => join(ws.root, r));
    const removed = join(ws.root, ws.tracked[9_999]);
    const created = join(ws.root, 'src/created.ts');
    const expect = new Map<string, Buffer | undefined>(
      [...edited, removed, userEdited].map((p) => [p, readFileSync(p)]),
    );
    expect.set(created, undefined);
    const step = await command(() =>
      sh(
        ws.root,
        `printf x >> '${edited[0]}' && sed -i s/export/EXPORT/ '${edited[1]}' && printf y >> notes.txt && ` +
          `printf new > src/created.ts && rm '${removed}' && printf again >> '${userEdited}'`,
      ),
    );
    assert.deepEqual(
      step.scans.map((s) => s.mode),
      ['changes', 'changes'],
      `before and after looked only at changed paths: ${JSON.stringify(step.scans)}`,
    );
    assert.ok((step.scans[1].paths ?? 0) < 50, `a handful of paths, not the repository: ${step.scans[1].paths}`);
    assert.deepEqual(rels(ws.root, step.cp), [...expect.keys()].map((p) => p.slice(ws.root.length + 1)).sort());
    await applyRewind(await planRewind([step.cp], -1, files, blobs), {}, files, blobs);
    for (const [p, bytes] of expect) {
      if (bytes === undefined) assert.equal(existsSync(p), false, `${p} removed again`);
      else assert.deepEqual(readFileSync(p), bytes, `${p} restored byte-exact`);
    }
    assert.equal(readFileSync(userEdited, 'utf8'), 'the user wrote this\n', "the user's edit is what comes back");
  } finally {
    feed.dispose();
    rmSync(ws.root, { recursive: true, force: true, maxRetries: 5 });
  }
});

test('events: folders made, filled, renamed and removed by a command are recorded exactly', async () => {
  const ws = makeGitWorkspace(50);
  const { files, blobs, feed, command } = setup(ws.root);
  try {
    await command(() => undefined);
    const moved = ws.tracked.filter((r) => r.startsWith('src/d1/'));
    const before = new Map(moved.map((r) => [r, readFileSync(join(ws.root, r))]));
    const step = await command(() =>
      sh(
        ws.root,
        'mkdir -p gen/a/b && printf 1 > gen/a/b/one && printf 2 > gen/two && mv src/d1 src/moved && rm -r src/d2',
      ),
    );
    assert.ok(step.scans.every((s) => s.mode === 'changes'));
    const got = rels(ws.root, step.cp);
    for (const r of ['gen/a/b/one', 'gen/two', ...moved, ...ws.tracked.filter((t) => t.startsWith('src/d2/'))])
      assert.ok(got.includes(r), `${r} recorded`);
    for (const r of moved) assert.ok(got.includes(r.replace('src/d1/', 'src/moved/')), `${r} (moved) recorded`);
    await applyRewind(await planRewind([step.cp], -1, files, blobs), {}, files, blobs);
    for (const [r, bytes] of before) assert.deepEqual(readFileSync(join(ws.root, r)), bytes);
    assert.equal(existsSync(join(ws.root, 'gen/two')), false);
    assert.equal(existsSync(join(ws.root, 'src/moved', moved[0].slice('src/d1/'.length))), false);
  } finally {
    feed.dispose();
    rmSync(ws.root, { recursive: true, force: true, maxRetries: 5 });
  }
});

const box = detectBackend();
const noBox =
  box.ok && box.backend === 'bubblewrap' ? false : `no bubblewrap here: ${box.ok ? box.backend : box.reason}`;
test('events: a command in a bubblewrap box (bind-mounted workspace) is seen by the host watcher', {
  skip: noBox,
}, async () => {
  const ws = makeGitWorkspace(200);
  const { files, blobs, feed, command } = setup(ws.root);
  try {
    await command(() => undefined);
    const target = join(ws.root, ws.tracked[7]);
    const old = readFileSync(target);
    const step = await command(() =>
      execFileSync('bwrap', [
        '--ro-bind',
        '/',
        '/',
        '--dev',
        '/dev',
        '--proc',
        '/proc',
        '--tmpfs',
        '/tmp',
        '--bind',
        ws.root,
        ws.root,
        '--unshare-all',
        '--die-with-parent',
        '--chdir',
        ws.root,
        'sh',
        '-c',
        `printf boxed > '${target}' && printf made > boxed-new.txt`,
      ]),
    );
    assert.ok(
      step.scans.every((s) => s.mode === 'changes'),
      JSON.stringify(step.scans),
    );
    assert.deepEqual(rels(ws.root, step.cp), ['boxed-new.txt', ws.tracked[7]].sort());
    await applyRewind(await planRewind([step.cp], -1, files, blobs), {}, files, blobs);
    assert.deepEqual(readFileSync(target), old);
  } finally {
    feed.dispose();
    rmSync(ws.root, { recursive: true, force: true, maxRetries: 5 });
  }
});

test('events: a burst that may have overflowed the queue falls back to a full scan, and says so', async () => {
  const ws = makeGitWorkspace(50);
  const { feed, command } = setup(ws.root, { overflowAt: 40 });
  try {
    await command(() => undefined);
    const warm = await command(() => sh(ws.root, `printf w >> '${ws.tracked[0]}'`));
    assert.ok(warm.scans.every((s) => s.mode === 'changes'));
    // The worker stops reading (as a busy thread would); 100 files are made; their events arrive in one batch.
    const burst = await command(async () => {
      const release = await feed.hold();
      // (In a folder already watched: a new folder's files are found by scanning it, events or not.)
      sh(ws.root, 'for i in $(seq 100); do printf $i > src/burst-$i; done');
      release();
    });
    assert.equal(burst.scans[1].mode, 'full');
    assert.match(burst.scans[1].reason ?? '', /too many file events at once/);
    assert.equal(burst.cp.files.length, 100, 'every file found by the scan');
  } finally {
    feed.dispose();
    rmSync(ws.root, { recursive: true, force: true, maxRetries: 5 });
  }
});

test('events: past the watch limit, or with the watcher gone, every command scans (and says why)', async () => {
  const ws = makeGitWorkspace(50);
  const limited = setup(ws.root, { maxWatches: 3 });
  const gone = setup(ws.root, { file: join(scratch, 'no-such-watcher.cjs') });
  try {
    for (const s of [limited, gone]) {
      await s.command(() => undefined);
      const step = await s.command(() => sh(ws.root, `printf z >> '${ws.tracked[3]}'`));
      assert.deepEqual(
        step.scans.map((r) => r.mode),
        ['full', 'full'],
      );
      assert.deepEqual(rels(ws.root, step.cp), [ws.tracked[3]]);
    }
    const reasons = (s: typeof limited) => s.command(() => undefined).then((c) => c.scans[0].reason);
    assert.match((await reasons(limited)) ?? '', /more than 3 folders/);
    assert.match((await reasons(gone)) ?? '', /watcher/);
  } finally {
    limited.feed.dispose();
    gone.feed.dispose();
    rmSync(ws.root, { recursive: true, force: true, maxRetries: 5 });
  }
});

test('the built dist/change-watcher.js (as the runtime starts it) reports a change in a worker thread', async () => {
  const built = repoFile('dist/change-watcher.js');
  assert.ok(existsSync(built), 'dist/change-watcher.js is missing: build first (node esbuild.mjs)');
  const root = realpathSync(mkdtempSync(join(scratch, 'built-')));
  const feed = new WorkerChangeFeed({ file: built });
  try {
    feed.watch(root, { defaultDirs: [] });
    assert.equal((await feed.take(root)).trusted, false, 'the first take: the watch has just started');
    writeFileSync(join(root, 'a.txt'), 'a');
    assert.deepEqual(await feed.take(root), { trusted: true, paths: ['a.txt'] });
  } finally {
    feed.dispose();
  }
});
