// Where worktrees live. By default beside the repository, outside the workspace: `<parent>/<repo>.sextant-worktrees/`.
// Beside it rather than in the extension's global storage because (1) it is on the same disk as the
// repository, so `git worktree add` is a local checkout and a build's caches and relative paths behave
// as in the main tree; (2) the user finds it next to the project, in a terminal or a file manager, and
// can open it in VS Code; (3) it is outside the workspace, so VS Code's search, file watcher and source
// control, and the main tree's `git status`, never see a second copy of every file; (4) it outlives
// the extension (an uninstall removes global storage and would take a kept worktree with it). The
// setting `sextant.agents.worktreeFolder` moves it anywhere (absolute, or `~/…`); there each
// repository gets a folder of its own (`<setting>/<repo>/`), so one setting serves every project.
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';

export const DEFAULT_FOLDER_SUFFIX = '.sextant-worktrees';

/**
 * The folder that holds the worktrees of the repository whose main working tree is `mainPath`.
 * `setting` is sextant.agents.worktreeFolder (empty: the default); a relative one is refused with the reason.
 */
export function worktreesFolder(mainPath: string, setting?: string, home = homedir()): string {
  const given = setting?.trim();
  if (!given) return join(dirname(mainPath), `${basename(mainPath)}${DEFAULT_FOLDER_SUFFIX}`);
  let folder: string;
  if (given === '~' || given.startsWith('~/')) folder = resolve(home, given.slice(2));
  else if (isAbsolute(given)) folder = resolve(given);
  else
    throw new Error(
      `sextant.agents.worktreeFolder must be an absolute folder (or start with ~/); "${given}" is relative`,
    );
  return join(folder, basename(mainPath));
}
