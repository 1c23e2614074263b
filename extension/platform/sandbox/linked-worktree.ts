// Reads a writable root's `.git` file when it is a linked worktree's (core/sandbox/worktree-in-box.ts
// says what the box then shows). Only a worktree git itself would recognise is taken: `.git` a plain
// file naming `<common>/worktrees/<name>`, whose `gitdir` file points back at that `.git` and whose
// `commondir` leads to a repository (objects and refs folders). Anything else — a submodule's `.git`
// file, a `.git` file pointing at some folder — keeps the older treatment: read-only, no view.
import { lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { GitFolderSeen, LinkedWorktreeGit } from '../../core/sandbox/worktree-in-box';

const MAX_POINTER_BYTES = 4096;

export function linkedWorktreeAt(
  root: string,
  describe: (folder: string) => GitFolderSeen | undefined,
): LinkedWorktreeGit | undefined {
  try {
    const file = join(root, '.git');
    if (!lstatSync(file).isFile()) return undefined;
    const gitDirPath = pointer(file, /^gitdir: *(.+?)\s*$/m, dirname(file));
    if (!gitDirPath) return undefined;
    const gitDir = realpathSync(gitDirPath);
    // git's own link back from the admin folder to this worktree's `.git` file.
    const back = pointer(join(gitDir, 'gitdir'), /^(.+?)\s*$/m, gitDir);
    if (!back || realpathSync(back) !== realpathSync(file)) return undefined;
    const commonPath = pointer(join(gitDir, 'commondir'), /^(.+?)\s*$/m, gitDir);
    if (!commonPath) return undefined;
    const common = realpathSync(commonPath);
    if (realpathSync(dirname(gitDir)) !== join(common, 'worktrees')) return undefined;
    if (!statSync(join(common, 'objects')).isDirectory() || !statSync(join(common, 'refs')).isDirectory())
      return undefined;
    const gitDirSeen = describe(gitDir);
    const commonSeen = describe(common);
    return gitDirSeen && commonSeen ? { gitDir: gitDirSeen, commonDir: commonSeen } : undefined;
  } catch {
    return undefined;
  }
}

/** The path a small pointer file names (relative to `from`), or undefined. */
function pointer(file: string, line: RegExp, from: string): string | undefined {
  const m = line.exec(readFileSync(file, 'utf8').slice(0, MAX_POINTER_BYTES));
  return m ? resolve(from, m[1]) : undefined;
}
