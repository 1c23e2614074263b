// The box's read-only and hidden paths, taken from the permission policy's one list
// (core/permissions/paths.ts), not a copy: a name is kept read-only in the box because the policy
// protects it, and a secret is hidden because the policy refuses to read it. Label and reason come
// from the policy's entry, so the box and the approval card say the same thing.
import { deniedReadRoots, deniedReads, PROTECTED_NAMES, protectedPaths, type PathFact } from '../permissions/paths';

/**
 * Names the policy protects that the box leaves writable, and why:
 * - `package.json`: `npm install <pkg>` must write it; the policy still asks for the agent's own edits.
 * - `x.code-workspace`: a pattern stand-in (`*.code-workspace`), not a concrete name.
 * - `.git`: the box narrows it to `.git/hooks` and `.git/config` (what runs code), so `git add` and
 *   `git commit` keep working inside the box.
 */
const LEFT_WRITABLE = new Set(['package.json', 'x.code-workspace', '.git']);
/** What stays read-only of `.git` (see above), judged by the policy's `.git/` entry. */
const GIT_PARTS: Array<{ name: string; kind: 'file' | 'dir' }> = [
  { name: '.git/hooks', kind: 'dir' },
  { name: '.git/config', kind: 'file' },
];
/** Names that are folders when they exist; the rest are files. */
const FOLDERS = new Set(['.vscode', '.sextant', '.claude', '.devcontainer', '.husky']);

export interface ProtectedName {
  /** Relative to a writable root. */
  name: string;
  kind: 'file' | 'dir';
  label: string;
  reason: string;
}

function factFor(facts: readonly PathFact[], path: string): PathFact | undefined {
  return facts.find((f) => f.test(path));
}

/** Names kept read-only at the top of every writable root, whether they exist or not. */
export function protectedNamesInBox(home: string): ProtectedName[] {
  const facts = protectedPaths(home);
  const out: ProtectedName[] = [];
  const probe = '/w';
  for (const part of GIT_PARTS) {
    const fact = factFor(facts, `${probe}/${part.name}`);
    if (fact) out.push({ ...part, label: part.name, reason: boxReason(fact.reason) });
  }
  for (const name of PROTECTED_NAMES) {
    if (LEFT_WRITABLE.has(name)) continue;
    const fact = factFor(facts, `${probe}/${name}`);
    if (!fact) continue;
    out.push({ name, kind: FOLDERS.has(name) ? 'dir' : 'file', label: name, reason: boxReason(fact.reason) });
  }
  return out;
}

export interface SecretLocation {
  path: string;
  label: string;
  reason: string;
}

/** Locations under home the box hides; the box has its own /proc, /dev and /tmp, and ~/.config stays. */
const SECRET_FILES = ['.netrc', '.git-credentials', '.docker/config.json'];

export function secretLocations(home: string): SecretLocation[] {
  const h = home === '/' ? '' : home;
  const facts = deniedReads(home);
  const candidates = [
    ...deniedReadRoots(home).filter((p) => p.startsWith(`${h}/`) && p !== `${h}/.config`),
    ...SECRET_FILES.map((f) => `${h}/${f}`),
  ];
  const out: SecretLocation[] = [];
  for (const path of candidates) {
    const fact = factFor(facts, path);
    if (fact)
      out.push({
        path,
        label: fact.label,
        reason: fact.reason.replace(/^reads of (\S+) are refused/, '$1 is hidden in the box'),
      });
  }
  return out;
}

/** The policy says "writes to X always ask: why"; in the box the same fact reads "X stays read-only: why". */
function boxReason(policyReason: string): string {
  return policyReason.replace(/^writes to (.+?) always ask/, '$1 stays read-only in the box');
}
