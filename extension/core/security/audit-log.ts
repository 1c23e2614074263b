// The audit log: one JSON line per tool call — what ran, who decided (a rule, the user, a
// default, a protected path), how it ended and how long it took. Arguments are redacted and
// capped: the log answers "what did the agent do", it is not a second copy of every file.
// Owner-only (0600 in a 0700 folder); rotated to `<file>.1` past a size so it cannot grow forever.
// Every VS Code window appends to the same file (it lives in the shared global storage): appends are
// whole lines in one O_APPEND write, the size is read from the file (not counted per window), and a
// rotation happens under a small lock file and only if the file is still over the size once held — so
// two windows never both rotate, the second moving a nearly empty file over the full `.1`.
import {
  appendFileSync,
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import type { Redactor } from './redact';

export type AuditDecision = 'allow' | 'ask' | 'deny';
/**
 * Who made the decision: a permission rule, the user at an approval card, a default, a built-in, a hook,
 * auto mode's reviewer, the run's grant (an approved plan's files and commands; an edit approved for the
 * rest of the turn).
 */
export type AuditDecidedBy =
  | 'rule'
  | 'user'
  | 'default'
  | 'protected'
  | 'confinement'
  | 'mode'
  | 'hook'
  | 'reviewer'
  | 'plan';
export type AuditStatus = 'ok' | 'error' | 'denied' | 'aborted';

export interface AuditEntry {
  sessionId: string;
  callId: string;
  tool: string;
  decision: AuditDecision;
  decidedBy: AuditDecidedBy;
  /** The rule that decided, or the reason shown on the approval card. */
  rule?: string;
  status: AuditStatus;
  durationMs: number;
  args: unknown;
  /** The sub-agent that made the call (or was started), when not the chat's own agent. */
  subagent?: string;
  /** Auto mode: the reviewer's answer and one-line reason (model absent: it could not answer). */
  review?: { decision: 'allow' | 'ask'; reason: string; model?: string };
}

export interface AuditLogOptions {
  file: string;
  redact: Redactor;
  /** Rotate past this many bytes (default 10 MB). */
  maxBytes?: number;
  now?: () => Date;
}

/** A rotation lock older than this was left by a window that died while rotating. */
const STALE_ROTATION_LOCK_MS = 10_000;

/** Longest string kept from an argument, and the longest argument record as a whole. */
const MAX_STRING = 2_000;
const MAX_ARGS = 8_000;

export class AuditLog {
  private readonly maxBytes: number;
  private readonly now: () => Date;

  constructor(private readonly options: AuditLogOptions) {
    this.maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
    this.now = options.now ?? (() => new Date());
  }

  get file(): string {
    return this.options.file;
  }

  /** Appends one entry. Never throws: a failing audit log must not fail the tool call. */
  append(entry: AuditEntry): boolean {
    try {
      const line = `${JSON.stringify({
        ts: this.now().toISOString(),
        ...entry,
        durationMs: Math.round(entry.durationMs),
        args: capArgs(entry.args, this.options.redact),
      })}\n`;
      this.ensureFolder();
      // The file's size now, other windows' lines included (one stat per tool call).
      const size = sizeOf(this.options.file);
      if (size + Buffer.byteLength(line) > this.maxBytes && size > 0) this.rotate(Buffer.byteLength(line));
      appendFileSync(this.options.file, line, { mode: 0o600 });
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Moves the file to `.1` if it is still too big once this window holds the rotation lock. Another
   * window rotating now: skip (the line goes to whichever file is in place; a line written to the old
   * file just before its rename lands in `.1`, kept either way).
   */
  private rotate(lineBytes: number): void {
    const file = this.options.file;
    const lock = `${file}.rotating`;
    let fd: number;
    try {
      fd = openSync(lock, 'wx', 0o600);
    } catch {
      // Held by another window — or left by one that died mid-rotation: a rotation takes milliseconds.
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_ROTATION_LOCK_MS) rmSync(lock, { force: true });
      } catch {
        /* released meanwhile */
      }
      return;
    }
    try {
      writeSync(fd, String(process.pid));
      closeSync(fd);
      const size = sizeOf(file);
      if (size > 0 && size + lineBytes > this.maxBytes) renameSync(file, `${file}.1`);
    } finally {
      rmSync(lock, { force: true });
    }
  }

  private ensureFolder(): void {
    const folder = dirname(this.options.file);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    chmodSync(folder, 0o700);
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** Redacted, every string capped, the whole record capped (then kept as a truncated string). */
export function capArgs(args: unknown, redact: Redactor): unknown {
  const capped = capStrings(args, redact, 0);
  const json = JSON.stringify(capped) ?? 'null';
  if (json.length <= MAX_ARGS) return capped;
  return `${json.slice(0, MAX_ARGS)}… (${json.length - MAX_ARGS} more characters)`;
}

function capStrings(value: unknown, redact: Redactor, depth: number): unknown {
  if (typeof value === 'string') {
    const clean = redact(value);
    return clean.length > MAX_STRING
      ? `${clean.slice(0, MAX_STRING)}… (${clean.length - MAX_STRING} more characters)`
      : clean;
  }
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => capStrings(v, redact, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = capStrings(v, redact, depth + 1);
  return out;
}
