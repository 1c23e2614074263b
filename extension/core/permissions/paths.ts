// Path facts the permission policy judges by: containment in the workspace folders, and tests
// derived from protected-paths.ts (the one list, shared with the sandbox) for the paths a write
// always asks for and the paths a read is always refused. Pure: no file system access — the caller
// resolves symbolic links and hands over real paths.
import { posix } from 'node:path';
import { globSource } from '../paths/globs';
import {
  locationPath,
  PROTECTED_WRITES,
  SECRET_FILE_NAMES,
  SECRET_LOCATIONS,
  SYSTEM_READ_REFUSALS,
  type SecretLocation,
} from './protected-paths';

/** Forward slashes, `.`/`..` resolved, no trailing slash (except the root). Windows drives become `/C:/…`. */
export function normalizePath(p: string): string {
  let s = p.replace(/\\/g, '/');
  if (/^[A-Za-z]:\//.test(s)) s = `/${s}`;
  s = posix.normalize(s);
  return s.length > 1 && s.endsWith('/') ? s.slice(0, -1) : s;
}

export function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p);
}

/** Whether `p` is `root` or lies below it (both normalized). */
export function isUnder(p: string, root: string): boolean {
  if (p === root) return true;
  return p.startsWith(root === '/' ? '/' : `${root}/`);
}

/** `~` and `~/x` against home; undefined for `~user` forms, which the policy does not guess. */
export function expandHome(p: string, home: string): string | undefined {
  if (p === '~') return home;
  if (p.startsWith('~/')) return `${home}${p.slice(1)}`;
  if (p.startsWith('~')) return undefined;
  return p;
}

/** The path as the user knows it: `~/…` under home, else absolute. */
export function showPath(p: string, home: string): string {
  if (home && home !== '/' && isUnder(p, home)) return p === home ? '~' : `~${p.slice(home.length)}`;
  return p;
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** A glob that already starts with an absolute, normalized prefix, compiled (`*` stays in a folder, `**` crosses). */
export function absoluteGlob(glob: string, caseInsensitive = false): RegExp {
  return new RegExp(`^${globSource(glob)}$`, caseInsensitive ? 'i' : '');
}

export interface PathFact {
  /** Matches the normalized absolute path. */
  test(p: string): boolean;
  /** Short name for the card: ".git/", "package.json", "~/.ssh/". */
  label: string;
  /** Plain words for the approval card. */
  reason: string;
}

/** A folder name that is protected wherever it appears (`.git` in a nested repository too). */
function segment(name: string, label: string, reason: string): PathFact {
  const re = new RegExp(`(^|/)${escapeRegExp(name)}(/|$)`, 'i');
  return { test: (p) => re.test(p), label, reason };
}

/** A file name protected wherever it appears; matched case-insensitively (macOS and Windows ignore case). */
function basename(re: RegExp, label: string, reason: string): PathFact {
  return { test: (p) => re.test(p.slice(p.lastIndexOf('/') + 1)), label, reason };
}

function under(root: string, label: string, reason: string): PathFact {
  return { test: (p) => isUnder(p.toLowerCase(), root.toLowerCase()), label, reason };
}

/** A secret location (a glob for the moving ones) compiled against this home folder. */
function locationRegExp(loc: SecretLocation, home: string): RegExp {
  const root = loc.base === 'home' ? (home === '/' ? '' : escapeRegExp(home)) : '';
  return new RegExp(`^${root}/${globSource(loc.path)}(/.*)?$`, 'i');
}

function locationFact(loc: SecretLocation, home: string, reason: string): PathFact {
  const re = locationRegExp(loc, home);
  return { test: (p) => re.test(p), label: loc.label, reason };
}

/**
 * Writes that always ask, whatever the rules or mode say (a deny rule still denies): the entries of
 * PROTECTED_WRITES, and the secret locations under home. Names are matched in any folder,
 * case-insensitively.
 */
export function protectedPaths(home: string): PathFact[] {
  const facts: PathFact[] = [];
  for (const e of PROTECTED_WRITES) {
    if (e.kind === 'folder-segment') for (const n of e.names) facts.push(segment(n, e.label, e.reason));
    else if (e.kind === 'file-basename') {
      const re = e.match ? new RegExp(e.match, 'i') : new RegExp(`^(${e.names.map(escapeRegExp).join('|')})$`, 'i');
      facts.push(basename(re, e.label, e.reason));
    } else
      for (const n of e.names)
        facts.push(
          under(locationPath({ base: e.kind === 'under-home' ? 'home' : 'root', path: n }, home), e.label, e.reason),
        );
  }
  for (const loc of SECRET_LOCATIONS)
    if (loc.base === 'home') facts.push(locationFact(loc, home, `writes to ${loc.label} always ask: ${loc.what}`));
  return facts;
}

/**
 * Literal names the protected facts match, used to judge a write whose target is a shell pattern
 * (`cp x package.js?`): if the pattern could name one of these, the write asks.
 */
export const PROTECTED_NAMES: readonly string[] = PROTECTED_WRITES.filter(
  (e) => e.kind === 'folder-segment' || e.kind === 'file-basename',
).flatMap((e) => e.names);

/** Reads that are refused outright, whatever the rules say: keys, credentials, kernel and device files. */
export function deniedReads(home: string): PathFact[] {
  return [...SECRET_LOCATIONS, ...SYSTEM_READ_REFUSALS].map((loc) =>
    locationFact(loc, home, `reads of ${loc.label} are refused: ${loc.what}`),
  );
}

/** Folders (and files) holding the refused reads, for a search (grep) of an ancestor folder. */
export function deniedReadRoots(home: string): string[] {
  const roots = [...SECRET_LOCATIONS, ...SYSTEM_READ_REFUSALS].map((loc) => {
    const p = locationPath(loc, home);
    const glob = p.search(/[*?[{]/);
    return glob < 0 ? p : p.slice(0, p.lastIndexOf('/', glob));
  });
  return [...new Set(roots)];
}

/**
 * A word in a command that names a secret location (`~/.ssh/id_rsa`, `$HOME/.aws/credentials`,
 * `/proc/1/environ`): home locations wherever they appear after a `/` (or at the word's start),
 * absolute ones from the root.
 */
export const SECRET_WORD = new RegExp(
  SECRET_LOCATIONS.map((loc) =>
    loc.base === 'home'
      ? `(^|[/=:])${globSource(loc.path)}(/|$)`
      : `(^|[=:])/${globSource(loc.path).replace('(?:.*/)?', '(?:[^\\s]*/)?')}(/|$)`,
  ).join('|'),
  'i',
);

/**
 * Whether a word with a pattern or an expansion (`~/.ss?/id_rsa`, `/proc/$PPID/envir?n`) could name
 * a secret location, or a folder holding one: a segment with a pattern is matched as a glob, one
 * with an expansion matches any name. Only words that start at home or the root are judged.
 */
export function mayNameSecret(word: string, home: string): boolean {
  let w = word.replace(/^(~|\$HOME\b|\$\{HOME\})(?=\/|$)/, home === '/' ? '' : home);
  if (!w.startsWith('/')) return false;
  w = w.replace(/\/+/g, '/');
  // Each segment once: null matches any name (an expansion), a RegExp a pattern, a string itself.
  const segs: SegmentTest[] = w
    .split('/')
    .slice(1)
    .map((g) => (/[$`]/.test(g) ? null : /[*?[]/.test(g) ? new RegExp(`^${globSource(g)}$`, 'i') : g.toLowerCase()));
  return SECRET_LOCATIONS.some((loc) =>
    segmentsMatch(segs, locationPath(loc, home).toLowerCase().split('/').slice(1), loc.folder),
  );
}

type SegmentTest = RegExp | string | null;

function segmentsMatch(word: readonly SegmentTest[], loc: readonly string[], folder: boolean): boolean {
  if (word.length === 0) return true; // the word names an ancestor of the location
  if (loc.length === 0) return folder; // the word names something inside it
  if (loc[0] === '**') return segmentsMatch(word, loc.slice(1), folder) || segmentsMatch(word.slice(1), loc, folder);
  const w = word[0];
  const one = w === null || /[*?[]/.test(loc[0]) || (typeof w === 'string' ? w === loc[0] : w.test(loc[0]));
  return one && segmentsMatch(word.slice(1), loc.slice(1), folder);
}

/** A project file holding secrets (.env …): reads of it ask unless a user rule names it (SECRET_FILE_NAMES). */
export interface SecretFileFact extends PathFact {
  /** The literal an allow rule must contain to lift the ask (`.env`). */
  ruleNames: string;
  /** Whether a base name is one of these files. */
  testName(name: string): boolean;
  /** Common names, for a shell pattern that could expand to one. */
  names: readonly string[];
}

export const SECRET_FILES: readonly SecretFileFact[] = SECRET_FILE_NAMES.map((e) => {
  const re = new RegExp(e.match, 'i');
  const except = new RegExp(e.except, 'i');
  const testName = (name: string) => re.test(name) && !except.test(name);
  return {
    testName,
    test: (p: string) => testName(p.slice(p.lastIndexOf('/') + 1)),
    label: e.label,
    reason:
      `reading ${e.label} files asks: ${e.what}. A rule in your settings that names the file ` +
      `(e.g. read_file(${e.ruleNames}) or bash(cat ${e.ruleNames})) allows it`,
    ruleNames: e.ruleNames,
    names: e.names,
  };
});

/** The secret-file fact a path (any slashes) names, if any. */
export function secretFileOf(p: string): SecretFileFact | undefined {
  const n = normalizePath(p);
  return SECRET_FILES.find((f) => f.test(n));
}

/**
 * The secret file a command word names, if any: `.env`, `config/.env.local`, `--env-file=.env`; with
 * `pattern` (an unquoted glob), a last segment that could expand to one (`.env*`, `.e??`, `.*`).
 */
export function secretFileWord(word: string, pattern: boolean): SecretFileFact | undefined {
  const last = word.slice(Math.max(word.lastIndexOf('/'), word.lastIndexOf('=')) + 1);
  // Every secret file's name starts with a dot (SECRET_FILE_NAMES), and bash's patterns match a leading
  // dot only when they start with one (dotglob is off by default): most words end here, on every command.
  if (!last.startsWith('.')) return undefined;
  if (!pattern || !/[*?[]/.test(last)) return SECRET_FILES.find((f) => f.testName(last));
  const re = new RegExp(`^${globSource(last)}$`, 'i');
  return SECRET_FILES.find((f) => f.names.some((n) => re.test(n)));
}
