// What a worktree changed against its base, for the diff review: every file that differs between the
// base commit and the worktree's state now (its branch's commits, plus uncommitted and untracked
// files), with its status and the blobs on each side. The VS Code side opens `vscode.diff` per file
// with the base blob (readChangeBlob) on the left and the worktree's file (afterFile) on the right.
import { join } from 'node:path';
import { snapshotTree } from './snapshot';
import type { ChangeStatus, SessionWorktree, WorktreeChange, WorktreeChanges } from './types';
import { openWorktreeGit, type WorktreeGit } from './worktree-git';

const STATUS: Record<string, ChangeStatus> = { A: 'added', M: 'modified', D: 'deleted', R: 'renamed', T: 'modified' };

export async function worktreeChanges(wt: SessionWorktree, git?: WorktreeGit): Promise<WorktreeChanges> {
  const g = git ?? (await openWorktreeGit(wt.path));
  const afterTree = await snapshotTree(g, wt.path, wt.gitDir);
  return { base: wt.base, afterTree, files: await treeChanges(g, wt.path, wt.base, afterTree) };
}

/** The files that differ from `from` to `to` (commits or trees), renames found. */
export async function treeChanges(git: WorktreeGit, top: string, from: string, to: string): Promise<WorktreeChange[]> {
  // Read as is (not trimmed): with -z a path may end in a space.
  const diff = (format: string) =>
    git.run(['diff-tree', '-r', format, '-M', '--no-ext-diff', '--no-textconv', '-z', from, to], { cwd: top });
  const raw = (await diff('--raw')).stdout;
  const numstat = (await diff('--numstat')).stdout;
  const binary = binaryPaths(numstat);
  const files: WorktreeChange[] = [];
  const parts = raw.split('\0');
  for (let i = 0; i < parts.length; ) {
    const head = parts[i++];
    if (!head.startsWith(':')) continue;
    // ":100644 100644 <old> <new> M" then the path (two paths for a rename or copy).
    const [, , oldBlob, newBlob, letters] = head.slice(1).split(' ');
    const kind = letters[0];
    const first = parts[i++];
    const second = kind === 'R' || kind === 'C' ? parts[i++] : undefined;
    const path = second ?? first;
    const status = kind === 'C' ? 'added' : (STATUS[kind] ?? 'modified');
    files.push({
      status,
      path,
      oldPath: kind === 'R' ? first : undefined,
      baseBlob: status === 'added' ? undefined : oldBlob,
      afterBlob: status === 'deleted' ? undefined : newBlob,
      afterFile: status === 'deleted' ? undefined : join(top, path),
      binary: binary.has(path),
    });
  }
  return files;
}

/** Paths `--numstat -z` marks binary ("-\t-\t"). */
function binaryPaths(numstat: string): Set<string> {
  const out = new Set<string>();
  const parts = numstat.split('\0');
  for (let i = 0; i < parts.length; i++) {
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(parts[i]);
    if (!m) continue;
    // A rename: empty path here, then the old and the new path as two more parts.
    let path = m[3];
    if (path === '') {
      path = parts[i + 2];
      i += 2;
    }
    if (m[1] === '-' && m[2] === '-' && path !== undefined) out.add(path);
  }
  return out;
}

/** A blob's bytes (a side of the diff review), exactly as stored. */
export async function readChangeBlob(wt: SessionWorktree, blob: string, git?: WorktreeGit): Promise<Buffer> {
  const g = git ?? (await openWorktreeGit(wt.path));
  return (await g.run(['cat-file', 'blob', blob])).bytes;
}
