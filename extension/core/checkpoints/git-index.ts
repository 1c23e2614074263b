// Reads git's index file (.git/index, versions 2–4) for what a command-coverage scan needs: per tracked
// path the blob id and the stat data git recorded. A file whose size, mtime and inode still match its
// entry (and whose mtime is older than the index file, git's own "racy" rule) is clean: its bytes are
// in the repository's object store, so a checkpoint need not copy it before a command runs.
import { readFileSync, statSync } from 'node:fs';

export interface GitIndexEntry {
  /** Blob id, hex (SHA-1 or SHA-256 repositories alike). */
  oid: string;
  size: number;
  /** Modification time in ms, as git recorded it (seconds and nanoseconds). */
  mtimeMs: number;
  ino: number;
  mode: number;
}

export interface GitIndex {
  /** Repository-relative path (forward slashes) → entry; only stage-0 regular files and links. */
  entries: Map<string, GitIndexEntry>;
  /** The index file's own mtime: entries modified at or after it are "racy" and not trusted. */
  mtimeMs: number;
}

/** Parses `indexPath`; undefined when it is missing, of an unknown version or damaged. */
export function readGitIndex(indexPath: string, oidBytes = 20): GitIndex | undefined {
  let buf: Buffer;
  let mtimeMs: number;
  try {
    buf = readFileSync(indexPath);
    mtimeMs = statSync(indexPath).mtimeMs;
  } catch {
    return undefined;
  }
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  const count = buf.readUInt32BE(8);
  const entries = new Map<string, GitIndexEntry>();
  let off = 12;
  let prev = '';
  try {
    for (let i = 0; i < count; i++) {
      const start = off;
      const mtimeS = buf.readUInt32BE(off + 8);
      const mtimeNs = buf.readUInt32BE(off + 12);
      const ino = buf.readUInt32BE(off + 20);
      const mode = buf.readUInt32BE(off + 24);
      const size = buf.readUInt32BE(off + 36);
      const oid = buf.toString('hex', off + 40, off + 40 + oidBytes);
      off += 40 + oidBytes;
      const flags = buf.readUInt16BE(off);
      off += 2;
      if (version >= 3 && flags & 0x4000) off += 2; // extended flags
      let name: string;
      if (version === 4) {
        // Path prefix compression: a varint of bytes to drop from the previous path, then a NUL-ended suffix.
        let drop = buf[off] & 0x7f;
        while (buf[off++] & 0x80) drop = ((drop + 1) << 7) | (buf[off] & 0x7f);
        const end = buf.indexOf(0, off);
        name = prev.slice(0, prev.length - drop) + buf.toString('utf8', off, end);
        off = end + 1;
      } else {
        const end = buf.indexOf(0, off);
        name = buf.toString('utf8', off, end);
        // Entries are padded with 1–8 NULs to a multiple of 8 bytes.
        off = start + ((end - start + 8) & ~7);
      }
      prev = name;
      const stage = (flags >> 12) & 3;
      const type = mode >>> 12;
      if (stage === 0 && (type === 0o10 || type === 0o12)) {
        entries.set(name, { oid, size, mtimeMs: mtimeS * 1000 + mtimeNs / 1e6, ino, mode: mode & 0o777 });
      }
    }
  } catch {
    return undefined;
  }
  return { entries, mtimeMs };
}
