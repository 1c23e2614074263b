// What a boxed command may write, must not change, cannot see and can reach — decided here, purely,
// so every backend (bubblewrap, sandbox-exec) and the built-in file tools follow one plan. The file
// system is read-only except the writable roots; inside them the policy's protected names stay
// read-only (present or not); secret locations are hidden; the network is the proxy's allow-list.
import { isUnder, normalizePath } from '../permissions/paths';
import { protectedNamesInBox, protectedUnderHome, secretLocationsInBox } from './protected-in-box';
import type { BoxPlan, HiddenPath, ReadOnlyPath, WritableRoot } from './types';

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

export interface BoxInputs {
  /** Real paths; the first is where commands run. */
  workspaceFolders: readonly string[];
  /** sextant.sandbox.extraWriteRoots, absolute (already expanded and validated by the policy). */
  extraWriteRoots: readonly string[];
  home: string;
  /** This session's temp folder on the host (seen as /tmp inside the box). */
  sessionTemp: string;
  allowedHosts: readonly string[];
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
  const names = protectedNamesInBox();
  for (const root of writable) {
    if (root.why !== 'workspace' && root.why !== 'extra root') continue;
    for (const n of names) {
      const path = `${root.path}/${n.name}`;
      // A missing .git/… is left alone when .git itself is missing: a stand-in .git folder would break git.
      const parent = path.slice(0, path.lastIndexOf('/'));
      if (parent !== root.path && inputs.kindOf(parent) !== 'dir') continue;
      const kind = inputs.kindOf(path);
      // Shell startup files and .gitconfig only run from home: no stand-in for them elsewhere.
      if (!kind && n.homeOnly && root.path !== home) continue;
      readOnly.push({ path, kind: kind ?? n.kind, exists: kind !== undefined, label: n.label, reason: n.reason });
    }
  }

  for (const p of protectedUnderHome(home)) {
    if (!writable.some((w) => isUnder(p.path, w.path)) || readOnly.some((r) => r.path === p.path)) continue;
    const parent = p.path.slice(0, p.path.lastIndexOf('/'));
    const kind = inputs.kindOf(p.path);
    if (!kind && inputs.kindOf(parent) !== 'dir') continue;
    readOnly.push({ path: p.path, kind: kind ?? p.kind, exists: kind !== undefined, label: p.label, reason: p.reason });
  }

  const hidden: HiddenPath[] = [];
  for (const s of secretLocationsInBox(home)) {
    const kind = inputs.kindOf(s.path);
    if (kind) hidden.push({ path: s.path, kind, label: s.label, reason: s.reason });
  }

  return {
    writable,
    readOnly,
    hidden,
    allowedHosts: [...inputs.allowedHosts],
    cwd: normalizePath(inputs.workspaceFolders[0] ?? home),
    sessionTemp: normalizePath(inputs.sessionTemp),
    home,
  };
}
