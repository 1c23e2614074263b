// Turn checkpoints for a chat: file contents as content-addressed blobs in global storage, never in the
// user's repository; one store for the window's chats, each over its own workspace (a worktree chat's
// is its worktree).
import * as path from 'node:path';
import { checkpointStorage, FileCheckpointBlobs, withLocalFileOps } from '../core/checkpoints';
import type { Logger, WorkspacePort } from '../core/ports';
import type { WorkerChangeFeed } from '../platform/watch/worker-change-feed';

export function windowCheckpoints(globalStorage: string, changeFeed: WorkerChangeFeed, log: Logger) {
  const blobs = new FileCheckpointBlobs(path.join(globalStorage, 'checkpoints'));
  return (workspace: WorkspacePort) =>
    checkpointStorage(withLocalFileOps(workspace), blobs, {
      // File events so a command's coverage looks only at what changed (a worker, started on first use).
      feed: changeFeed,
      onScan: (r) => r.mode === 'full' && log.info(`command coverage: scanned ${r.root} (${r.reason})`),
    });
}
