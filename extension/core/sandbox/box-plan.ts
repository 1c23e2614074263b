// What a boxed command may write, must not change, cannot see and can reach — decided here, purely,
// so every backend (bubblewrap, sandbox-exec) and the built-in file tools follow one plan. The file
// system is read-only except the writable roots; inside them the policy's protected names stay
// read-only (present or not); secret locations are hidden; the network is the proxy's allow-list.
import { isUnder, normalizePath } from '../permissions/paths';
import { type ProtectedName, protectedNamesInBox, protectedUnderHome, secretLocationsInBox } from './protected-in-box';
import {
  GIT_LIVE_FOLDERS,
  isGitStateFile,
  MAX_NESTED_SHADOWS,
  NESTED_GIT_FILE_REASON,
  nestedGitWholeReason,
} from './git-in-box';
import type { BoxPlan, GitInBox, HiddenPath, ReadOnlyPath, WritableRoot } from './types';
import { type LinkedWorktreeGit, linkedWorktreeInBox } from './worktree-in-box';

/**
 * Package-manager and build caches under home that stay writable, when they exist: npm, pip and
 * most XDG tools (~/.cache: pip, go-build, yarn v1, pnpm metadata, node-gyp, playwright …), cargo's
 * registry and git checkouts, Go modules, Gradle, Maven, pnpm's store, Yarn berry, Bun, NuGet.
 * Not ~/.cargo/bin, ~/go/bin or ~/.local/bin: programs there run outside the box later.
 */
export const BUILD_CACHES = [
  '.npm',
  '.cache',
  '.cargo/registry',
  '.cargo/git',
  'go/pkg/mod',
  '.gradle/caches',
  '.gradle/wrapper',
  '.m2/repository',
  '.local/share/pnpm',
  '.yarn/berry/cache',
  '.bun/install/cache',
  '.nuget/packages',
];

/** A `.git` folder as found on disk: its real path and what it holds (kinds followed through links). */
export interface GitFolder {
  path: string;
  entries: Array<{ name: string; kind: 'file' | 'dir' }>;
}

export interface BoxInputs {
  /** Real paths; the first is where commands run. */
  workspaceFolders: readonly string[];
  /** sextant.sandbox.extraWriteRoots, absolute (already expanded and validated by the policy). */
  extraWriteRoots: readonly string[];
  home: string;
  /** This session's temp folder on the host (seen as /tmp inside the box). */
  sessionTemp: string;
  allowedHosts: readonly string[];
  /**
   * Real folders holding the host's unix sockets (host-sockets.ts), as found on this machine; one that
   * is (or is in) a writable root stays as it is — the user made it writable.
   */
  socketFolders?: readonly string[];
  /**
   * `<root>/.git` when it is a folder (through a link too): its real path and what it holds. Without
   * it, `.git` keeps the older, narrower protection (hooks and config read-only).
   */
  gitFolder?(root: string): GitFolder | undefined;
  /**
   * Folders below a writable root that hold a `.git` of their own (vendor/lib, a sub-project): each
   * gets the same treatment as the root's `.git`.
   */
  nestedRepositories?(root: string): readonly string[];
  /** The folder a `.git` file (`gitdir: …`) points at, as gitFolder describes one. */
  gitFileTarget?(gitFile: string): GitFolder | undefined;
  /**
   * `<root>/.git` when it is the file of a linked worktree (`git worktree add`, a session's worktree):
   * its admin folder and the repository's common `.git`, checked to belong together.
   */
  linkedWorktree?(root: string): LinkedWorktreeGit | undefined;
  /** What is at a path now: the plan only hides what exists and knows which names are missing. */
  kindOf(path: string): 'file' | 'dir' | undefined;
}

export function planBox(inputs: BoxInputs): BoxPlan {
  const home = normalizePath(inputs.home);
  const writable: WritableRoot[] = [];
  const add = (path: string, why: WritableRoot['why']) => {
    const p = normalizePath(path);
    if (!writable.some((w) => isUnder(p, w.path))) writable.push({ path: p, why });
  };
  for (const f of inputs.workspaceFolders) add(f, 'workspace');
  for (const f of inputs.extraWriteRoots) add(f, 'extra root');
  for (const rel of BUILD_CACHES) {
    const p = `${home}/${rel}`;
    if (inputs.kindOf(p) === 'dir') add(p, 'build cache');
  }

  // A missing name gets an empty read-only *folder* as its stand-in, even for a file: git ignores empty
  // folders, so `git status` / `git add -A` inside the box never see the stand-ins (see stand-ins.ts).
  const readOnly: ReadOnlyPath[] = [];
  const pinned: string[] = [];
  const keep = (r: ReadOnlyPath) => {
    if (!readOnly.some((o) => o.path === r.path)) readOnly.push(r);
  };
  /**
   * Protects `name` under `root`. Folders on the way (`.git` for `.git/hooks`) are pinned when they
   * exist; a missing one gets the stand-in itself — else one command could `git init` (or `mkdir -p`)
   * and write `.git/hooks/pre-commit` before any box knew of `.git`; a file on the way (a worktree's
   * `.git` file, which says where the repository is) is kept read-only as it is.
   */
  const protect = (root: string, n: ProtectedName, homeOnly: boolean) => {
    const parts = n.name.split('/');
    let at = root;
    for (let i = 0; i < parts.length - 1; i++) {
      at = `${at}/${parts[i]}`;
      const kind = inputs.kindOf(at);
      const label = parts.slice(0, i + 1).join('/');
      if (kind === 'dir') {
        if (!pinned.includes(at)) pinned.push(at);
        continue;
      }
      if (kind === undefined && homeOnly) return;
      keep({
        path: at,
        kind: kind ?? 'dir',
        exists: kind !== undefined,
        label,
        reason:
          kind === undefined
            ? `${label} stays read-only in the sandbox while it does not exist, since it would hold ${n.label} ` +
              `(${n.reason})`
            : `${label} stays read-only in the sandbox: it says where ${n.label} is (${n.reason})`,
      });
      return;
    }
    const path = `${root}/${n.name}`;
    const kind = inputs.kindOf(path);
    // Shell startup files and .gitconfig only run from home: no stand-in for them elsewhere.
    if (!kind && homeOnly) return;
    keep({ path, kind: kind ?? n.kind, exists: kind !== undefined, label: n.label, reason: n.reason });
  };
  const git: GitInBox[] = [];
  const linkedViews: GitInBox[] = [];
  const names = protectedNamesInBox();
  for (const root of writable) {
    if (root.why !== 'workspace' && root.why !== 'extra root') continue;
    const found = inputs.gitFolder?.(root.path);
    const shadow = found && gitInBox(found, `${root.path}/.git`, writable);
    if (shadow && !git.some((g) => g.path === shadow.path)) git.push(shadow);
    // A linked worktree: its `.git` file stays read-only below (as a file on the way to .git/hooks);
    // the folders it leads to get the box's own view (worktree-in-box.ts), after every other view.
    const linked = !found && inputs.linkedWorktree?.(root.path);
    if (linked) linkedViews.push(...linkedWorktreeInBox(linked, `${root.path}/.git`));
    for (const n of names) {
      // The shadow covers the whole of .git: no separate hooks and config binds, no pin.
      if (shadow && n.name.startsWith('.git/')) continue;
      protect(root.path, n, Boolean(n.homeOnly) && root.path !== home);
    }
  }

  // Repositories inside the workspace: the same `.git` of the box's own, after the roots' (a submodule's
  // `.git` file pointing into the root's `.git/modules` finds it covered, read-only, already).
  let nestedShadows = 0;
  const guard = (found: GitFolder | undefined, via: string, label: string) => {
    if (!found) return;
    const path = normalizePath(found.path);
    if (git.some((g) => isUnder(path, g.path))) return;
    if (nestedShadows >= MAX_NESTED_SHADOWS) {
      if (writable.some((w) => isUnder(path, w.path) && w.why !== 'build cache'))
        keep({ path, kind: 'dir', exists: true, label, reason: `${label} stays read-only: ${nestedGitWholeReason()}` });
      return;
    }
    const shadow = gitInBox(found, via, writable);
    if (!shadow) return;
    git.push(shadow);
    nestedShadows++;
  };
  for (const root of writable) {
    if (root.why !== 'workspace' && root.why !== 'extra root') continue;
    for (const folder of inputs.nestedRepositories?.(root.path) ?? []) {
      const dir = normalizePath(folder);
      if (!isUnder(dir, root.path) || dir === root.path) continue;
      const via = `${dir}/.git`;
      const label = via.slice(root.path.length + 1);
      const kind = inputs.kindOf(via);
      if (kind === 'dir') guard(inputs.gitFolder?.(dir), via, label);
      else if (kind === 'file') {
        // Read-only as it is (a mount point, so it cannot be removed or repointed either) …
        keep({
          path: via,
          kind: 'file',
          exists: true,
          label,
          reason: `${label} stays read-only: ${NESTED_GIT_FILE_REASON}`,
        });
        // … and the folder it points at, when that is in the workspace, gets the box's own view too.
        guard(inputs.gitFileTarget?.(via), via, label);
      }
    }
  }

  // Mounted last: a worktree's admin folder goes on top of its common `.git`'s view — this plan's own,
  // or the one a writable root holding the main repository already gave it (then that one stays).
  for (const view of linkedViews) {
    if (git.some((g) => g.path === view.path)) continue;
    if (view.role === 'common' && writable.some((w) => isUnder(view.path, w.path) && w.why !== 'build cache')) continue;
    git.push(view);
  }

  for (const p of protectedUnderHome(home)) {
    const root = writable.find((w) => isUnder(p.path, w.path));
    if (!root || readOnly.some((r) => r.path === p.path)) continue;
    if (p.path === root.path) {
      // The protected folder is itself a writable root (an extra root): it stays read-only as it is.
      const kind = inputs.kindOf(p.path);
      if (kind) keep({ path: p.path, kind, exists: true, label: p.label, reason: p.reason });
      continue;
    }
    protect(root.path, { ...p, name: p.path.slice(root.path.length + 1) }, false);
  }

  const hidden: HiddenPath[] = [];
  for (const s of secretLocationsInBox(home)) {
    const kind = inputs.kindOf(s.path);
    if (kind) hidden.push({ path: s.path, kind, label: s.label, reason: s.reason });
  }

  const hostSockets = (inputs.socketFolders ?? [])
    .map(normalizePath)
    .filter((f) => !writable.some((w) => isUnder(f, w.path)));

  return {
    writable,
    readOnly,
    pinned,
    git,
    hidden,
    hostSockets,
    allowedHosts: [...inputs.allowedHosts],
    cwd: normalizePath(inputs.workspaceFolders[0] ?? home),
    sessionTemp: normalizePath(inputs.sessionTemp),
    home,
  };
}

/**
 * The shadow of a repository's `.git` folder (`via` is the name the workspace gives it) when the folder
 * is inside a writable root (else it is read-only anyway).
 */
function gitInBox(found: GitFolder, via: string, writable: readonly WritableRoot[]): GitInBox | undefined {
  const path = normalizePath(found.path);
  if (!writable.some((w) => isUnder(path, w.path) && w.why !== 'build cache')) return undefined;
  const plan: GitInBox = { path, via, live: [], readOnly: [], state: [] };
  for (const e of found.entries) {
    if (e.kind === 'dir' && GIT_LIVE_FOLDERS.includes(e.name)) plan.live.push(e.name);
    else if (e.kind === 'file' && isGitStateFile(e.name)) plan.state.push(e.name);
    else plan.readOnly.push(e);
  }
  return plan;
}
