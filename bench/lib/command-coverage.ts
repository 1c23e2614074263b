// Command coverage cost on a real git repository (COVERAGE_FILES tracked files, one modified, one
// untracked, node_modules ignored). Each step is one agent command that edits 3 files, creates 1 and
// deletes 1 (done with fs calls here, so the command's own time is not measured); timed: the recorder's
// beforeCommand() + after() + finish() (blobs made durable). Then Rewind of the last step, checked
// byte-exact, and the checkpoint folder's size after all steps.
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  applyRewind,
  CheckpointRecorder,
  CommandCoverage,
  FileCheckpointBlobs,
  planRewind,
  withLocalFileOps,
} from '../../extension/core/checkpoints';
import { localFiles } from '../../extension/core/local-files';
import { WorkerChangeFeed } from '../../extension/platform/watch/worker-change-feed';
import { makeGitWorkspace } from '../../test/fixtures/checkpoints/git-workspace';

const FILES = Number(process.env.COVERAGE_FILES ?? 10_000);
const STEPS = Number(process.env.COVERAGE_STEPS ?? 100);
const MODES = (process.env.COVERAGE_MODES ?? 'events,scans').split(',');

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const ms = (v: number) => `${v.toFixed(1)} ms`;

function du(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    files++;
    bytes += statSync(join(e.parentPath ?? (e as unknown as { path: string }).path, e.name)).size;
  }
  return { files, bytes };
}

async function run(mode: string) {
  let t = performance.now();
  const ws = makeGitWorkspace(FILES);
  console.log(`\n## Command coverage (${mode === 'events' ? 'file events' : 'full stat scans, no events'}):`);
  console.log(
    `${FILES} tracked files, ${STEPS} commands (Node ${process.version}); ` +
      `repository made in ${ms(performance.now() - t)}`,
  );
  const files = withLocalFileOps({ roots: () => [ws.root], ...localFiles });
  const blobDir = join(realpathSync(mkdtempSync(join(tmpdir(), 'sextant-bench-cov-'))), 'checkpoints');
  const blobs = new FileCheckpointBlobs(blobDir);
  const feed =
    mode === 'events' ? new WorkerChangeFeed({ file: process.env.SEXTANT_CHANGE_WATCHER as string }) : undefined;
  const scans = new Map<string, number>();
  const coverage = new CommandCoverage(files, blobs, {
    ...(feed ? { feed } : {}),
    onScan: (r) => {
      const k = r.mode === 'full' ? `full scan (${r.reason})` : 'changed paths only';
      scans.set(k, (scans.get(k) ?? 0) + 1);
    },
  });
  const before: number[] = [];
  const after: number[] = [];
  const finish: number[] = [];
  let last:
    | { cp: Awaited<ReturnType<CheckpointRecorder['finish']>>; expect: Map<string, Buffer | undefined> }
    | undefined;
  try {
    for (let s = 0; s < STEPS; s++) {
      const rec = new CheckpointRecorder(files, blobs, { turnId: `t${s}`, coverage });
      const edited = [ws.tracked[(s * 3) % FILES], ws.tracked[(s * 3 + 1) % FILES], 'notes.txt'].map((r) =>
        join(ws.root, r),
      );
      const removed = join(ws.root, ws.tracked[FILES - 1 - s]);
      const created = join(ws.root, `src/created-${s}.ts`);
      const expect = new Map<string, Buffer | undefined>([...edited, removed].map((p) => [p, readFileSync(p)]));
      expect.set(created, undefined);
      t = performance.now();
      const done = await rec.beforeCommand();
      before.push(performance.now() - t);
      // The command: edit 3, create 1, delete 1 (not timed).
      for (const p of edited) writeFileSync(p, `${readFileSync(p, 'utf8')}// step ${s}\n`);
      writeFileSync(created, `export const created${s} = true;\n`);
      unlinkSync(removed);
      t = performance.now();
      await done();
      after.push(performance.now() - t);
      t = performance.now();
      const cp = await rec.finish();
      finish.push(performance.now() - t);
      if (cp.files.length !== 5) throw new Error(`step ${s}: recorded ${cp.files.length} files, not 5`);
      last = { cp, expect };
    }
    const first = before[0] + after[0] + finish[0];
    const warm = before.slice(1).map((b, i) => b + after[i + 1] + finish[i + 1]);
    console.log(`first command (reads git's ignore list and index, copies untracked/modified files): ${ms(first)}`);
    console.log(`warm, per command:      median ${ms(pct(warm, 0.5))}   p95 ${ms(pct(warm, 0.95))}`);
    console.log(
      `  before / after / finish: ${[before, after, finish].map((xs) => ms(pct(xs.slice(1), 0.5))).join(' / ')}`,
    );
    console.log(`  index refreshes: ${[...scans].map(([k, n]) => `${n} × ${k}`).join(', ')}`);
    const disk = du(blobDir);
    console.log(`checkpoint folder after ${STEPS} commands: ${disk.files} files, ${(disk.bytes / 1024).toFixed(0)} KB`);
    if (last) {
      t = performance.now();
      await applyRewind(await planRewind([last.cp], -1, files, blobs), {}, files, blobs);
      const rewindMs = performance.now() - t;
      for (const [p, bytes] of last.expect) {
        const ok = bytes === undefined ? !existsSync(p) : Buffer.compare(readFileSync(p), bytes) === 0;
        if (!ok) throw new Error(`rewind did not restore ${p}`);
      }
      console.log(`rewind of the last command: 5 files restored byte-exact in ${ms(rewindMs)}`);
    }
  } finally {
    feed?.dispose();
    rmSync(ws.root, { recursive: true, force: true });
    rmSync(blobDir, { recursive: true, force: true });
  }
}

async function main() {
  for (const mode of MODES) await run(mode);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
