// Checkpoint and rewind cost per turn on a real temporary workspace with the file-system blob
// store, as the controller does it: a turn touching 1, 10 or 100 files of 10 KB (beforeWrite for each
// + finish + the turn_checkpoint record appended to a real session store's journal; the agent's own
// writes are not timed), then the rewind of that turn (planRewind + applyRewind).
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  applyRewind,
  type CheckpointFiles,
  CheckpointRecorder,
  FileCheckpointBlobs,
  planRewind,
  withLocalFileOps,
} from '../../extension/core/checkpoints';
import { localFiles } from '../../extension/core/local-files';
import { openSessionStore, type SessionStore } from '../../extension/core/store';

const ROUNDS = Number(process.env.CHECKPOINT_ROUNDS ?? 30);
const SIZES = (process.env.CHECKPOINT_FILES ?? '1,10,100').split(',').map(Number);
const FILE_BYTES = 10 * 1024;

const pct = (xs: Float64Array, p: number) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const ms = (v: number) => `${v.toFixed(2)} ms`;

let seed = 7;
/** 10 KB of printable pseudo-random text, different on every call (so every turn stores new blobs). */
function content(): Buffer {
  const b = Buffer.allocUnsafe(FILE_BYTES);
  for (let i = 0; i < FILE_BYTES; i++) {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    b[i] = i % 64 === 63 ? 10 : 32 + (seed % 95);
  }
  return b;
}

interface Row {
  checkpoint: number[];
  plan: number[];
  apply: number[];
}

const log = { info() {}, warn: (m: string) => console.error(`warn ${m}`), error: (m: string) => console.error(m) };

async function measure(count: number, fsync: boolean): Promise<Row> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-bench-checkpoints-')));
  let store: SessionStore | undefined;
  try {
    store = await openSessionStore({
      dir: join(dir, 'store'),
      wasmPath: join(process.cwd(), 'node_modules/sql.js/dist/sql-wasm.wasm'),
      log,
      snapshotDelayMs: 3_600_000,
      snapshotMaxDelayMs: 3_600_000,
    });
    store.append({ kind: 'session_created', sessionId: 's', title: 'bench', mode: 'agent', model: 'm', at: 0 });
    const ws = join(dir, 'ws');
    const paths = Array.from({ length: count }, (_, i) => join(ws, `src/m${i % 10}/file${i}.ts`));
    const files: CheckpointFiles = withLocalFileOps({ roots: () => [ws], ...localFiles });
    const blobs = new FileCheckpointBlobs(join(dir, 'blobs'), { fsync });
    for (const p of paths) await files.writeFile(p, content());
    const row: Row = { checkpoint: [], plan: [], apply: [] };
    for (let r = 0; r < ROUNDS + 2; r++) {
      // Fresh content before each turn, so the checkpoint stores new blobs as a real turn would.
      for (const p of paths) writeFileSync(p, content());
      const next = paths.map(() => content());
      const rec = new CheckpointRecorder(files, blobs, { turnId: `t${r}` });
      let spent = 0;
      for (let i = 0; i < paths.length; i++) {
        const t = performance.now();
        const res = await rec.beforeWrite(paths[i]);
        spent += performance.now() - t;
        if (!res.recorded) throw new Error(res.reason);
        writeFileSync(paths[i], next[i]); // the agent's write: not timed
      }
      let t = performance.now();
      const cp = await rec.finish();
      store.append({
        kind: 'turn_checkpoint',
        sessionId: 's',
        checkpoint: { userMessageId: `u${r}`, requestId: `t${r}`, modelIndex: r * 2, files: cp },
        at: r,
      });
      spent += performance.now() - t;
      t = performance.now();
      const plan = await planRewind([cp], -1, files, blobs);
      const planMs = performance.now() - t;
      t = performance.now();
      const done = await applyRewind(plan, {}, files, blobs);
      const applyMs = performance.now() - t;
      if (done.restored.length !== count) throw new Error(`restored ${done.restored.length} of ${count}`);
      if (r < 2) continue; // warm-up
      row.checkpoint.push(spent);
      row.plan.push(planMs);
      row.apply.push(applyMs);
    }
    return row;
  } finally {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function stats(samples: number[]): string {
  const xs = Float64Array.from(samples).sort();
  return `${ms(pct(xs, 0.5)).padStart(10)} ${ms(pct(xs, 0.95)).padStart(10)}`;
}

async function main() {
  console.log(`\n## Checkpoint and rewind per turn (${ROUNDS} turns each, 10 KB files, Node ${process.version})`);
  const head = ['median', 'p95'].map((h) => h.padStart(10)).join(' ');
  console.log(`${''.padEnd(28)} ${'checkpoint'.padStart(21)}   ${'restore (plan+apply)'.padStart(21)}`);
  console.log(`${'files  blob store'.padEnd(28)} ${head}   ${head}   plan / apply (median)`);
  for (const fsync of [true, false]) {
    for (const n of SIZES) {
      const row = await measure(n, fsync);
      const restore = row.plan.map((p, i) => p + row.apply[i]);
      const label = `${String(n).padStart(5)}  ${fsync ? 'fs, fdatasync' : 'fs, no fsync'}`;
      const median = (xs: number[]) => ms(pct(Float64Array.from(xs).sort(), 0.5));
      const split = `${median(row.plan)} / ${median(row.apply)}`;
      console.log(`${label.padEnd(28)} ${stats(row.checkpoint)}   ${stats(restore)}   ${split}`);
    }
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
