// The git feature's core (issue 41): commit messages, the reviewed commit, push, pull requests and the
// review's findings. No `vscode` here; the editor side is extension/vscode/git-*.ts.
export * from './branch-pull-request';
export * from './commit';
export * from './commit-card';
export * from './commit-message';
export * from './git-exec';
export * from './pr-text';
export * from './pull-request';
export * from './push';
export * from './repo-state';
export * from './review-findings';
export * from './commit-command';
export * from './boxed-git';
export * from './session-pull-request';
export * from './worktree-work';
