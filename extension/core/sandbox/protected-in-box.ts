// The box's read-only and hidden paths, read from the policy's one list
// (core/permissions/protected-paths.ts), not a copy: a name stays read-only in the box because the
// policy protects writes to it, and a location is hidden because the policy holds secrets there.
// Labels and reasons come from the same entries, so the box and the approval card say the same thing.
import {
  locationPath,
  PROTECTED_WRITES,
  SECRET_LOCATIONS,
  SHELL_STARTUP_FILES,
  type ProtectedWriteEntry,
} from '../permissions/protected-paths';

/**
 * Names the policy protects that the box leaves writable, and why:
 * - `package.json`: `npm install <pkg>` must write it; the policy still asks for the agent's own edits.
 * - `.git`: the box narrows it to `.git/hooks` and `.git/config` (what runs code), so `git add` and
 *   `git commit` keep working inside the box.
 * Entries whose name varies (`*.code-workspace`) are left to the policy: only concrete names can be bound.
 */
const LEFT_WRITABLE = new Set(['package.json', '.git']);
const GIT_PARTS: Array<{ name: string; kind: 'file' | 'dir' }> = [
  { name: '.git/hooks', kind: 'dir' },
  { name: '.git/config', kind: 'file' },
];

export interface ProtectedName {
  /** Relative to a writable root (or, for `underHome`, to home). */
  name: string;
  kind: 'file' | 'dir';
  label: string;
  reason: string;
  /** Only matters in home (shell startup files, .gitconfig). */
  homeOnly?: boolean;
}

/** The policy says "writes to X always ask: why"; in the box the same entry reads "X stays read-only …: why". */
function boxReason(entry: ProtectedWriteEntry): string {
  return entry.reason.replace(/^writes to (.+?) always ask/, '$1 stays read-only in the sandbox');
}

function concreteNames(entry: ProtectedWriteEntry): readonly string[] {
  return entry.label.startsWith('*') ? [] : entry.names;
}

/** Names kept read-only at the top of every writable root (workspace folders, extra roots), present or not. */
export function protectedNamesInBox(): readonly ProtectedName[] {
  // Derived from constant tables, and asked for on every boxed command: made once.
  namesInBox ??= listProtectedNames();
  return namesInBox;
}
let namesInBox: readonly ProtectedName[] | undefined;

function listProtectedNames(): ProtectedName[] {
  const out: ProtectedName[] = [];
  for (const entry of PROTECTED_WRITES) {
    if (entry.kind !== 'folder-segment' && entry.kind !== 'file-basename') continue;
    const kind = entry.kind === 'folder-segment' ? 'dir' : 'file';
    for (const name of concreteNames(entry)) {
      if (name === '.git')
        for (const part of GIT_PARTS) out.push({ ...part, label: part.name, reason: boxReason(entry) });
      if (LEFT_WRITABLE.has(name)) continue;
      const homeOnly = (SHELL_STARTUP_FILES as readonly string[]).includes(name) || name === '.gitconfig';
      out.push({ name, kind, label: name, reason: boxReason(entry), ...(homeOnly ? { homeOnly } : {}) });
    }
  }
  return out;
}

/** Paths under home the policy protects (~/.config/git, ~/.local/bin …): read-only if a writable root holds them. */
export function protectedUnderHome(home: string): Array<ProtectedName & { path: string }> {
  const out: Array<ProtectedName & { path: string }> = [];
  for (const entry of PROTECTED_WRITES) {
    if (entry.kind !== 'under-home') continue;
    for (const name of entry.names) {
      const path = locationPath({ base: 'home', path: name }, home);
      out.push({
        name,
        path,
        kind: name.includes('config.') ? 'file' : 'dir',
        label: entry.label,
        reason: boxReason(entry),
      });
    }
  }
  return out;
}

export interface SecretInBox {
  path: string;
  label: string;
  reason: string;
}

/**
 * Secret locations the box hides: the concrete ones under home. Patterns (`~/.config/**\/credentials*`)
 * cannot be bound; /proc's secret files are the box's own, since the box has its own PID namespace.
 */
export function secretLocationsInBox(home: string): SecretInBox[] {
  return SECRET_LOCATIONS.filter((s) => s.base === 'home' && !s.path.includes('*')).map((s) => ({
    path: locationPath(s, home),
    label: s.label,
    reason: `${s.label} is hidden in the sandbox: ${s.what}`,
  }));
}
