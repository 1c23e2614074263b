// Read-side queries: one stored session, the history list (newest first, searchable by title and
// content), a session's artifacts.
import type { RewindRedo, StoredArtifact, StoredSession, TurnCheckpoint } from '../ports';
import { RewindRedoSchema, TurnCheckpointSchema } from '../checkpoints/types';
import type { ModelMessage } from '../providers/types';
import type { Mode, SessionSummary } from '../../protocol';
import type { BlobStore } from './blobs';
import type { ColdFiles } from './cold-files';
import { readModelMessages } from './cold-move';
import { type ColdSearch, withTokenizer } from './cold-search';
import { ftsQuery, queryTerms } from './memory-query';
import { readMessages, readTodos } from './message-rows';
import type { Database } from './sqljs';
import { queryAll, queryOne } from './sqljs';
import { generateTitle } from '../session-title';

export function readSession(
  db: Database,
  blobs: BlobStore,
  id: string,
  includeDeleted = false,
  cold?: ColdFiles,
): StoredSession | undefined {
  const row = queryOne(db, 'SELECT * FROM sessions WHERE id = ?', [id]);
  if (!row || (row.deleted_at !== null && !includeDeleted)) return undefined;
  // A cold session's body comes from its file (throws when the file cannot be read).
  let messages: StoredSession['messages'];
  let modelMessages: ModelMessage[];
  if (typeof row.cold_file === 'string' && cold) {
    const doc = cold.read(row.cold_file);
    messages = doc.messages;
    modelMessages = doc.modelMessages;
  } else {
    messages = readMessages(db, blobs, id);
    modelMessages = readModelMessages(db, blobs, id);
  }
  return {
    id,
    title: String(row.title) || fallbackTitle(db, id),
    mode: row.mode as Mode,
    model: String(row.model),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    messages,
    modelMessages,
    todos: readTodos(db, id),
    checkpoints: readCheckpoints(db, id),
    ...readRedo(row.rewind_json),
  };
}

/** A session's turn checkpoints, in turn order; a damaged row is left out (that turn cannot be rewound). */
export function readCheckpoints(db: Database, sessionId: string): TurnCheckpoint[] {
  return queryAll(db, 'SELECT body FROM turn_checkpoints WHERE session_id = ? ORDER BY idx', [sessionId]).flatMap(
    (r) => {
      const parsed = TurnCheckpointSchema.safeParse(parseJson(r.body));
      return parsed.success ? [parsed.data] : [];
    },
  );
}

function readRedo(json: unknown): { redo?: RewindRedo } {
  if (typeof json !== 'string') return {};
  const parsed = RewindRedoSchema.safeParse(parseJson(json));
  return parsed.success ? { redo: parsed.data } : {};
}

function parseJson(text: unknown): unknown {
  try {
    return JSON.parse(String(text));
  } catch {
    return undefined;
  }
}

function fallbackTitle(db: Database, id: string): string {
  const first = queryOne(
    db,
    `SELECT group_concat(p.text, ' ') AS text FROM message_parts p
      WHERE p.type = 'text'
        AND p.message_id = (SELECT id FROM messages WHERE session_id = ? AND role = 'user' ORDER BY ord LIMIT 1)`,
    [id],
  );
  return generateTitle(String(first?.text ?? ''));
}

export function readArtifacts(db: Database, sessionId: string): StoredArtifact[] {
  return queryAll(db, 'SELECT * FROM artifacts WHERE session_id = ? ORDER BY created_at, id', [sessionId]).map((a) => ({
    id: String(a.id),
    kind: String(a.kind),
    title: String(a.title),
    content: String(a.content),
    citations: queryAll(db, 'SELECT n, url, title, snippet FROM citations WHERE artifact_id = ? ORDER BY n', [
      String(a.id),
    ]).map((c) => ({
      n: Number(c.n),
      url: String(c.url),
      ...(c.title !== null ? { title: String(c.title) } : {}),
      ...(c.snippet !== null ? { snippet: String(c.snippet) } : {}),
    })),
  }));
}

/** How many sessions are not deleted (the history list's length, for paging). */
export function countSessions(db: Database): number {
  return Number(queryOne(db, 'SELECT count(*) AS n FROM sessions WHERE deleted_at IS NULL')?.n ?? 0);
}

/**
 * Sessions that are not deleted, newest first; `query` matches the title or (all terms) the content.
 * `offset` pages through the list (the history view asks for one page at a time).
 */
export function listSessions(
  db: Database,
  opts: { query?: string; limit?: number; offset?: number; ids?: readonly string[] } = {},
  cold?: ColdSearch,
): SessionSummary[] {
  const limit = Math.max(1, Math.min(opts.limit ?? 200, 10_000));
  const offset = Math.max(0, Math.floor(opts.offset ?? 0));
  const q = opts.query?.trim();
  let rows: Array<Record<string, unknown>>;
  const excerpts = new Map<string, string>();
  const matched = new Set<string>();
  if (opts.ids) {
    // Just these sessions (a search's hits): one query, not the whole list.
    rows = queryAll(
      db,
      `SELECT id, title, updated_at, message_count, mode FROM sessions
        WHERE deleted_at IS NULL AND id IN (SELECT value FROM json_each(?)) ORDER BY updated_at DESC, id LIMIT ?`,
      [JSON.stringify(opts.ids), limit],
    );
  } else if (!q) {
    rows = queryAll(
      db,
      `SELECT id, title, updated_at, message_count, mode FROM sessions
        WHERE deleted_at IS NULL ORDER BY updated_at DESC, id LIMIT ? OFFSET ?`,
      [limit, offset],
    );
  } else {
    const match = ftsQuery(q, 'AND');
    if (match) {
      for (const r of queryAll(
        db,
        `SELECT c.session_id AS sid, c.idx, snippet(memory_fts, '', '', '…', -1, 24) AS ex FROM memory_fts
           JOIN memory_chunks c ON c.id = memory_fts.rowid WHERE memory_fts MATCH ? LIMIT 2000`,
        [match],
      )) {
        const sid = String(r.sid);
        matched.add(sid);
        // A cold session's search document from before v7 is a word list, not prose: no excerpt from it.
        if (!excerpts.has(sid) && Number(r.idx) >= 0) excerpts.set(sid, String(r.ex));
      }
      if (cold) {
        const phrases = withTokenizer(db, (tokenize) => queryTerms(q).map((t) => tokenize(t)));
        for (const id of cold.sessionsWithAll(db, phrases)) matched.add(id);
      }
    }
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const ids = [...matched];
    rows = queryAll(
      db,
      `SELECT id, title, updated_at, message_count, mode FROM sessions
        WHERE deleted_at IS NULL AND (title LIKE ? ESCAPE '\\' OR id IN (SELECT value FROM json_each(?)))
        ORDER BY updated_at DESC, id LIMIT ? OFFSET ?`,
      [like, JSON.stringify(ids), limit, offset],
    );
  }
  return rows.map((r) => {
    const id = String(r.id);
    const s: SessionSummary = {
      id,
      title: String(r.title) || fallbackTitle(db, id),
      updatedAt: Number(r.updated_at),
      messageCount: Number(r.message_count),
      mode: r.mode as Mode,
    };
    const ex = excerpts.get(id);
    if (ex) s.excerpt = ex;
    return s;
  });
}
