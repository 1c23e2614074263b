// A workspace whose `.git` is a symbolic link (Android's `repo`, some monorepo tools): the box binds
// `.git/hooks` and `.git/config` read-only at the link's target, and pins the target — but a link
// cannot be a mount point, so a command can delete the link and make a real `.git` with a hook in it,
// which git on the host would run after the command. The box cannot forbid that, so it undoes it: the
// link is noted before the command, and when the box ends, a link that is gone or points elsewhere is
// put back; what the command made in its place is kept beside it (`.git.sextant-refused-<time>`),
// never deleted, and the refusal is reported like any other.
import { lstatSync, readlinkSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { BoxPlan, BoxRefusal } from '../../core/sandbox/types';

interface NotedLink {
  root: string;
  target: string;
}

/** Notes the `.git` links of the plan's writable folders; the returned check restores and reports. */
export function guardGitLinks(plan: BoxPlan): () => BoxRefusal[] {
  const noted: NotedLink[] = [];
  for (const w of plan.writable) {
    if (w.why !== 'workspace' && w.why !== 'extra root') continue;
    const target = linkTarget(join(w.path, '.git'));
    if (target !== undefined) noted.push({ root: w.path, target });
  }
  if (noted.length === 0) return () => [];
  let checked = false;
  return () => {
    if (checked) return [];
    checked = true;
    return noted.flatMap((n) => restore(n, plan.cwd));
  };
}

function restore(n: NotedLink, cwd: string): BoxRefusal[] {
  const git = join(n.root, '.git');
  if (linkTarget(git) === n.target) return [];
  let keptAs: string | undefined;
  try {
    if (exists(git)) {
      keptAs = `${git}.sextant-refused-${Date.now()}`;
      renameSync(git, keptAs);
    }
    symlinkSync(n.target, git);
  } catch (e) {
    return [refusal(n, cwd, `putting it back failed (${(e as Error).message}); check ${git} before using git`)];
  }
  const kept = keptAs ? `; what the command made there is kept as ${shown(keptAs, cwd)}` : '';
  return [refusal(n, cwd, `the link to ${n.target} is back${kept}`)];
}

function refusal(n: NotedLink, cwd: string, what: string): BoxRefusal {
  return {
    kind: 'protected',
    target: shown(join(n.root, '.git'), cwd),
    rule:
      `.git is a link here, and the box keeps it: a .git made in its place could hold a hook that git ` +
      `would run outside the box — ${what}`,
  };
}

function linkTarget(path: string): string | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/** Anything at `path`, a dangling link included (existsSync follows links). */
function exists(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

function shown(path: string, cwd: string): string {
  return path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path;
}
