// Images (attached by the user, screenshots from the browser tool, images read_file returned) live as
// files under `images/`, named by the SHA-256 of their bytes: the journal and the database keep only
// a reference (image-refs.ts). Content-addressed, so the same image twice is one file, and a replay or
// a second window writing it again is harmless. Written temp + fdatasync + rename, owner-only.
import * as fs from 'node:fs';
import { join } from 'node:path';
import type { ImageStorage } from '../ports';
import { makePrivateDir, writePrivateFileAtomically } from './private-files';
import { sha256 } from './snapshot';

export const IMAGES_DIR = 'images';
const SHA = /^[0-9a-f]{64}$/;

export class ImageFiles implements ImageStorage {
  constructor(private readonly dir: string) {}

  /** The file of an image, relative to the store folder (what `pending_deletes` names). */
  static relPath(sha: string): string {
    if (!SHA.test(sha)) throw new Error(`bad image ref ${sha}`);
    return `${IMAGES_DIR}/${sha}`;
  }

  private pathOf(sha: string): string {
    return join(this.dir, ...ImageFiles.relPath(sha).split('/'));
  }

  /**
   * Stores the bytes durably (once: an existing file with this name is the same content) and returns their
   * SHA-256. Throws when the file cannot be written (a full disk): the caller keeps the bytes inline.
   */
  put(bytes: Uint8Array): string {
    const sha = sha256(bytes);
    const file = this.pathOf(sha);
    if (fs.existsSync(file)) return sha;
    makePrivateDir(join(this.dir, IMAGES_DIR));
    writePrivateFileAtomically(file, bytes);
    return sha;
  }

  /** The bytes, or undefined when the file is missing or damaged (its content no longer matches its name). */
  read(sha: string): Uint8Array | undefined {
    if (!SHA.test(sha)) return undefined;
    try {
      const bytes = fs.readFileSync(this.pathOf(sha));
      return sha256(bytes) === sha ? bytes : undefined;
    } catch {
      return undefined;
    }
  }
}
