// The write-ahead journal: one JSON record per line, appended with a synchronous write before
// append() returns, so a record is in the kernel's page cache (and survives SIGKILL of the
// process) before the webview hears about it. Each writer (one per window/process) has its own
// files — `<writer>.<segment>.jsonl` — so two windows never interleave bytes in one file.
// A segment is closed at each snapshot and deleted once two snapshots contain it.
import * as fs from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../ports';
import { makePrivateDir, PRIVATE_FILE_MODE } from './private-files';

/**
 * When records reach the disk platter:
 * - 'always': fdatasync after every record (survives power loss; costs a disk flush per event),
 * - 'batch' (default): fdatasync at most `batchMs` after a write, off the hot path (survives a
 *   process crash at once; an OS crash may lose the last ~batchMs),
 * - 'never': leave it to the OS.
 */
export type FsyncPolicy = 'always' | 'batch' | 'never';

export interface JournalLine {
  seq: number;
  record: unknown;
}

export interface SegmentFile {
  writer: string;
  segment: number;
  file: string;
}

const NAME = /^([A-Za-z0-9_-]+)\.(\d{6})\.jsonl$/;

export function journalDir(dir: string): string {
  return join(dir, 'journal');
}

export function listSegments(dir: string): SegmentFile[] {
  const jd = journalDir(dir);
  let names: string[];
  try {
    names = fs.readdirSync(jd);
  } catch {
    return [];
  }
  const out: SegmentFile[] = [];
  for (const name of names) {
    const m = NAME.exec(name);
    if (m) out.push({ writer: m[1], segment: Number(m[2]), file: join(jd, name) });
  }
  return out.sort((a, b) => (a.writer === b.writer ? a.segment - b.segment : a.writer < b.writer ? -1 : 1));
}

/**
 * Reads a segment. A line that does not parse (a torn last write after a crash) is skipped:
 * it was never acknowledged, because append() returns only after the whole line is written.
 */
export function readSegment(file: string, log?: Logger): JournalLine[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return parseJournalLines(text, file, log);
}

/** The records in a segment's text, one per line; a line that does not parse is skipped (and said). */
export function parseJournalLines(text: string, file: string, log?: Logger): JournalLine[] {
  const out: JournalLine[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line) continue;
    try {
      const parsed = JSON.parse(line) as { s?: unknown; r?: unknown };
      if (typeof parsed.s === 'number' && parsed.r && typeof parsed.r === 'object')
        out.push({ seq: parsed.s, record: parsed.r });
      else throw new Error('not a journal record');
    } catch {
      log?.warn(`journal ${file}: skipped an unreadable line ${i + 1} of ${lines.length} (a write torn by a crash)`);
    }
  }
  return out;
}

export class JournalWriter {
  private fd: number;
  private seq: number;
  private segment = 0;
  private syncTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  /** Closed segments and the highest seq each holds. */
  readonly closedSegments: Array<{ file: string; maxSeq: number }> = [];
  private segmentMaxSeq = 0;
  bytesInSegment = 0;

  constructor(
    private readonly dir: string,
    readonly writer: string,
    private readonly policy: FsyncPolicy = 'batch',
    private readonly batchMs = 25,
    startSeq = 0,
  ) {
    makePrivateDir(journalDir(dir));
    this.seq = startSeq;
    this.fd = this.openSegment();
  }

  get lastSeq(): number {
    return this.seq;
  }

  private fileOf(segment: number): string {
    return join(journalDir(this.dir), `${this.writer}.${String(segment).padStart(6, '0')}.jsonl`);
  }

  private openSegment(): number {
    this.segment++;
    this.bytesInSegment = 0;
    this.segmentMaxSeq = 0;
    return fs.openSync(this.fileOf(this.segment), 'a', PRIVATE_FILE_MODE);
  }

  /** Writes one record; returns its seq. Throws when the bytes could not be written. */
  append(record: unknown): number {
    if (this.closed) throw new Error('journal is closed');
    const seq = this.seq + 1;
    const buf = Buffer.from(`${JSON.stringify({ s: seq, r: record })}\n`, 'utf8');
    let off = 0;
    try {
      while (off < buf.length) off += fs.writeSync(this.fd, buf, off, buf.length - off);
    } catch (err) {
      // A full disk (ENOSPC, EDQUOT) may have taken part of the line: cut it off again, so the next
      // record starts on a line of its own and no reader ever meets half a record before a whole one.
      if (off > 0) {
        try {
          fs.ftruncateSync(this.fd, this.bytesInSegment);
        } catch {
          this.rotateAfterFailure();
        }
      }
      throw err;
    }
    this.seq = seq;
    this.segmentMaxSeq = seq;
    this.bytesInSegment += buf.length;
    if (this.policy === 'always') fs.fdatasyncSync(this.fd);
    else if (this.policy === 'batch' && !this.syncTimer) {
      const fd = this.fd;
      this.syncTimer = setTimeout(() => {
        this.syncTimer = undefined;
        if (fd === this.fd && !this.closed) fs.fdatasync(fd, () => undefined);
      }, this.batchMs);
      this.syncTimer.unref?.();
    }
    return seq;
  }

  /** The torn segment could not be cut back: leave it (its reader skips the torn line), start a new one. */
  private rotateAfterFailure(): void {
    try {
      const file = this.fileOf(this.segment);
      fs.closeSync(this.fd);
      if (this.segmentMaxSeq > 0) this.closedSegments.push({ file, maxSeq: this.segmentMaxSeq });
      this.fd = this.openSegment();
    } catch {
      // Still no space for a new file: the next append fails and is kept in memory by the store.
    }
  }

  /** Closes the current segment (flushed) and starts a new one; later appends go to the new one. */
  rotate(): void {
    if (this.closed) return;
    const old = this.fd;
    const file = this.fileOf(this.segment);
    const maxSeq = this.segmentMaxSeq;
    this.clearTimer();
    if (this.policy !== 'never') fs.fdatasyncSync(old);
    fs.closeSync(old);
    if (maxSeq === 0) fs.rmSync(file, { force: true });
    else this.closedSegments.push({ file, maxSeq });
    this.fd = this.openSegment();
  }

  /** Deletes closed segments whose records all have seq ≤ `upTo` (they are in two snapshots). */
  deleteCovered(upTo: number): void {
    for (let i = this.closedSegments.length - 1; i >= 0; i--) {
      const s = this.closedSegments[i];
      if (s.maxSeq <= upTo) {
        fs.rmSync(s.file, { force: true });
        this.closedSegments.splice(i, 1);
      }
    }
  }

  private clearTimer(): void {
    if (this.syncTimer) clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
  }

  close(): void {
    if (this.closed) return;
    this.clearTimer();
    if (this.policy !== 'never') fs.fdatasyncSync(this.fd);
    fs.closeSync(this.fd);
    this.closed = true;
    if (this.segmentMaxSeq === 0) fs.rmSync(this.fileOf(this.segment), { force: true });
  }
}
