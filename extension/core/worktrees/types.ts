// What a session's worktree is, what changed in it, and what a merge back did — the shapes the
// session host stores and the review UI shows.

/** A session's worktree, as created (create.ts). Stored with the session; everything else derives from it. */
export interface SessionWorktree {
  /** The worktree's folder (real path): the session's workspace root and the box's writable root. */
  path: string;
  /** Its branch, `sextant/<slug>-<id6>` (without refs/heads/). */
  branch: string;
  /** The commit it started from (the main working tree's HEAD when it was made). */
  base: string;
  /** The main working tree's top folder (real path). */
  mainPath: string;
  /** The repository's common `.git` folder (real path). */
  commonDir: string;
  /** The worktree's own admin folder, `<commonDir>/worktrees/<name>` (real path). */
  gitDir: string;
}

export type ChangeStatus = 'added' | 'modified' | 'deleted' | 'renamed';

/** One file the worktree changed against its base: what the diff review opens, left and right. */
export interface WorktreeChange {
  status: ChangeStatus;
  /** Path relative to the worktree's top, `/`-separated (the new path of a rename). */
  path: string;
  /** The path at the base, for a rename. */
  oldPath?: string;
  /** The blob at the base (absent for an added file): read it with readChangeBlob. */
  baseBlob?: string;
  /** The blob of the worktree's state now (absent for a deleted file). */
  afterBlob?: string;
  /** The file on disk in the worktree (absent for a deleted file). */
  afterFile?: string;
  /** Git sees binary content: the review offers no text diff. */
  binary: boolean;
}

export interface WorktreeChanges {
  base: string;
  /** A tree of the worktree's whole state (commits, uncommitted and untracked files) when it was read. */
  afterTree: string;
  files: WorktreeChange[];
}

/** The user's choice at the end of a worktree session. */
export type MergeBackChoice = 'apply' | 'merge' | 'rebase' | 'keep';

export interface MergeBackResult {
  choice: MergeBackChoice;
  /** Done as asked. False: nothing changed in the main working tree (see conflicts / message). */
  ok: boolean;
  /** Files that conflict (with the main tree's uncommitted edits or its branch); empty when ok. */
  conflicts: string[];
  /** What happened, in a sentence the UI can show. */
  message: string;
  /** The commit made of the worktree's uncommitted work before a merge, rebase or keep, if any. */
  savedCommit?: string;
  /** Whether the worktree folder was removed. */
  worktreeRemoved: boolean;
  /** Whether the branch still exists. */
  branchKept: boolean;
}
