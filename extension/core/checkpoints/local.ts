// The file operations checkpoints need beyond the WorkspacePort, on Node's fs: delete a file, read
// and set its permission bits. `withLocalFileOps(workspace)` gives a CheckpointFiles for a port.
import { closeSync, constants, fstatSync, promises as fs, openSync, readSync } from 'node:fs';
import type { CheckpointFiles, FileNow } from './types';

/**
 * Files up to this size are read synchronously for a checkpoint: one open/fstat/read/close costs
 * microseconds, where the same through the thread pool costs a round trip each (and most of a 100-file
 * checkpoint's time). Larger files go the asynchronous way, so the extension host never stalls.
 */
const READ_NOW_BYTES = 1024 * 1024;

// Non-blocking, so opening a named pipe returns at once (then fstat says it is not a file) instead of
// waiting for a writer on the extension host's thread.
const READ_NONBLOCK = constants.O_NONBLOCK === undefined ? 'r' : constants.O_RDONLY | constants.O_NONBLOCK;

function readNow(absPath: string, maxBytes: number): FileNow | undefined {
  let fd: number;
  try {
    fd = openSync(absPath, READ_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? { kind: 'missing' } : undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { kind: 'other', type: st.isDirectory() ? 'directory' : 'other' };
    if (st.size > maxBytes) return { kind: 'large', size: st.size };
    if (st.size > READ_NOW_BYTES) return undefined;
    // One byte more than the size, to notice a file that grew since fstat (then: the slow way).
    const buf = Buffer.allocUnsafe(st.size + 1);
    let total = 0;
    for (;;) {
      const n = readSync(fd, buf, total, buf.length - total, null);
      if (n === 0) break;
      total += n;
      if (total === buf.length) return undefined;
    }
    const mode = process.platform === 'win32' ? undefined : st.mode & 0o7777;
    return { kind: 'file', bytes: buf.subarray(0, total), mode };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

export const localFileOps: Required<Pick<CheckpointFiles, 'deleteFile' | 'fileMode' | 'setFileMode' | 'readNow'>> = {
  readNow,
  deleteFile: (absPath) => fs.unlink(absPath),
  async fileMode(absPath) {
    if (process.platform === 'win32') return undefined;
    return (await fs.stat(absPath)).mode & 0o7777;
  },
  async setFileMode(absPath, mode) {
    if (process.platform === 'win32') return;
    if (((await fs.stat(absPath)).mode & 0o7777) !== mode) await fs.chmod(absPath, mode);
  },
};

/**
 * A workspace port (any `WorkspacePort` fits) plus the local delete and mode operations, for hosts
 * on the local disk and for tests.
 */
export function withLocalFileOps(workspace: CheckpointFiles): CheckpointFiles {
  return {
    roots: () => workspace.roots(),
    extraWriteRoots: () => workspace.extraWriteRoots?.() ?? [],
    readFile: (p, o) => workspace.readFile(p, o),
    writeFile: (p, d) => workspace.writeFile(p, d),
    stat: (p) => workspace.stat(p),
    realPath: (p) => workspace.realPath(p),
    ...localFileOps,
  };
}
