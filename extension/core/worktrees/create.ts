// Making a session's worktree: `git worktree add -b <branch> <folder> <base>` from the main working
// tree's HEAD, on a new branch named after the session, in the worktrees folder (location.ts). It
// starts from HEAD — the last commit — so uncommitted edits in the main tree are not in it (the result
// says whether there were any, for the UI to tell the user). A repository without a commit is refused
// with the reason: a worktree is a checkout of a commit. An existing branch or folder is never reused
// or overwritten: the name takes the next free `-2`, `-3` ….
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { worktreesFolder } from './location';
import { BRANCH_PREFIX, worktreeName } from './naming';
import type { SessionWorktree } from './types';
import { openWorktreeGit } from './worktree-git';

const MAX_ATTEMPTS = 50;

export interface CreateWorktreeOptions {
  /** A folder inside the main working tree (the workspace folder). */
  repo: string;
  /** The session's title and id: the branch and folder name. */
  title: string;
  sessionId: string;
  /** sextant.agents.worktreeFolder (empty or absent: beside the repository). */
  folderSetting?: string;
  /** Home folder for a `~/` setting (default: the OS's). */
  home?: string;
}

export interface CreatedWorktree {
  worktree: SessionWorktree;
  /** The main tree had uncommitted or untracked changes, which the worktree does not have. */
  mainHadChanges: boolean;
}

export async function createWorktree(o: CreateWorktreeOptions): Promise<CreatedWorktree> {
  const probe = await openWorktreeGit(o.repo).catch((e: Error) => {
    throw new Error(`cannot use git in ${o.repo}: ${e.message}`);
  });
  const where = await probe.run(['rev-parse', '--is-bare-repository', '--show-toplevel'], { ok: [128] });
  if (where.code !== 0) throw new Error(`${o.repo} is not in a git repository, so a session cannot get a worktree`);
  const [bare, top] = where.stdout.trim().split('\n');
  if (bare === 'true' || !top) throw new Error(`${o.repo} is not a working tree of a repository`);
  // The main working tree, even when the workspace is itself a linked worktree.
  const list = await probe.text(['worktree', 'list', '--porcelain', '-z']);
  const mainPath = realpathSync(/^worktree (.+)$/m.exec(list.split('\0')[0])?.[1] ?? top);
  const git = mainPath === realpathSync(top) ? probe : await openWorktreeGit(mainPath);
  const head = await git.run(['rev-parse', '--verify', '-q', 'HEAD^{commit}'], { ok: [1, 128] });
  if (head.code !== 0)
    throw new Error(
      'the repository has no commit yet, and a worktree is a checkout of a commit: commit once in the main ' +
        'working tree, then start the session in a worktree',
    );
  const base = head.stdout.trim();
  const commonDir = realpathSync(await git.text(['rev-parse', '--path-format=absolute', '--git-common-dir']));
  const status = (await git.run(['status', '--porcelain', '-z', '--untracked-files=normal'])).stdout;

  const parent = worktreesFolder(mainPath, o.folderSetting, o.home);
  let chosen: { branch: string; path: string } | undefined;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS && !chosen; attempt++) {
    const name = worktreeName(o.title, o.sessionId, attempt);
    const branch = `${BRANCH_PREFIX}${name}`;
    const path = join(parent, name);
    if (existsSync(path)) continue;
    const taken = await git.run(['show-ref', '--verify', '--quiet', `refs/heads/${branch}`], { ok: [1] });
    if (taken.code === 0) continue;
    chosen = { branch, path };
  }
  if (!chosen) throw new Error(`no free worktree name for "${o.title}" in ${parent} after ${MAX_ATTEMPTS} tries`);
  mkdirSync(parent, { recursive: true });
  // `-b` refuses an existing branch and `add` an existing non-empty folder: a race loses, never clobbers.
  await git.run(['worktree', 'add', '--quiet', '-b', chosen.branch, chosen.path, base]);
  const path = realpathSync(chosen.path);
  const gitDir = realpathSync(await git.text(['rev-parse', '--absolute-git-dir'], { cwd: path }));
  return {
    worktree: { path, branch: chosen.branch, base, mainPath, commonDir, gitDir },
    mainHadChanges: status.length > 0,
  };
}
