// Cold session files: the body of a session nobody has touched for a while (its messages with their
// parts and tool traces, and its model history) as one gzip-compressed JSON document,
// `sessions/<id>.<hash>.json.gz`, read whole on demand (resume, export, a search hit) and never
// appended to — a session that gets a new record is brought back into the database first.
//
// Why one gzip JSON per session (and not JSONL, nor one big archive): a cold session is only ever
// read whole and never written again, so one document is the simplest thing that is complete on its
// own; prose and tool output compress 3–5× with gzip; a file per session makes moving one, purging one
// and reclaiming its space a single unlink. The name carries a hash of the bytes, so a file is never
// rewritten in place: a snapshot that still names an older file (`.prev`) finds it intact.
//
// Written like the snapshot: temp file (owner-only from creation), fsync, rename, fsync of the folder.
import * as fs from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { ChatMessage } from '../../protocol';
import type { ModelMessage } from '../providers/types';
import { fsyncDir, makePrivateDir, writePrivateFileAtomically } from './private-files';
import { sha256 } from './snapshot';

export const COLD_DIR = 'sessions';
const FORMAT = 'sextant-cold-session';
const NAME = /^[A-Za-z0-9_-]{1,80}\.[0-9a-f]{16}\.json\.gz$/;

export interface ColdDoc {
  format: typeof FORMAT;
  version: 1;
  sessionId: string;
  /** Big texts are inline here (no blob refs): the file is complete on its own. */
  messages: ChatMessage[];
  modelMessages: ModelMessage[];
}

export class ColdFiles {
  readonly folder: string;

  constructor(dir: string) {
    this.folder = join(dir, COLD_DIR);
  }

  pathOf(name: string): string {
    if (!NAME.test(name)) throw new Error(`bad cold session file name ${name}`);
    return join(this.folder, name);
  }

  /** Writes the document durably and returns its file name and size. */
  write(doc: Omit<ColdDoc, 'format' | 'version'>): { name: string; bytes: number } {
    const full: ColdDoc = { format: FORMAT, version: 1, ...doc };
    const gz = gzipSync(Buffer.from(JSON.stringify(full), 'utf8'), { level: 6 });
    const safeId = doc.sessionId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80) || 'session';
    const name = `${safeId}.${sha256(gz).slice(0, 16)}.json.gz`;
    const file = this.pathOf(name);
    makePrivateDir(this.folder);
    writePrivateFileAtomically(file, gz);
    fsyncDir(this.folder);
    return { name, bytes: gz.length };
  }

  /** Reads a document; throws with a clear message when it is missing or damaged. */
  read(name: string): ColdDoc {
    const file = this.pathOf(name);
    let doc: Partial<ColdDoc>;
    try {
      doc = JSON.parse(gunzipSync(fs.readFileSync(file)).toString('utf8')) as Partial<ColdDoc>;
    } catch (err) {
      throw new Error(`cold session file ${file} cannot be read: ${(err as Error).message}`);
    }
    if (doc.format !== FORMAT || doc.version !== 1 || !Array.isArray(doc.messages) || !Array.isArray(doc.modelMessages))
      throw new Error(`cold session file ${file} is not a version 1 cold session`);
    return doc as ColdDoc;
  }

  /** The files in the folder (names only; temp files left by a crash included). */
  list(): string[] {
    try {
      return fs.readdirSync(this.folder);
    } catch {
      return [];
    }
  }
}
