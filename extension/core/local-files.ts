// The plain file-system half of WorkspacePort, on Node's fs. The VS Code adapter adds the editor
// half (dirty text, undoable edits, notebooks, excludes) on top; the unit tests' Node ports use it
// as is — so the file operations the tests exercise are the ones the product runs.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { FileStat, ReadFileOptions, WorkspacePort } from './ports';

export type LocalFiles = Pick<WorkspacePort, 'readFile' | 'writeFile' | 'stat' | 'readDir' | 'realPath'>;

function kindOf(s: { isFile(): boolean; isDirectory(): boolean }): FileStat['type'] {
  return s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other';
}

export const localFiles: LocalFiles = {
  readFile: (absPath, options) => (options ? readBounded(absPath, options) : fs.readFile(absPath)),
  async writeFile(absPath, data) {
    await fs.mkdir(path.dirname(absPath), { recursive: true });
    await fs.writeFile(absPath, data);
  },
  async stat(absPath) {
    try {
      const s = await fs.lstat(absPath);
      if (!s.isSymbolicLink()) return { type: kindOf(s), size: s.size, mtimeMs: s.mtimeMs };
      // A link is described by what it points to (a dangling one as 'other').
      const t = await fs.stat(absPath).catch(() => undefined);
      return { type: t ? kindOf(t) : 'other', size: t?.size ?? 0, mtimeMs: t?.mtimeMs ?? 0 };
    } catch {
      return undefined;
    }
  },
  async readDir(absPath) {
    const entries = await fs.readdir(absPath, { withFileTypes: true });
    return entries.map((e) => ({ name: e.name, type: e.isSymbolicLink() ? 'symlink' : kindOf(e) }));
  },
  realPath: (absPath) => fs.realpath(absPath),
};

/**
 * Reads in chunks, never more than `maxBytes` (+1 to notice a larger file), checking the signal
 * between chunks: a file that grows, or a special file that never ends, cannot fill the memory.
 */
async function readBounded(absPath: string, options: ReadFileOptions): Promise<Uint8Array> {
  const limit = options.maxBytes ?? Number.POSITIVE_INFINITY;
  const handle = await fs.open(absPath, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      options.signal?.throwIfAborted();
      const want = Math.min(CHUNK, limit + 1 - total);
      if (want <= 0) break;
      const chunk = Buffer.allocUnsafe(want);
      const { bytesRead } = await handle.read(chunk, 0, want, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
    }
    if (total > limit) {
      throw Object.assign(new Error(`larger than ${limit} bytes`), { code: 'EFBIG' });
    }
    return Buffer.concat(chunks, total);
  } finally {
    await handle.close();
  }
}

const CHUNK = 1024 * 1024;
