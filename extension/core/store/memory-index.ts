// Memory chunks: the text of finished messages, cut into overlapping windows and indexed in FTS4
// (rowid of memory_fts = memory_chunks.id). Vectors, when an embedder is configured, are added
// lazily by the search side (chunk_vectors), since computing them needs the network.
import type { Database } from './sqljs';
import { queryAll } from './sqljs';

export const CHUNK_CHARS = 900;
export const CHUNK_OVERLAP = 150;

/** Cuts text into windows of ≤ CHUNK_CHARS, breaking at whitespace, overlapping by ~CHUNK_OVERLAP. */
export function chunkText(text: string, size = CHUNK_CHARS, overlap = CHUNK_OVERLAP): string[] {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (!clean) return [];
  if (clean.length <= size) return [clean];
  const out: string[] = [];
  let start = 0;
  while (start < clean.length) {
    let end = Math.min(clean.length, start + size);
    if (end < clean.length) {
      const space = clean.lastIndexOf(' ', end);
      if (space > start + size / 2) end = space;
    }
    out.push(clean.slice(start, end).trim());
    if (end >= clean.length) break;
    let next = end - overlap;
    const space = clean.indexOf(' ', next);
    if (space !== -1 && space < end) next = space + 1;
    start = Math.max(next, start + 1);
  }
  return out;
}

export function removeMessageChunks(db: Database, messageId: string): void {
  const ids = queryAll(db, 'SELECT id FROM memory_chunks WHERE message_id = ?', [messageId]).map((r) => Number(r.id));
  for (const id of ids) {
    db.run('DELETE FROM memory_fts WHERE rowid = ?', [id]);
    db.run('DELETE FROM chunk_vectors WHERE chunk_id = ?', [id]);
  }
  db.run('DELETE FROM memory_chunks WHERE message_id = ?', [messageId]);
}

/** Replaces a message's chunks with chunks of `text`. */
export function indexMessageText(db: Database, sessionId: string, messageId: string, text: string): void {
  removeMessageChunks(db, messageId);
  chunkText(text).forEach((chunk, idx) => {
    db.run('INSERT INTO memory_chunks (session_id, message_id, idx, text) VALUES (?, ?, ?, ?)', [
      sessionId,
      messageId,
      idx,
      chunk,
    ]);
    const id = Number(db.exec('SELECT last_insert_rowid()')[0].values[0][0]);
    db.run('INSERT INTO memory_fts (rowid, text) VALUES (?, ?)', [id, chunk]);
  });
}

/** Removes every search chunk (and vector) of a session. */
export function removeSessionChunks(db: Database, sessionId: string): void {
  db.run('DELETE FROM memory_fts WHERE rowid IN (SELECT id FROM memory_chunks WHERE session_id = ?)', [sessionId]);
  db.run('DELETE FROM chunk_vectors WHERE chunk_id IN (SELECT id FROM memory_chunks WHERE session_id = ?)', [
    sessionId,
  ]);
  db.run('DELETE FROM memory_chunks WHERE session_id = ?', [sessionId]);
}
