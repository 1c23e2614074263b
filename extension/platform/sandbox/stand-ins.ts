// Read-only stand-ins for protected paths that do not exist yet. bubblewrap needs a mount point to
// keep `.mcp.json` or `.vscode/` from being created inside a writable workspace, and it creates that
// mount point in the real folder; this removes it again once no box uses it (counted, since a
// background job's box and a foreground box may share one) and only if it is still empty.
import { readdirSync, rmdirSync, statSync, unlinkSync } from 'node:fs';
import type { ReadOnlyPath } from '../../core/sandbox/types';

export class StandIns {
  private readonly users = new Map<string, number>();

  /** Claims the stand-ins a box will create; returns the release for when the box has exited. */
  claim(paths: readonly ReadOnlyPath[]): () => void {
    const missing = paths.filter((p) => !p.exists);
    for (const p of missing) this.users.set(p.path, (this.users.get(p.path) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const p of missing) {
        const left = (this.users.get(p.path) ?? 1) - 1;
        if (left > 0) {
          this.users.set(p.path, left);
          continue;
        }
        this.users.delete(p.path);
        removeIfEmpty(p.path);
      }
    };
  }
}

function removeIfEmpty(path: string): void {
  try {
    const st = statSync(path);
    if (st.isDirectory() && readdirSync(path).length === 0) rmdirSync(path);
    else if (st.isFile() && st.size === 0) unlinkSync(path);
  } catch {
    /* already gone, or not ours to remove */
  }
}
