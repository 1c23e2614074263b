// Schema versions and forward migrations. The version lives in SQLite's `PRAGMA user_version`
// (part of the file header, so it survives export()). Every migration runs inside one
// transaction; a database from a newer Sextant is refused before anything is written.
import type { Database } from './sqljs';
import { queryAll } from './sqljs';
import { indexMessageText } from './memory-index';

export interface Migration {
  version: number;
  description: string;
  up(db: Database): void;
}

/**
 * v1: the first released layout — sessions, messages with parts, tool traces, model history, todos,
 * artifacts, citations.
 */
const V1 = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sessions (
  id TEXT PRIMARY KEY, title TEXT NOT NULL, mode TEXT NOT NULL, model TEXT NOT NULL,
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, deleted_at INTEGER,
  reducer_state TEXT
);
CREATE INDEX sessions_updated ON sessions(updated_at DESC);
CREATE TABLE messages (
  id TEXT PRIMARY KEY, session_id TEXT NOT NULL, ord INTEGER NOT NULL, role TEXT NOT NULL,
  mode TEXT NOT NULL, status TEXT NOT NULL, model TEXT, created_at INTEGER NOT NULL,
  error_json TEXT, usage_json TEXT
);
CREATE INDEX messages_session ON messages(session_id, ord);
CREATE TABLE message_parts (
  message_id TEXT NOT NULL, idx INTEGER NOT NULL, type TEXT NOT NULL, text TEXT, call_id TEXT,
  PRIMARY KEY (message_id, idx)
);
CREATE TABLE tool_traces (
  message_id TEXT NOT NULL, call_id TEXT NOT NULL, session_id TEXT NOT NULL, name TEXT NOT NULL,
  kind TEXT NOT NULL, subject TEXT NOT NULL, status TEXT NOT NULL, started_at INTEGER,
  duration_ms INTEGER, preview TEXT, detail TEXT, live_output TEXT,
  PRIMARY KEY (message_id, call_id)
);
CREATE INDEX tool_traces_session ON tool_traces(session_id);
CREATE TABLE model_messages (
  session_id TEXT NOT NULL, idx INTEGER NOT NULL, role TEXT NOT NULL, body TEXT NOT NULL,
  PRIMARY KEY (session_id, idx)
);
CREATE TABLE todos (
  session_id TEXT NOT NULL, idx INTEGER NOT NULL, id TEXT NOT NULL, content TEXT NOT NULL, status TEXT NOT NULL,
  PRIMARY KEY (session_id, idx)
);
CREATE TABLE artifacts (
  id TEXT PRIMARY KEY, session_id TEXT NOT NULL, kind TEXT NOT NULL, title TEXT NOT NULL,
  content TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
);
CREATE INDEX artifacts_session ON artifacts(session_id);
CREATE TABLE citations (
  artifact_id TEXT NOT NULL, n INTEGER NOT NULL, url TEXT NOT NULL, title TEXT, snippet TEXT,
  PRIMARY KEY (artifact_id, n)
);
CREATE TABLE journal_hwm (writer TEXT PRIMARY KEY, seq INTEGER NOT NULL, prev_seq INTEGER NOT NULL DEFAULT 0);
`;

/**
 * v2: big blobs as files (refs next to the inline columns), who set the title, a cached message
 * count for the history list, and memory search (chunks + FTS4 + optional vectors), backfilled
 * from the messages already stored.
 */
const V2 = `
ALTER TABLE sessions ADD COLUMN title_source TEXT NOT NULL DEFAULT 'auto';
ALTER TABLE sessions ADD COLUMN message_count INTEGER NOT NULL DEFAULT 0;
UPDATE sessions SET message_count = (SELECT count(*) FROM messages m WHERE m.session_id = sessions.id);
ALTER TABLE tool_traces ADD COLUMN detail_ref TEXT;
ALTER TABLE model_messages ADD COLUMN body_ref TEXT;
CREATE TABLE memory_chunks (
  id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, message_id TEXT NOT NULL, idx INTEGER NOT NULL, text TEXT NOT NULL
);
CREATE INDEX memory_chunks_message ON memory_chunks(message_id);
CREATE INDEX memory_chunks_session ON memory_chunks(session_id);
CREATE VIRTUAL TABLE memory_fts USING fts4(text, tokenize=porter);
CREATE TABLE chunk_vectors (chunk_id INTEGER PRIMARY KEY, model TEXT NOT NULL, vec BLOB NOT NULL);
`;

/**
 * v4: checkpoints and rewind — each request's turn checkpoint (where it starts in the model history,
 * the hashes of the files it changed; the bytes are files in the checkpoint blob folder) and the
 * last rewind of a session, kept so it can be undone.
 */
const V4 = `
CREATE TABLE turn_checkpoints (
  session_id TEXT NOT NULL, user_message_id TEXT NOT NULL, idx INTEGER NOT NULL, body TEXT NOT NULL,
  PRIMARY KEY (session_id, user_message_id)
);
ALTER TABLE sessions ADD COLUMN rewind_json TEXT;
`;

/**
 * v5: cold sessions and retention — a session whose body (messages, parts, tool traces, model history)
 * moved to `sessions/<file>` keeps its row here with the file's name and size, and one compact search
 * document (memory_chunks.idx = -1) instead of its chunks; files and blobs that no snapshot needs any
 * more wait in `pending_deletes` until two snapshots no longer reference them. The full-text index
 * reads its text from memory_chunks (FTS4 external content) instead of keeping a second copy.
 */
const V5 = `
ALTER TABLE sessions ADD COLUMN cold_file TEXT;
ALTER TABLE sessions ADD COLUMN cold_bytes INTEGER NOT NULL DEFAULT 0;
CREATE TABLE pending_deletes (path TEXT PRIMARY KEY, since_generation INTEGER NOT NULL);
CREATE INDEX tool_traces_detail_ref ON tool_traces(detail_ref) WHERE detail_ref IS NOT NULL;
CREATE INDEX model_messages_body_ref ON model_messages(body_ref) WHERE body_ref IS NOT NULL;
DROP TABLE memory_fts;
CREATE VIRTUAL TABLE memory_fts USING fts4(content="memory_chunks", text, tokenize=porter);
INSERT INTO memory_fts(memory_fts) VALUES('rebuild');
`;

/**
 * v6: which workspace a session belongs to (its folders' paths, one per line; NULL for sessions
 * from before v6 and windows with no folder), so the agent's memory search stays in its project.
 */
const V6 = `
ALTER TABLE sessions ADD COLUMN workspace TEXT;
CREATE INDEX sessions_workspace ON sessions(workspace);
`;

/**
 * v7: cold sessions' search documents leave the in-memory full-text index for segment files in
 * `search/` (cold-index.ts): `cold_search` names the segment holding each cold session's chunks, and
 * `cold_vectors` keeps its centroid vectors. The old one-document-per-cold-session rows
 * (memory_chunks.idx = -1) move out of FTS4 at the following snapshots (cold-index-build.ts
 * `migrateLegacyColdDocs`, in batches); their vectors move here at once.
 */
const V7 = `
CREATE TABLE cold_search (
  session_id TEXT PRIMARY KEY, segment TEXT NOT NULL, chunks INTEGER NOT NULL, tokens INTEGER NOT NULL
);
CREATE INDEX cold_search_segment ON cold_search(segment);
CREATE TABLE cold_vectors (
  session_id TEXT NOT NULL, model TEXT NOT NULL, vec BLOB NOT NULL, PRIMARY KEY (session_id, model)
);
INSERT OR REPLACE INTO cold_vectors (session_id, model, vec)
  SELECT c.session_id, v.model, v.vec FROM chunk_vectors v JOIN memory_chunks c ON c.id = v.chunk_id WHERE c.idx = -1;
DELETE FROM chunk_vectors WHERE chunk_id IN (SELECT id FROM memory_chunks WHERE idx = -1);
`;

/**
 * v8: images as files (`images/<sha256>`, image-files.ts): which sessions name which image — kept while the
 * session's body is cold, dropped when the session is purged, after which an image no session names is
 * deleted — and the images a tool call returned (a browser screenshot), as references, on its trace.
 */
const V8 = `
CREATE TABLE session_images (session_id TEXT NOT NULL, sha256 TEXT NOT NULL, PRIMARY KEY (session_id, sha256));
CREATE INDEX session_images_sha ON session_images(sha256);
ALTER TABLE tool_traces ADD COLUMN images_json TEXT;
`;

/**
 * v9: which session has a request running, in which window (journal writer), since when: a session left
 * running by a window that is gone was interrupted (`run_state` records; store-runs.ts).
 */
const V9 = `
CREATE TABLE session_runs (
  session_id TEXT PRIMARY KEY, request_id TEXT NOT NULL, writer TEXT NOT NULL, started_at INTEGER NOT NULL
);
`;

/**
 * v10: what each message spent, by source (the chat, a sub-agent, the reviewer, a research phase,
 * compaction; usage-entries.ts), kept apart from the message rows so the Usage view scans one narrow
 * table of numbers, and kept when a session's body goes cold or a rewind drops the message (it was paid
 * for). What an entry is about (model, mode, source, label, workspace) is a row of `usage_keys`, a few
 * hundred at most: the view reads integers only, which is what keeps it fast at 10,000 sessions.
 * Existing messages are carried over as "chat" (research-mode ones as "research", compaction cards as
 * "compaction"): older versions did not record where the rest went. Sessions already cold are carried
 * over from their files by the store's upkeep (usage-entries.ts `backfillColdUsage`), a batch per snapshot.
 */
const V10 = `
CREATE TABLE usage_keys (
  id INTEGER PRIMARY KEY, model TEXT NOT NULL, mode TEXT NOT NULL, source TEXT NOT NULL, label TEXT NOT NULL,
  workspace TEXT NOT NULL, UNIQUE (model, mode, source, label, workspace)
);
CREATE TABLE usage_entries (
  message_id TEXT NOT NULL, idx INTEGER NOT NULL, session_id TEXT NOT NULL, at INTEGER NOT NULL, key INTEGER NOT NULL,
  input_tokens INTEGER NOT NULL, cached_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL, cost_usd REAL,
  PRIMARY KEY (message_id, idx)
);
CREATE INDEX usage_entries_at ON usage_entries(at);
CREATE INDEX usage_entries_session ON usage_entries(session_id);
CREATE TEMP TABLE usage_carry AS
  SELECT m.id AS message_id, 0 AS idx, m.session_id, m.created_at AS at, coalesce(m.model, '') AS model, m.mode,
         CASE m.mode WHEN 'research' THEN 'research' ELSE 'chat' END AS source, coalesce(s.workspace, '') AS workspace,
         m.usage_json AS u
    FROM messages m LEFT JOIN sessions s ON s.id = m.session_id
   WHERE m.usage_json IS NOT NULL AND json_valid(m.usage_json)
  UNION ALL
  SELECT p.message_id, 1 + p.idx, m.session_id, m.created_at, coalesce(m.model, ''), m.mode, 'compaction',
         coalesce(s.workspace, ''), json_extract(p.text, '$.usage')
    FROM message_parts p JOIN messages m ON m.id = p.message_id LEFT JOIN sessions s ON s.id = m.session_id
   WHERE p.type = 'compaction' AND json_valid(p.text) AND json_extract(p.text, '$.usage') IS NOT NULL;
INSERT OR IGNORE INTO usage_keys (model, mode, source, label, workspace)
  SELECT DISTINCT model, mode, source, '', workspace FROM usage_carry;
INSERT OR IGNORE INTO usage_entries
  SELECT c.message_id, c.idx, c.session_id, c.at, k.id, coalesce(json_extract(c.u, '$.inputTokens'), 0),
         coalesce(json_extract(c.u, '$.cachedTokens'), 0), coalesce(json_extract(c.u, '$.outputTokens'), 0),
         json_extract(c.u, '$.costUsd')
    FROM usage_carry c JOIN usage_keys k
      ON k.model = c.model AND k.mode = c.mode AND k.source = c.source AND k.label = '' AND k.workspace = c.workspace;
DROP TABLE usage_carry;
INSERT INTO meta (key, value) SELECT 'usage_backfill', 'pending'
  WHERE EXISTS (SELECT 1 FROM sessions WHERE cold_file IS NOT NULL)
  ON CONFLICT(key) DO UPDATE SET value = excluded.value;
`;

/**
 * v11: a research report's sources with the text read from each (and the report's question), so a
 * follow-up after a restart reuses them instead of fetching them again, and a citation's quote can be
 * shown in the page's stored text.
 */
const V11 = `
CREATE TABLE research_sources (
  artifact_id TEXT NOT NULL, n INTEGER NOT NULL, url TEXT NOT NULL, final_url TEXT, title TEXT NOT NULL,
  text TEXT NOT NULL, accessed_at INTEGER NOT NULL, path TEXT, line_start INTEGER, line_end INTEGER,
  PRIMARY KEY (artifact_id, n)
);
ALTER TABLE artifacts ADD COLUMN question TEXT;
`;

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, description: 'initial layout', up: (db) => db.exec(V1) },
  {
    version: 2,
    description: 'blob refs, title source, message count, memory search',
    up: (db) => {
      db.exec(V2);
      backfillMemory(db);
    },
  },
  {
    version: 3,
    description: "a failed tool call's one-line summary",
    up: (db) => db.exec('ALTER TABLE tool_traces ADD COLUMN summary TEXT;'),
  },
  { version: 4, description: 'turn checkpoints and rewind state', up: (db) => db.exec(V4) },
  { version: 5, description: 'cold sessions in per-session files, pending file deletes', up: (db) => db.exec(V5) },
  { version: 6, description: "a session's workspace", up: (db) => db.exec(V6) },
  { version: 7, description: "cold sessions' search index in segment files", up: (db) => db.exec(V7) },
  { version: 8, description: 'images as files, named per session', up: (db) => db.exec(V8) },
  { version: 9, description: 'running requests per session (interrupted runs)', up: (db) => db.exec(V9) },
  { version: 10, description: 'usage by source (the Usage view)', up: (db) => db.exec(V10) },
  { version: 11, description: "research reports' sources and their texts", up: (db) => db.exec(V11) },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

export class NewerSchemaError extends Error {
  constructor(
    readonly found: number,
    readonly supported: number,
    readonly file: string,
  ) {
    super(
      `Sextant's history database ${file} was written by a newer version of Sextant (schema v${found}; ` +
        `this version understands up to v${supported}). Update Sextant to open it. The file was left untouched.`,
    );
    this.name = 'NewerSchemaError';
  }
}

export function schemaVersion(db: Database): number {
  const row = db.exec('PRAGMA user_version')[0];
  return Number(row?.values[0]?.[0] ?? 0);
}

/** Brings `db` up to SCHEMA_VERSION. Returns the versions applied (empty when already current). */
export function migrate(db: Database, file: string): number[] {
  const from = schemaVersion(db);
  if (from > SCHEMA_VERSION) throw new NewerSchemaError(from, SCHEMA_VERSION, file);
  const applied: number[] = [];
  for (const m of MIGRATIONS) {
    if (m.version <= from) continue;
    db.exec('BEGIN');
    try {
      m.up(db);
      db.exec(`PRAGMA user_version = ${m.version}`);
      db.exec('COMMIT');
    } catch (err) {
      db.exec('ROLLBACK');
      throw new Error(`migration to schema v${m.version} (${m.description}) failed: ${(err as Error).message}`);
    }
    applied.push(m.version);
  }
  return applied;
}

function backfillMemory(db: Database): void {
  const rows = queryAll(
    db,
    `SELECT m.id AS id, m.session_id AS session_id, group_concat(p.text, '\n\n') AS text
       FROM messages m JOIN message_parts p ON p.message_id = m.id AND p.type = 'text'
      WHERE m.status != 'streaming' GROUP BY m.id ORDER BY m.session_id, m.ord`,
  );
  for (const r of rows) indexMessageText(db, String(r.session_id), String(r.id), String(r.text ?? ''));
}
