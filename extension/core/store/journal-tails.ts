// How much of each journal segment this store has read already, so picking up other windows' records (a
// refresh before a send, the History list, a snapshot) reads only what they appended since — not every
// segment again from its first byte, which grew with every window's history until the next snapshot.
// Segments are append-only; a complete line ends with '\n', and a last line without one (a write under
// way, or torn by a crash) is left for the next read.
import * as fs from 'node:fs';
import type { Logger } from '../ports';
import { type JournalLine, parseJournalLines } from './journal';

export class JournalTails {
  /** Per segment file: the bytes read, up to the end of its last complete line. */
  private readonly offsets = new Map<string, number>();

  /** The complete lines appended to `file` since the last call for it (all of them the first time). */
  linesSince(file: string, log?: Logger): JournalLine[] {
    let from = this.offsets.get(file) ?? 0;
    let fd: number;
    try {
      fd = fs.openSync(file, 'r');
    } catch {
      this.offsets.delete(file);
      return [];
    }
    try {
      const size = fs.fstatSync(fd).size;
      if (size === from) return [];
      // Shorter than what was read: not the same file (the high-water marks keep applied records out).
      if (size < from) from = 0;
      const bytes = Buffer.alloc(size - from);
      let got = 0;
      while (got < bytes.length) {
        const n = fs.readSync(fd, bytes, got, bytes.length - got, from + got);
        if (n === 0) break;
        got += n;
      }
      const complete = bytes.subarray(0, got).lastIndexOf(0x0a) + 1;
      this.offsets.set(file, from + complete);
      return parseJournalLines(bytes.subarray(0, complete).toString('utf8'), file, log);
    } catch {
      return [];
    } finally {
      fs.closeSync(fd);
    }
  }

  /** Forgets segments no longer listed (deleted after a snapshot). */
  keepOnly(files: ReadonlySet<string>): void {
    for (const f of this.offsets.keys()) if (!files.has(f)) this.offsets.delete(f);
  }
}
