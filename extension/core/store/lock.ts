// A lock file that serialises snapshot writers across VS Code windows sharing one global storage
// folder. The hot path (journal appends) never takes it: each window appends to its own journal.
// A lock whose owner process is gone is taken over at once. A live owner refreshes the lock file's
// mtime while it holds it (a heartbeat every staleMs/3), so only a lock whose heartbeat stopped for
// `staleMs` — an owner hung, or a pid reused by another program after a crash — is taken over by age:
// a snapshot that merely takes long is never overtaken by a second writer (which would delete its
// temporary file and race its renames).
import * as fs from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from './private-files';

export interface LockOptions {
  timeoutMs?: number;
  /** How long a live owner's heartbeat may be silent before its lock is taken over (default 30 s). */
  staleMs?: number;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function lockPath(dir: string): string {
  return join(dir, 'sextant.lock');
}

/** File systems without hard links (FAT, some network mounts) answer with one of these. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/** The fallback: exclusive create, then write (an owner killed in between leaves an empty lock). */
function takeByExclusiveCreate(file: string, owner: string): boolean {
  try {
    const fd = fs.openSync(file, 'wx', PRIVATE_FILE_MODE);
    fs.writeSync(fd, JSON.stringify({ pid: process.pid, owner, at: Date.now() }));
    fs.closeSync(fd);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return false;
  }
}

function tryTake(file: string, owner: string, staleMs: number): boolean {
  // The lock appears with its content or not at all: written to a private file, then hard-linked
  // into place (link fails if the lock exists). A process killed between "create" and "write"
  // would otherwise leave an empty lock that blocks every window until it goes stale.
  const mine = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  fs.writeFileSync(mine, JSON.stringify({ pid: process.pid, owner, at: Date.now() }), { mode: PRIVATE_FILE_MODE });
  let taken = false;
  try {
    fs.linkSync(mine, file);
    taken = true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code && NO_HARD_LINKS.has(code)) taken = takeByExclusiveCreate(file, owner);
    else if (code !== 'EEXIST') throw err;
  } finally {
    fs.rmSync(mine, { force: true });
  }
  if (taken) return true;
  try {
    const held = JSON.parse(fs.readFileSync(file, 'utf8')) as { pid?: number; at?: number };
    // Age is the heartbeat's (the file's mtime), not when the lock was taken.
    const silentFor = Date.now() - fs.statSync(file).mtimeMs;
    const stale = typeof held.pid === 'number' && (!isAlive(held.pid) || silentFor > staleMs);
    if (stale) fs.rmSync(file, { force: true });
  } catch {
    // Written but not yet filled by its owner, or just released: look again next round,
    // unless it stays unreadable past staleMs (an owner that died between open and write).
    try {
      if (Date.now() - fs.statSync(file).mtimeMs > staleMs) fs.rmSync(file, { force: true });
    } catch {
      /* gone */
    }
  }
  return false;
}

/** Private lock files of processes that died before they could remove them. */
function sweepOrphans(dir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^sextant\.lock\.(\d+)\./.exec(name);
    if (m && !isAlive(Number(m[1]))) fs.rmSync(join(dir, name), { force: true });
  }
}

/** Waits for the lock; returns a release function. */
export async function acquireLock(dir: string, owner: string, opts: LockOptions = {}): Promise<() => void> {
  const file = lockPath(dir);
  sweepOrphans(dir);
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  const staleMs = opts.staleMs ?? 30_000;
  let wait = 5;
  while (!tryTake(file, owner, staleMs)) {
    if (Date.now() > deadline) throw new Error(`could not take the store lock ${file} (held by another window)`);
    await new Promise((r) => setTimeout(r, wait));
    wait = Math.min(wait * 2, 100);
  }
  // The heartbeat: other windows see a live owner at work, however long the snapshot takes.
  const heartbeat = setInterval(
    () => {
      try {
        const now = new Date();
        fs.utimesSync(file, now, now);
      } catch {
        /* taken over or gone: release() finds out */
      }
    },
    Math.max(10, Math.floor(staleMs / 3)),
  );
  heartbeat.unref?.();
  return () => {
    clearInterval(heartbeat);
    try {
      const held = JSON.parse(fs.readFileSync(file, 'utf8')) as { owner?: string };
      if (held.owner === owner) fs.rmSync(file, { force: true });
    } catch {
      /* already gone */
    }
  };
}

export function writerIsAlive(writer: string): boolean {
  const pid = Number(writer.split('-')[0]);
  return Number.isInteger(pid) && pid > 0 ? isAlive(pid) : true;
}
