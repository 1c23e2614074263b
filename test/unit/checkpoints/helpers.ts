// Shared by the checkpoint tests: a real temporary workspace with the Node ports, the local delete
// and mode operations, and a "turn" that checkpoints then writes or deletes files like the agent.
import { promises as fs, readdirSync, realpathSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  type Checkpoint,
  type CheckpointBlobs,
  type CheckpointFiles,
  CheckpointRecorder,
  FileCheckpointBlobs,
  withLocalFileOps,
} from '../../../extension/core/checkpoints';
import { createNodePorts, makeTempWorkspace } from '../../fixtures/node-ports';

export interface Env {
  root: string;
  files: CheckpointFiles;
  blobs: CheckpointBlobs;
  blobDir: string;
  abs(rel: string): string;
  read(rel: string): Promise<Buffer | undefined>;
  write(rel: string, content: string | Uint8Array): Promise<void>;
}

export async function setup(initial: Record<string, string | Uint8Array> = {}): Promise<Env> {
  const root = await makeTempWorkspace(initial);
  const blobDir = path.join(realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'sextant-blobs-'))), 'blobs');
  const files = withLocalFileOps(createNodePorts({ root }).workspace);
  const abs = (rel: string) => path.join(root, rel);
  return {
    root,
    files,
    blobs: new FileCheckpointBlobs(blobDir),
    blobDir,
    abs,
    read: (rel) => fs.readFile(abs(rel)).catch(() => undefined),
    async write(rel, content) {
      await fs.mkdir(path.dirname(abs(rel)), { recursive: true });
      await fs.writeFile(abs(rel), content);
    },
  };
}

let turnNo = 0;

/** One agent turn: beforeWrite for each path, then the write (null deletes), then finish(). */
export async function turn(env: Env, changes: Record<string, string | Uint8Array | null>): Promise<Checkpoint> {
  const rec = new CheckpointRecorder(env.files, env.blobs, { turnId: `turn-${++turnNo}` });
  for (const [rel, content] of Object.entries(changes)) {
    const r = await rec.beforeWrite(env.abs(rel));
    if (!r.recorded) throw new Error(`${rel} not recorded: ${r.reason}`);
    if (content === null) await fs.unlink(env.abs(rel));
    else await env.write(rel, content);
  }
  return rec.finish();
}

/** Every file under the workspace, relative path → bytes (hex), for exact comparisons. */
export async function snapshot(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string) => {
    for (const e of await fs.readdir(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else out[path.relative(root, p).split(path.sep).join('/')] = (await fs.readFile(p)).toString('hex');
    }
  };
  await walk(root);
  return out;
}

/** Blob files in a FileCheckpointBlobs folder (temporary files excluded). */
export function blobFiles(dir: string): string[] {
  const out: string[] = [];
  let subs: string[] = [];
  try {
    subs = readdirSync(dir);
  } catch {
    return out;
  }
  for (const sub of subs) {
    const d = path.join(dir, sub);
    if (!statSync(d).isDirectory()) continue;
    for (const f of readdirSync(d)) if (!f.startsWith('.')) out.push(path.join(d, f));
  }
  return out;
}

export const POSIX = process.platform !== 'win32';
