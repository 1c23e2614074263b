// A writable root that is a linked worktree (a session's own, made by `git worktree add`): its `.git`
// is a file, `gitdir: <common>/worktrees/<name>`, and that admin folder's `commondir` leads to the
// repository's common `.git`, outside every writable root. A commit there writes objects and a branch
// ref in the common `.git`, and the worktree's own index, HEAD and reflog in its admin folder; with
// both read-only (as any path outside the roots), `git add` and `git commit` fail in the box. So the
// box shows both the way it shows a workspace's `.git` (git-in-box.ts): the common `.git` as a folder
// of its own with objects, refs, logs, lfs writable and packed-refs carried back — its config, hooks,
// info, the main tree's index and HEAD and every other worktree's admin folder read-only — and, bound
// on top of it, the admin folder with its reflog and per-worktree refs writable and its rewritten
// files (index, HEAD, ORIG_HEAD, MERGE_HEAD …) carried back — its commondir, gitdir and
// config.worktree read-only. The worktree's `.git` file itself stays read-only as it is (box-plan.ts),
// so a command can neither repoint it nor plant a config, hook, fsmonitor or filter that git on the
// host would run.
import { normalizePath } from '../permissions/paths';
import { COMMON_STATE_FILES, GIT_LIVE_FOLDERS, isGitStateFile } from './git-in-box';
import type { GitInBox } from './types';

/** A `.git` folder as found on disk: its real path and what it holds (kinds followed through links). */
export interface GitFolderSeen {
  path: string;
  entries: Array<{ name: string; kind: 'file' | 'dir' }>;
}

/** A linked worktree's two `.git` folders, checked to belong together (the host side reads them). */
export interface LinkedWorktreeGit {
  /** `<common>/worktrees/<name>`: the worktree's admin folder. */
  gitDir: GitFolderSeen;
  /** The repository's common `.git`. */
  commonDir: GitFolderSeen;
}

/** Folders of a worktree's admin folder shared as they are: its reflog and per-worktree refs. */
const WORKTREE_LIVE_FOLDERS = ['logs', 'refs'];

/**
 * The box's views of a linked worktree's common `.git` and admin folder, in mount order (the admin
 * folder is bound over the common one's read-only `worktrees`). `via` is `<root>/.git`, for refusals.
 */
export function linkedWorktreeInBox(found: LinkedWorktreeGit, via: string): GitInBox[] {
  const common: GitInBox = {
    path: normalizePath(found.commonDir.path),
    via,
    live: [],
    readOnly: [],
    state: [],
    role: 'common',
  };
  for (const e of found.commonDir.entries) {
    if (e.kind === 'dir' && GIT_LIVE_FOLDERS.includes(e.name)) common.live.push(e.name);
    else if (e.kind === 'file' && COMMON_STATE_FILES.includes(e.name)) common.state.push(e.name);
    else common.readOnly.push(e);
  }
  const own: GitInBox = { path: normalizePath(found.gitDir.path), via, live: [], readOnly: [], state: [] };
  for (const e of found.gitDir.entries) {
    if (e.kind === 'dir' && WORKTREE_LIVE_FOLDERS.includes(e.name)) own.live.push(e.name);
    else if (e.kind === 'file' && isGitStateFile(e.name)) own.state.push(e.name);
    else own.readOnly.push(e);
  }
  return [common, own];
}
