// Files the store no longer needs (a warmed or purged session's cold file, a blob no row names, a
// checkpoint blob no turn names) are not deleted at once: the snapshot on disk, or the `.prev` kept
// for recovery, may still name them. They are queued with the generation of the first snapshot that
// no longer needs them, and deleted once a later snapshot is written — then neither the current
// snapshot nor `.prev` names them. Just before deleting, the reference is checked again (a session
// can go cold again into the same file, a blob can be written again by a new message).
import * as fs from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../ports';
import type { Database } from './sqljs';
import { queryAll, queryOne } from './sqljs';

/** The generation the next snapshot will have. */
export function nextGeneration(db: Database): number {
  return Number(queryOne(db, "SELECT value FROM meta WHERE key = 'generation'")?.value ?? 0) + 1;
}

/** Queues a store file (a path relative to the store folder) for deletion. */
export function queueDelete(db: Database, relPath: string): void {
  db.run('INSERT OR IGNORE INTO pending_deletes (path, since_generation) VALUES (?, ?)', [relPath, nextGeneration(db)]);
}

const BLOB = /^blobs\/([0-9a-f]{64})\.txt$/;
const COLD = /^sessions\/([^/]+)$/;
const SEGMENT = /^search\/([^/]+)$/;
const IMAGE = /^images\/([0-9a-f]{64})$/;
const CHECKPOINT = /^checkpoints\/[0-9a-f]{2}\/([0-9a-f]{64})$/;

/** Whether the database still names this store file. Unknown kinds of path count as referenced. */
export function isReferenced(db: Database, relPath: string): boolean {
  let m = BLOB.exec(relPath);
  if (m)
    return Boolean(
      queryOne(
        db,
        `SELECT 1 AS x FROM tool_traces WHERE detail_ref = ?1 UNION ALL
         SELECT 1 FROM model_messages WHERE body_ref = ?1 LIMIT 1`,
        [m[1]],
      ),
    );
  m = COLD.exec(relPath);
  if (m) {
    if (m[1].includes('.tmp-')) return false;
    return Boolean(queryOne(db, 'SELECT 1 AS x FROM sessions WHERE cold_file = ? LIMIT 1', [m[1]]));
  }
  m = SEGMENT.exec(relPath);
  if (m) {
    if (m[1].includes('.tmp-')) return false;
    return Boolean(queryOne(db, 'SELECT 1 AS x FROM cold_search WHERE segment = ? LIMIT 1', [m[1]]));
  }
  m = IMAGE.exec(relPath);
  if (m) return Boolean(queryOne(db, 'SELECT 1 AS x FROM session_images WHERE sha256 = ? LIMIT 1', [m[1]]));
  m = CHECKPOINT.exec(relPath);
  if (m)
    return Boolean(
      queryOne(
        db,
        `SELECT 1 AS x FROM turn_checkpoints WHERE instr(body, ?1) > 0 UNION ALL
         SELECT 1 FROM sessions WHERE rewind_json IS NOT NULL AND instr(rewind_json, ?1) > 0 LIMIT 1`,
        [m[1]],
      ),
    );
  return true;
}

/**
 * After snapshot `written` is on disk: deletes queued files that no snapshot on disk names any more.
 * Returns the bytes freed. The queue rows go with the next snapshot (a crash before it retries
 * harmlessly: deleting a missing file is a no-op).
 */
export function runPendingDeletes(db: Database, dir: string, written: number, log: Logger): number {
  let freed = 0;
  const due = queryAll(db, 'SELECT path FROM pending_deletes WHERE since_generation < ?', [written]);
  for (const r of due) {
    const rel = String(r.path);
    if (!isReferenced(db, rel)) {
      const file = join(dir, ...rel.split('/'));
      try {
        freed += fs.statSync(file).size;
        fs.rmSync(file, { force: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
          log.warn(`store: could not delete ${file}: ${(err as Error).message}`);
          continue;
        }
      }
    }
    db.run('DELETE FROM pending_deletes WHERE path = ?', [rel]);
  }
  return freed;
}
