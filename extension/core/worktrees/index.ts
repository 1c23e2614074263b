// A worktree per session (issue 37): create, review, merge back, remove. Core: never imports 'vscode'.
export { worktreeSessionRoots, type WorktreeSessionRoots } from './box-roots';
export { readChangeBlob, worktreeChanges } from './changes';
export { createWorktree, type CreatedWorktree, type CreateWorktreeOptions } from './create';
export { DEFAULT_FOLDER_SUFFIX, worktreesFolder } from './location';
export { mergeBack, type MergeBackOptions } from './merge-back';
export { BRANCH_PREFIX, titleSlug, worktreeName } from './naming';
export { removeWorktree, type Removed, type RemoveOptions } from './remove';
export type {
  ChangeStatus,
  MergeBackChoice,
  MergeBackResult,
  SessionWorktree,
  WorktreeChange,
  WorktreeChanges,
} from './types';
