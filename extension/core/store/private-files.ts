// The store's files hold whole conversations (code, command output, pasted text): only the user
// may read them. Every file is created 0600 and every folder 0700 (the modes are given at creation,
// so no other user can open a file in the moment before a chmod); files and folders left by older
// versions with wider modes are narrowed when the store opens. Windows has no such modes: no-ops.
import * as fs from 'node:fs';
import { join } from 'node:path';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

const POSIX = process.platform !== 'win32';

/** Sub-folders of the store folder that hold store files. */
const STORE_SUBDIRS = ['journal', 'blobs', 'images', 'sessions', 'search'];
/**
 * Of those, the ones only a snapshot creates (never before narrowStoreFiles runs in an open) and whose
 * files grow with history: once such a folder is owner-only, its files were created 0600 or narrowed
 * before it (files first, folder last), and no one else can reach them — so an open does not lstat
 * thousands of cold files and segments again.
 */
const NARROWED_WITH_FOLDER = new Set(['sessions', 'search']);

/** Creates a folder (and missing parents) owner-only; narrows it when it exists already. */
export function makePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (POSIX) fs.chmodSync(dir, PRIVATE_DIR_MODE);
}

function isPrivateDir(path: string): boolean {
  try {
    const st = fs.lstatSync(path);
    return st.isDirectory() && (st.mode & 0o777) === PRIVATE_DIR_MODE;
  } catch {
    return false;
  }
}

function narrow(path: string, mode: number): void {
  try {
    const st = fs.lstatSync(path);
    if (st.isSymbolicLink()) return;
    if ((st.mode & 0o777) !== mode) fs.chmodSync(path, mode);
  } catch {
    /* gone meanwhile, or not ours to change: the next open tries again */
  }
}

/** Whether a top-level entry of the store folder is one of the store's own files. */
function isStoreFile(name: string): boolean {
  return name.startsWith('sextant.');
}

/**
 * Narrows the store folder, its `journal/` and `blobs/` folders and every store file in them to
 * owner-only. Only the store's own files: anything else in the folder is left as it is.
 */
export function narrowStoreFiles(dir: string): void {
  if (!POSIX) return;
  narrow(dir, PRIVATE_DIR_MODE);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) if (isStoreFile(name)) narrow(join(dir, name), PRIVATE_FILE_MODE);
  for (const sub of STORE_SUBDIRS) {
    const subdir = join(dir, sub);
    let files: string[];
    try {
      files = fs.readdirSync(subdir);
    } catch {
      continue;
    }
    if (NARROWED_WITH_FOLDER.has(sub) && isPrivateDir(subdir)) continue;
    // Files first, the folder last: a crash in between leaves the folder wide, so the next open redoes it.
    for (const f of files) narrow(join(subdir, f), PRIVATE_FILE_MODE);
    narrow(subdir, PRIVATE_DIR_MODE);
  }
}

/** Makes a rename in `dir` durable (the snapshot and cold files are written temp + fsync + rename). */
export function fsyncDir(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    /* some platforms (Windows) cannot fsync a directory; rename is still atomic there */
  }
}

/**
 * Writes `bytes` to `file` owner-only, never visible half-written: a temporary file beside it, written
 * whole and fdatasync'ed, then renamed over. A failed write (a full disk) removes the temporary file and
 * throws. The caller syncs the folder (fsyncDir) when the rename itself must survive a crash.
 */
export function writePrivateFileAtomically(file: string, bytes: Uint8Array): void {
  const tmp = `${file}.tmp-${process.pid}`;
  const fd = fs.openSync(tmp, 'w', PRIVATE_FILE_MODE);
  try {
    let off = 0;
    while (off < bytes.length) off += fs.writeSync(fd, bytes, off, bytes.length - off);
    fs.fdatasyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true }); // never leave a partial file behind
    throw err;
  }
  fs.closeSync(fd);
  fs.renameSync(tmp, file);
}
