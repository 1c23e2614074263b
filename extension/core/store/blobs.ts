// Long texts (tool outputs, fetched pages, big model-facing tool results) live as files under
// `blobs/`, named by their SHA-256, and the database keeps only a reference. That keeps the
// snapshot — rewritten whole by sql.js's export() — small. Content-addressed, so replaying the
// journal after a crash rewrites the same file harmlessly.
import * as fs from 'node:fs';
import { join } from 'node:path';
import { sha256 } from './snapshot';
import { makePrivateDir, writePrivateFileAtomically } from './private-files';

/** Texts longer than this many characters go to a blob file. */
export const BLOB_THRESHOLD = 32 * 1024;

export class BlobStore {
  /** Texts that could not be written yet (a full disk): served from memory, written by `writePending`. */
  private readonly pending = new Map<string, Buffer>();

  constructor(private readonly dir: string) {}

  private pathOf(ref: string): string {
    if (!/^[0-9a-f]{64}$/.test(ref)) throw new Error(`bad blob ref ${ref}`);
    return join(this.dir, 'blobs', `${ref}.txt`);
  }

  /**
   * Stores text durably and returns its ref. When the file cannot be written (a full disk) the text is
   * kept in memory and the ref returned all the same; `writePending` writes it later.
   */
  put(text: string): string {
    const bytes = Buffer.from(text, 'utf8');
    const ref = sha256(bytes);
    if (this.pending.has(ref)) return ref;
    try {
      this.write(ref, bytes);
    } catch {
      this.pending.set(ref, bytes);
    }
    return ref;
  }

  /** Writes the texts kept in memory; returns how many are still not written. */
  writePending(): number {
    for (const [ref, bytes] of this.pending) {
      try {
        this.write(ref, bytes);
        this.pending.delete(ref);
      } catch {
        break;
      }
    }
    return this.pending.size;
  }

  /** Temporary file, fdatasync, rename: a blob is never visible half-written (a torn temp file is removed). */
  private write(ref: string, bytes: Buffer): void {
    const file = this.pathOf(ref);
    if (fs.existsSync(file)) return;
    makePrivateDir(join(this.dir, 'blobs'));
    writePrivateFileAtomically(file, bytes);
  }

  get(ref: string): string {
    const kept = this.pending.get(ref);
    if (kept) return kept.toString('utf8');
    try {
      return fs.readFileSync(this.pathOf(ref), 'utf8');
    } catch {
      return `[stored output ${ref.slice(0, 12)}… is missing]`;
    }
  }

  /** Splits a value into what goes in the row and the blob ref, if it was too long. */
  split(text: string | undefined): { inline: string | null; ref: string | null } {
    if (text === undefined) return { inline: null, ref: null };
    if (text.length <= BLOB_THRESHOLD) return { inline: text, ref: null };
    return { inline: null, ref: this.put(text) };
  }

  join(inline: unknown, ref: unknown): string | undefined {
    if (typeof ref === 'string' && ref) return this.get(ref);
    return typeof inline === 'string' ? inline : undefined;
  }
}
