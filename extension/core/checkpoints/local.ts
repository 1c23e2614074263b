// The file operations checkpoints need beyond the WorkspacePort, on Node's fs: delete a file, read
// and set its permission bits. `withLocalFileOps(workspace)` gives a CheckpointFiles for a port.
import { promises as fs } from 'node:fs';
import type { CheckpointFiles } from './types';

export const localFileOps: Required<Pick<CheckpointFiles, 'deleteFile' | 'fileMode' | 'setFileMode'>> = {
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
