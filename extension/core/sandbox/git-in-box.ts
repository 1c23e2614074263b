// What a boxed command may change in a repository's `.git`. git reads much of `.git` as configuration
// or code — config, config.worktree, commondir (where the config is), hooks, info/attributes, the
// repositories of submodules (modules/*) and worktrees (worktrees/*) — and the next git run on the host
// (the user's, VS Code's, Sextant's) would run what they name. A commit needs only data: objects,
// refs, reflogs and the few files git rewrites through a lock and a rename (index, HEAD …). So the box
// sees `.git` as a folder of its own (a "shadow", made per box): objects, refs, logs and lfs are the
// repository's own, bound writable; every other entry that exists is bound read-only; the rewritten
// files are copies. After the command the copies that changed go back to the repository, under git's
// own lock; anything else the command made there (a commondir, a config.worktree …) does not — it is
// kept aside and reported.

/** Folders of `.git` shared with the host as they are: data git never runs (objects, refs, reflogs, LFS). */
export const GIT_LIVE_FOLDERS: readonly string[] = ['objects', 'refs', 'logs', 'lfs'];

/**
 * Top-level files git rewrites in ordinary work (add, commit, checkout, merge, reset, a rebase that
 * finishes, gc): carried back to the repository when the command changed them. Data, never run.
 */
export const GIT_STATE_PATTERN =
  '(?:index|HEAD|ORIG_HEAD|FETCH_HEAD|COMMIT_EDITMSG|packed-refs|MERGE_HEAD|MERGE_MSG|MERGE_MODE|AUTO_MERGE|' +
  'CHERRY_PICK_HEAD|REVERT_HEAD|REBASE_HEAD|SQUASH_MSG|TAG_EDITMSG|BISECT_LOG|BISECT_START|BISECT_EXPECTED_REV|' +
  'BISECT_ANCESTORS_OK|BISECT_NAMES|BISECT_TERMS|shallow|gc\\.pid|gc\\.log|sharedindex\\.[0-9a-f]{40,64})';
const STATE_FILE = new RegExp(`^${GIT_STATE_PATTERN}$`);

export function isGitStateFile(name: string): boolean {
  return STATE_FILE.test(name);
}

/**
 * The rewritten files a linked worktree's git writes in the repository's common `.git` (every other
 * one — HEAD, index, ORIG_HEAD, MERGE_HEAD … — is the worktree's own, in its admin folder).
 */
export const COMMON_STATE_FILES: readonly string[] = ['packed-refs'];

/** Whether a rewritten file `name` made or changed in the box's view of `g` goes back to the repository. */
export function isCarriedState(g: { role?: 'common' }, name: string): boolean {
  return g.role === 'common' ? COMMON_STATE_FILES.includes(name) : isGitStateFile(name);
}

/** A lock git leaves when it is killed mid-write: not carried back, not worth a report. */
export function isGitLock(name: string): boolean {
  return name.endsWith('.lock');
}

export const GIT_READ_ONLY_REASON =
  'git reads it as configuration or code, and git on the host (yours, VS Code’s, Sextant’s) would run what it ' +
  'names; in the sandbox `.git` takes only objects, refs, logs and the files a commit rewrites (index, HEAD …)';

/** The rule a refusal names for a path in `.git` that is not live data or a rewritten file. */
export function gitEntryReason(name: string): string {
  return `.git/${name} stays read-only in the sandbox: ${GIT_READ_ONLY_REASON}`;
}

export function gitNotCarriedReason(names: readonly string[]): string {
  const list = names.map((n) => `.git/${n}`).join(', ');
  return (
    `${list} ${names.length > 1 ? 'were' : 'was'} made in the box's view of .git and not carried over to the ` +
    `repository: ${GIT_READ_ONLY_REASON}`
  );
}

/**
 * Repositories inside the workspace (vendor/lib/.git …) that get the box's own `.git` folder each; the
 * ones past this number keep their `.git` read-only as a whole (every shadow is ~10 mounts a command).
 */
export const MAX_NESTED_SHADOWS = 16;

/** Why a nested repository's `.git` file stays read-only: it says where that repository is. */
export const NESTED_GIT_FILE_REASON =
  'it says where a nested repository is: pointed elsewhere, git on the host would read the config and hooks ' +
  'the command chose';

export function nestedGitWholeReason(): string {
  return (
    `the workspace holds more than ${MAX_NESTED_SHADOWS} repositories, so beyond the first ${MAX_NESTED_SHADOWS} a ` +
    `nested .git stays read-only as a whole in the sandbox (git add and commit there run outside the box): ` +
    GIT_READ_ONLY_REASON
  );
}
