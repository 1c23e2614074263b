// Making a session's worktree: `git worktree add -b <branch> <folder> <base>` from the main working
// tree's HEAD, on a new branch named after the session, in the worktrees folder (location.ts). It
// starts from HEAD — the last commit — so uncommitted edits in the main tree are not in it (the result
// says whether there were any, for the UI to tell the user). A repository without a commit is refused
// with the reason: a worktree is a checkout of a commit. An existing branch or folder is never reused
// or overwritten: the name takes the next free `-2`, `-3` ….
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
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
  /**
   * `wait` (default): return once every file is checked out. `background`: return as soon as the
   * worktree, its branch and its index exist (tens of ms) and write the files meanwhile — `ready` says
   * when; nothing may read or run in the worktree before it resolves (the session host awaits it before
   * the session's first tool call; the first model request needs no files).
   */
  populate?: 'wait' | 'background';
}

export interface CreatedWorktree {
  worktree: SessionWorktree;
  /** The main tree had uncommitted or untracked changes, which the worktree does not have. */
  mainHadChanges: boolean;
  /**
   * Resolves when the worktree's files are all written (at once with `populate: 'wait'`); rejects if
   * that failed, after removing the half-made worktree and its branch.
   */
  ready: Promise<void>;
}

export async function createWorktree(o: CreateWorktreeOptions): Promise<CreatedWorktree> {
  const git = await openWorktreeGit(o.repo).catch((e: Error) => {
    throw new Error(`cannot use git in ${o.repo}: ${e.message}`);
  });
  const where = await git.run(
    ['rev-parse', '--is-bare-repository', '--show-toplevel', '--path-format=absolute', '--git-common-dir'],
    { ok: [128] },
  );
  if (where.code !== 0) throw new Error(`${o.repo} is not in a git repository, so a session cannot get a worktree`);
  const [bare, top, common] = where.stdout.trim().split('\n');
  if (bare === 'true' || !top || !common) throw new Error(`${o.repo} is not a working tree of a repository`);
  const commonDir = realpathSync(common);
  // The main working tree, also when the workspace is itself a linked worktree (its top has a .git file).
  let mainPath = realpathSync(top);
  if (commonDir !== join(mainPath, '.git')) {
    const list = await git.text(['worktree', 'list', '--porcelain', '-z']);
    mainPath = realpathSync(/^worktree (.+)$/m.exec(list.split('\0')[0])?.[1] ?? top);
  }
  const head = await git.run(['rev-parse', '--verify', '-q', 'HEAD^{commit}'], { cwd: mainPath, ok: [1, 128] });
  if (head.code !== 0)
    throw new Error(
      'the repository has no commit yet, and a worktree is a checkout of a commit: commit once in the main ' +
        'working tree, then start the session in a worktree',
    );
  const base = head.stdout.trim();

  const parent = worktreesFolder(mainPath, o.folderSetting, o.home);
  let chosen: { branch: string; path: string } | undefined;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS && !chosen; attempt++) {
    const name = worktreeName(o.title, o.sessionId, attempt);
    const branch = `${BRANCH_PREFIX}${name}`;
    const path = join(parent, name);
    if (existsSync(path)) continue;
    const taken = await git.run(['show-ref', '--verify', '--quiet', `refs/heads/${branch}`], {
      cwd: mainPath,
      ok: [1],
    });
    if (taken.code === 0) continue;
    chosen = { branch, path };
  }
  if (!chosen) throw new Error(`no free worktree name for "${o.title}" in ${parent} after ${MAX_ATTEMPTS} tries`);
  mkdirSync(parent, { recursive: true });
  // `-b` refuses an existing branch and `add` an existing non-empty folder: a race loses, never clobbers.
  // The main tree's status meanwhile (it only reads: --no-optional-locks, so its index is not rewritten).
  // Made without a checkout, then filled as `git worktree add` fills it (`reset --hard` in the new
  // worktree): the same files and index, but the caller may start the session while they are written.
  const [status] = await Promise.all([
    git.run(['--no-optional-locks', 'status', '--porcelain', '-z', '--untracked-files=normal'], { cwd: mainPath }),
    git.run(['worktree', 'add', '--quiet', '--no-checkout', '-b', chosen.branch, chosen.path, base], {
      cwd: mainPath,
    }),
  ]);
  const path = realpathSync(chosen.path);
  const worktree: SessionWorktree = {
    path,
    branch: chosen.branch,
    base,
    mainPath,
    commonDir,
    gitDir: adminFolder(path),
  };
  const ready = git
    .run(['reset', '--hard', '--quiet', '--no-recurse-submodules'], { cwd: path })
    .then(() => undefined)
    .catch(async (e: Error) => {
      await git.run(['worktree', 'remove', '--force', path], { cwd: mainPath, ok: [128] }).catch(() => undefined);
      await git.run(['branch', '-D', chosen.branch], { cwd: mainPath, ok: [1] }).catch(() => undefined);
      throw new Error(`the worktree's files could not be written, so it was removed: ${e.message}`);
    });
  if (o.populate !== 'background') await ready;
  else ready.catch(() => undefined); // the caller hears it through `ready`; no unhandled rejection meanwhile
  return { worktree, mainHadChanges: status.stdout.length > 0, ready };
}

/** The admin folder git named in the new worktree's `.git` file (`<common>/worktrees/<name>`, maybe suffixed). */
function adminFolder(worktree: string): string {
  const line = /^gitdir: *(.+?)\s*$/m.exec(readFileSync(join(worktree, '.git'), 'utf8'));
  if (!line) throw new Error(`git made ${worktree} without a .git file naming its repository`);
  return realpathSync(resolve(worktree, line[1]));
}
