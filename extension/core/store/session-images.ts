// Which session names which image file (`session_images`, schema v8). A row is added when a record
// names an image (a sent message's image, a tool card's screenshot, a model history image reference)
// and stays while the session lives — hot or cold, rewound or not — so an image file is deleted only
// once every session naming it has been purged (and then only after two snapshots, pending-deletes.ts).
import type { JournalRecord } from '../ports';
import { ImageFiles } from './image-files';
import { imageHashesIn } from './image-refs';
import { queueDelete } from './pending-deletes';
import type { Database } from './sqljs';
import { queryAll, queryOne } from './sqljs';

/** Records the images `rec` names for its session. */
export function noteSessionImages(db: Database, rec: JournalRecord): void {
  if (rec.kind !== 'events' && rec.kind !== 'model_messages' && rec.kind !== 'conversation_replaced') return;
  for (const sha of imageHashesIn(rec))
    db.run('INSERT OR IGNORE INTO session_images (session_id, sha256) VALUES (?, ?)', [rec.sessionId, sha]);
}

/** A purged session lets go of its images: those no other session names are queued for deletion. */
export function dropSessionImages(db: Database, sessionId: string): void {
  const hashes = queryAll(db, 'SELECT sha256 FROM session_images WHERE session_id = ?', [sessionId]).map((r) =>
    String(r.sha256),
  );
  db.run('DELETE FROM session_images WHERE session_id = ?', [sessionId]);
  for (const sha of hashes) if (!imageInUse(db, sha)) queueDelete(db, ImageFiles.relPath(sha));
}

/** Whether any session (deleted but not purged ones too) names this image. */
export function imageInUse(db: Database, sha: string): boolean {
  return Boolean(queryOne(db, 'SELECT 1 AS x FROM session_images WHERE sha256 = ? LIMIT 1', [sha]));
}

/** Every image any session names (the orphan scan reads it once, not once per file). */
export function imagesInUse(db: Database): Set<string> {
  return new Set(queryAll(db, 'SELECT DISTINCT sha256 FROM session_images').map((r) => String(r.sha256)));
}
