// What the session host gives the box (and the other tools) for a session that works in a worktree:
// the worktree is the only workspace folder — the one writable root and where commands start. The
// repository's common `.git` and the worktree's admin folder need no root of their own: the box finds
// them from the worktree's `.git` file (core/sandbox/box-plan.ts, "a linked worktree") and shows them
// as it shows a workspace's `.git` — objects and refs writable, config and hooks read-only.
import type { SessionWorktree } from './types';

export interface WorktreeSessionRoots {
  /** The session's workspace folders (createSandbox's workspaceFolders, the file tools' roots). */
  workspaceFolders: string[];
  /** Where commands, the terminal and diagnostics start. */
  cwd: string;
  /** Shown in the Agents view ("works in …"). */
  label: string;
}

export function worktreeSessionRoots(wt: SessionWorktree): WorktreeSessionRoots {
  return { workspaceFolders: [wt.path], cwd: wt.path, label: `${wt.branch} (${wt.path})` };
}
