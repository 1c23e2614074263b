// Watches the files that run later (core/sandbox/run-later.ts says which) across one boxed command:
// before it starts, a stat of each (inode, size, mtime, ctime, mode), the target of each link, and the
// bytes of each small file — read once and reused while its stat is unchanged, so a command costs a
// readdir and some lstat calls; when the box is released, what changed, with before and after, and a
// way to undo it byte for byte (a new file removed, a changed or deleted one written back, a link put
// back). Nothing is followed: links are read as links, and a watched folder that became a link is
// itself the change (it is never entered). One guard per sandbox: a change one command's result keeps
// or undoes becomes the baseline of every other command still running, so a background job that ends
// later does not undo what the user kept meanwhile.
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  type Stats,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import {
  isRunLaterName,
  packageJsonRunsChanged,
  RUN_LATER_BIN_FOLDERS,
  type RunLaterChange,
  type RunLaterChanges,
} from '../../core/sandbox/run-later';
import type { BoxPlan } from '../../core/sandbox/types';

/** Files up to this size keep their bytes (to undo and to diff); bigger ones only their stat. */
export const KEEP_BYTES_UP_TO = 256 * 1024;
/** Entries of one bin folder looked at; a folder past it is watched for its first entries only. */
export const MAX_BIN_ENTRIES = 5000;

/** One path as it was: nothing there (absent from the map), a file, a link, or something else. */
interface Seen {
  kind: 'file' | 'link' | 'dir' | 'other';
  stat: string;
  mode: number;
  link?: string;
  /** A file's bytes, when small enough to keep. */
  bytes?: Buffer;
}

export class RunLaterGuard {
  /** Bytes (or a link's target) read before, by path and stat, so what is unchanged is not read again. */
  private readonly cache = new Map<string, { stat: string; bytes?: Buffer; link?: string }>();
  private readonly live = new Set<Watch>();
  /** Each bin folder's stat and entries when last looked at (seeFolder). */
  private readonly seenFolder = new Map<string, { stat: string; entries: Array<[string, Seen]> }>();

  /** Notes the watched files of the plan's workspace folders and extra roots; the returned check says what changed. */
  watch(plan: BoxPlan): () => RunLaterChanges | undefined {
    const roots = plan.writable.filter((w) => w.why === 'workspace' || w.why === 'extra root').map((w) => w.path);
    const w = new Watch(this, roots, plan.cwd);
    this.live.add(w);
    let checked = false;
    return () => {
      if (checked) return undefined;
      checked = true;
      this.live.delete(w);
      return w.check();
    };
  }

  /** Another command's changes were kept or undone: what is there now is every other watch's baseline. */
  settled(paths: readonly string[], by: Watch): void {
    for (const w of this.live) if (w !== by) w.rebase(paths);
  }

  /**
   * A bin folder and its entries, as they are. A folder whose own stat is what it was last time holds the
   * same names and the same links (making, removing or replacing an entry changes the folder): only its
   * other entries (files, which can be rewritten in place) are looked at again — node_modules/.bin is
   * links, so an unchanged one costs one lstat.
   */
  seeFolder(abs: string): Array<[string, Seen]> {
    const folder = this.see(abs);
    if (folder?.kind !== 'dir') return [];
    const memo = this.seenFolder.get(abs);
    let entries: Array<[string, Seen]>;
    if (memo?.stat === folder.stat)
      entries = memo.entries.flatMap(([path, was]): Array<[string, Seen]> => {
        if (was.kind === 'link' || was.kind === 'dir') return [[path, was]];
        const seen = this.see(path);
        return seen ? [[path, seen]] : [];
      });
    else
      entries = list(abs)
        .slice(0, MAX_BIN_ENTRIES)
        .flatMap((name): Array<[string, Seen]> => {
          const path = join(abs, name);
          const seen = this.see(path);
          return seen ? [[path, seen]] : [];
        });
    this.seenFolder.set(abs, { stat: folder.stat, entries });
    return [[abs, folder], ...entries];
  }

  see(path: string): Seen | undefined {
    let st: Stats | undefined;
    try {
      st = lstatSync(path, { throwIfNoEntry: false });
    } catch {
      return undefined;
    }
    if (!st) return undefined;
    const stat = `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.mode}`;
    const hit = this.cache.get(path);
    if (st.isSymbolicLink()) {
      if (hit?.stat === stat && hit.link !== undefined) return { kind: 'link', stat, mode: st.mode, link: hit.link };
      const link = safe(() => readlinkSync(path));
      if (link !== undefined) this.cache.set(path, { stat, link });
      return { kind: 'link', stat, mode: st.mode, link };
    }
    if (st.isDirectory()) return { kind: 'dir', stat, mode: st.mode };
    if (!st.isFile()) return { kind: 'other', stat, mode: st.mode };
    if (st.size > KEEP_BYTES_UP_TO) return { kind: 'file', stat, mode: st.mode };
    if (hit?.stat === stat && hit.bytes) return { kind: 'file', stat, mode: st.mode, bytes: hit.bytes };
    const bytes = safe(() => readFileSync(path));
    if (bytes) this.cache.set(path, { stat, bytes });
    return { kind: 'file', stat, mode: st.mode, bytes };
  }
}

class Watch {
  /** Path → how it was; a path not in the map was not there. */
  private readonly before: Map<string, Seen>;

  constructor(
    private readonly guard: RunLaterGuard,
    private readonly roots: readonly string[],
    private readonly cwd: string,
  ) {
    this.before = this.look();
  }

  /** Every watched path there now, as it is: the run-later names at each root, each bin folder and its entries. */
  private look(): Map<string, Seen> {
    const out = new Map<string, Seen>();
    const add = (path: string) => {
      const seen = this.guard.see(path);
      if (seen) out.set(path, seen);
    };
    for (const root of this.roots) {
      for (const name of list(root)) if (isRunLaterName(name)) add(join(root, name));
      for (const folder of RUN_LATER_BIN_FOLDERS) {
        // A folder (or a folder on the way to it) that is a link is watched as that link, never entered.
        const link = linkOnTheWay(root, folder);
        if (link) add(link);
        else for (const [path, seen] of this.guard.seeFolder(join(root, folder))) out.set(path, seen);
      }
    }
    return out;
  }

  rebase(paths: readonly string[]): void {
    for (const path of paths) {
      const seen = this.guard.see(path);
      if (seen) this.before.set(path, seen);
      else this.before.delete(path);
    }
  }

  check(): RunLaterChanges | undefined {
    const now = this.look();
    const changes: RunLaterChange[] = [];
    const restore = new Map<string, Seen | undefined>();
    for (const path of new Set([...this.before.keys(), ...now.keys()])) {
      const was = this.before.get(path);
      const is = now.get(path);
      if (!differs(was, is)) continue;
      // A folder's own stat changes whenever an entry comes or goes: the entries say what changed.
      if (was?.kind === 'dir' && is?.kind === 'dir') continue;
      const beforeText = text(was);
      const afterText = text(is);
      // package.json: only a change to what runs counts (a dependency added is what `npm i x` does).
      const bothText = beforeText !== undefined && afterText !== undefined;
      if (path.endsWith('/package.json') && bothText && !packageJsonRunsChanged(beforeText, afterText)) continue;
      restore.set(path, was);
      changes.push({
        path,
        shown: shown(path, this.cwd),
        what: !was ? 'created' : !is ? 'deleted' : 'changed',
        ...(beforeText !== undefined ? { before: beforeText } : {}),
        ...(afterText !== undefined ? { after: afterText } : {}),
        ...(was?.kind === 'link' || is?.kind === 'link' ? { link: { before: was?.link, after: is?.link } } : {}),
        ...(was?.kind === 'dir' || is?.kind === 'dir' ? { folder: true } : {}),
        undoable: !was || was.kind === 'link' || was.kind === 'dir' || was.bytes !== undefined,
      });
    }
    if (changes.length === 0) return undefined;
    changes.sort((a, b) => a.shown.localeCompare(b.shown));
    const paths = changes.map((c) => c.path);
    let settled = false;
    const settle = () => {
      settled = true;
      this.guard.settled(paths, this);
    };
    return {
      files: changes,
      keep: () => {
        if (!settled) settle();
      },
      undo: () => {
        if (settled) return [];
        const failed: string[] = [];
        // Folders first (a bin folder that became a link is put back before its entries), then the rest.
        const order = [...restore.keys()].sort((a, b) => a.length - b.length);
        for (const path of order) {
          const why = putBack(path, restore.get(path));
          if (why) failed.push(`${shown(path, this.cwd)}: ${why}`);
        }
        settle();
        return failed;
      },
    };
  }
}

/** Undoes one path: removes what is there now (never following it) and puts back what was, if anything. */
function putBack(path: string, was: Seen | undefined): string | undefined {
  try {
    const is = lstatSync(path, { throwIfNoEntry: false });
    // A folder that was there and still is keeps its entries (they are undone one by one).
    if (was?.kind === 'dir' && is?.isDirectory()) return undefined;
    if (was?.kind === 'file' && was.bytes === undefined) return 'too large to have been kept; check it by hand';
    if (was?.kind === 'other') return 'not a file, link or folder; check it by hand';
    if (is) rmSync(path, { recursive: true, force: true });
    if (!was) return undefined;
    if (was.kind === 'dir') mkdirSync(path, { mode: was.mode & 0o7777 });
    else if (was.kind === 'link') symlinkSync(was.link ?? '', path);
    else if (was.bytes) {
      // 'wx': the path was just emptied; a link made there meanwhile is refused, never followed.
      writeFileSync(path, was.bytes, { flag: 'wx', mode: was.mode & 0o7777 });
      chmodSync(path, was.mode & 0o7777);
    }
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

function differs(a: Seen | undefined, b: Seen | undefined): boolean {
  if (!a || !b) return a !== b;
  if (a.kind !== b.kind || a.mode !== b.mode) return true;
  if (a.kind === 'link') return a.link !== b.link;
  if (a.stat === b.stat) return false;
  // Touched, same bytes: not a change (a build that rewrites a config unchanged asks nothing).
  if (a.kind === 'file' && a.bytes && b.bytes) return !a.bytes.equals(b.bytes);
  return a.kind !== 'dir';
}

/** A kept file's text for the diff, when it is text (no NUL byte, valid UTF-8). */
function text(s: Seen | undefined): string | undefined {
  if (s?.kind !== 'file' || !s.bytes || s.bytes.includes(0)) return undefined;
  const t = s.bytes.toString('utf8');
  return Buffer.from(t, 'utf8').equals(s.bytes) ? t : undefined;
}

/** The first folder from `root` down to `root/rel` that is a link, if any (node_modules made a link to elsewhere). */
function linkOnTheWay(root: string, rel: string): string | undefined {
  let at = root;
  for (const part of rel.split('/')) {
    at = join(at, part);
    const st = lstatSync(at, { throwIfNoEntry: false });
    if (!st) return undefined;
    if (st.isSymbolicLink()) return at;
    if (!st.isDirectory()) return undefined;
  }
  return undefined;
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function safe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

function shown(path: string, cwd: string): string {
  return path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path;
}
