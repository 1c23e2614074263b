// Applies journal records to the database. `events` records go through the shared protocol
// reducer (the same one the webview renders with) into an in-memory ChatState per live session;
// the changed messages are written to their tables in one transaction by materialize(), which
// runs before every read and every snapshot. That keeps append() O(event) however long the chat.
import type { JournalRecord, Logger, TurnCheckpoint } from '../ports';
import { applyEnvelope, emptyChatState, type ChatState } from '../../protocol';
import type { BlobStore } from './blobs';
import type { ColdFiles } from './cold-files';
import { readMessages, readTodos, writeMessage, writeTodos } from './message-rows';
import { removeMessageChunks, removeSessionChunks } from './memory-index';
import { queueDelete } from './pending-deletes';
import { noteSessionImages } from './session-images';
import { dropColdSearch } from './cold-index-upkeep';
import { restoreColdSearchText } from './cold-move';
import type { Database } from './sqljs';
import { queryAll, queryOne } from './sqljs';
import { writeResearch } from './research-sources';

/** A session the projection is folding records into: its chat state and what is not yet written. */
interface ProjectingSession {
  state: ChatState;
  dirty: Set<string>;
  todosDirty: boolean;
}

type ReducerState = Pick<ChatState, 'requests' | 'approvals' | 'questions' | 'inFlightRequestId'>;

// The row codec moved to message-rows.ts; these stay importable from here.
export { messageText, readMessages, readTodos } from './message-rows';

export class Projection {
  private live = new Map<string, ProjectingSession>();
  private modelMessageCount = new Map<string, number>();

  constructor(
    public db: Database,
    private readonly blobs: BlobStore,
    private readonly log: Logger,
    private readonly cold?: ColdFiles,
  ) {}

  /** Forgets what is cached about a session (its body just moved to a cold file). */
  forget(sessionId: string): void {
    this.live.delete(sessionId);
    this.modelMessageCount.delete(sessionId);
  }

  /** Sessions with pending changes (never moved to a cold file while so). */
  liveSessions(): ReadonlySet<string> {
    return new Set(this.live.keys());
  }

  /**
   * Brings a cold session's body back into the database before a record changes it (the file is
   * queued for deletion once two snapshots no longer name it). Throws when the file cannot be read:
   * the record stays in the journal, and is applied by a later open or reload.
   */
  warm(sessionId: string): void {
    if (!this.cold) return;
    const row = queryOne(this.db, 'SELECT cold_file FROM sessions WHERE id = ?', [sessionId]);
    if (typeof row?.cold_file !== 'string') return;
    const doc = this.cold.read(row.cold_file);
    const db = this.db;
    db.exec('BEGIN');
    try {
      restoreColdSearchText(db, sessionId, doc.messages);
      removeSessionChunks(db, sessionId);
      dropColdSearch(db, sessionId);
      for (const [ord, m] of doc.messages.entries()) writeMessage(this.db, this.blobs, sessionId, ord, m);
      doc.modelMessages.forEach((m, idx) => {
        const { inline, ref } = this.blobs.split(JSON.stringify(m));
        db.run('INSERT OR REPLACE INTO model_messages (session_id, idx, role, body, body_ref) VALUES (?, ?, ?, ?, ?)', [
          sessionId,
          idx,
          m.role,
          inline ?? '',
          ref,
        ]);
      });
      db.run('UPDATE sessions SET cold_file = NULL, cold_bytes = 0 WHERE id = ?', [sessionId]);
      queueDelete(db, `sessions/${row.cold_file}`);
      db.exec('COMMIT');
    } catch (err) {
      db.exec('ROLLBACK');
      throw err;
    }
    this.modelMessageCount.delete(sessionId);
  }

  /** Points the projection at a different database (after a reload) and forgets its caches. */
  reset(db: Database): void {
    this.db = db;
    this.live.clear();
    this.modelMessageCount.clear();
  }

  apply(rec: JournalRecord): void {
    const db = this.db;
    noteSessionImages(db, rec);
    switch (rec.kind) {
      case 'session_created':
        db.run(
          `INSERT INTO sessions (id, title, mode, model, created_at, updated_at, workspace)
           VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT(id) DO UPDATE SET title = excluded.title, mode = excluded.mode, model = excluded.model`,
          [rec.sessionId, rec.title, rec.mode, rec.model, rec.at, rec.at, rec.workspace ?? null],
        );
        break;
      case 'session_meta': {
        this.ensureSession(rec.sessionId, rec.at);
        if (rec.title !== undefined) {
          const row = queryOne(db, 'SELECT title_source FROM sessions WHERE id = ?', [rec.sessionId]);
          const source = rec.titleSource ?? 'auto';
          // A generated title never replaces one the user chose.
          if (source === 'user' || row?.title_source !== 'user')
            db.run('UPDATE sessions SET title = ?, title_source = ? WHERE id = ?', [rec.title, source, rec.sessionId]);
        }
        if (rec.mode !== undefined) db.run('UPDATE sessions SET mode = ? WHERE id = ?', [rec.mode, rec.sessionId]);
        if (rec.model !== undefined) db.run('UPDATE sessions SET model = ? WHERE id = ?', [rec.model, rec.sessionId]);
        this.touch(rec.sessionId, rec.at);
        break;
      }
      case 'events': {
        this.ensureSession(rec.sessionId, rec.at);
        if (!this.live.has(rec.sessionId)) this.warm(rec.sessionId);
        const live = this.getLive(rec.sessionId);
        for (const env of rec.envelopes) {
          const changed = applyEnvelope(live.state, env);
          if (changed) live.dirty.add(changed);
          if (env.event.type === 'started') live.dirty.add(env.event.userMessageId);
          if (env.event.type === 'todos') live.todosDirty = true;
        }
        this.touch(rec.sessionId, rec.at);
        break;
      }
      case 'model_messages': {
        this.ensureSession(rec.sessionId, rec.at);
        let idx = this.modelMessageCount.get(rec.sessionId);
        if (idx === undefined) this.warm(rec.sessionId);
        if (idx === undefined)
          idx = Number(
            queryOne(db, 'SELECT count(*) AS n FROM model_messages WHERE session_id = ?', [rec.sessionId])?.n ?? 0,
          );
        for (const m of rec.messages) {
          const { inline, ref } = this.blobs.split(JSON.stringify(m));
          db.run(
            'INSERT OR REPLACE INTO model_messages (session_id, idx, role, body, body_ref) VALUES (?, ?, ?, ?, ?)',
            [rec.sessionId, idx++, m.role, inline ?? '', ref],
          );
        }
        this.modelMessageCount.set(rec.sessionId, idx);
        this.touch(rec.sessionId, rec.at);
        break;
      }
      case 'todos': {
        this.ensureSession(rec.sessionId, rec.at);
        const live = this.live.get(rec.sessionId);
        if (live) {
          live.state.todos = rec.todos;
          live.todosDirty = true;
        } else writeTodos(this.db, rec.sessionId, rec.todos);
        this.touch(rec.sessionId, rec.at);
        break;
      }
      case 'session_deleted':
        db.run('UPDATE sessions SET deleted_at = ? WHERE id = ?', [rec.at, rec.sessionId]);
        break;
      case 'session_restored':
        db.run('UPDATE sessions SET deleted_at = NULL WHERE id = ?', [rec.sessionId]);
        break;
      case 'artifact': {
        this.ensureSession(rec.sessionId, rec.at);
        const a = rec.artifact;
        db.run(
          `INSERT INTO artifacts (id, session_id, kind, title, content, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT(id) DO UPDATE SET kind = excluded.kind, title = excluded.title, content = excluded.content,
             updated_at = excluded.updated_at`,
          [a.id, rec.sessionId, a.kind, a.title, a.content, rec.at, rec.at],
        );
        db.run('DELETE FROM citations WHERE artifact_id = ?', [a.id]);
        for (const c of a.citations ?? [])
          db.run('INSERT OR REPLACE INTO citations (artifact_id, n, url, title, snippet) VALUES (?, ?, ?, ?, ?)', [
            a.id,
            c.n,
            c.url,
            c.title ?? null,
            c.snippet ?? null,
          ]);
        if (a.research) writeResearch(db, a.id, a.research);
        this.touch(rec.sessionId, rec.at);
        break;
      }
      case 'turn_checkpoint': {
        this.ensureSession(rec.sessionId, rec.at);
        this.writeCheckpoint(rec.sessionId, rec.checkpoint);
        this.touch(rec.sessionId, rec.at);
        break;
      }
      case 'conversation_replaced':
        this.ensureSession(rec.sessionId, rec.at);
        this.replaceConversation(rec);
        this.touch(rec.sessionId, rec.at);
        break;
      case 'run_state':
        this.ensureSession(rec.sessionId, rec.at);
        if (rec.requestId === null) db.run('DELETE FROM session_runs WHERE session_id = ?', [rec.sessionId]);
        else
          db.run(
            'INSERT OR REPLACE INTO session_runs (session_id, request_id, writer, started_at) VALUES (?, ?, ?, ?)',
            [rec.sessionId, rec.requestId, rec.writer ?? '', rec.at],
          );
        break;
      case 'rewind_state':
        this.ensureSession(rec.sessionId, rec.at);
        db.run('UPDATE sessions SET rewind_json = ? WHERE id = ?', [
          rec.redo ? JSON.stringify(rec.redo) : null,
          rec.sessionId,
        ]);
        break;
      default:
        // A record from a newer version: keep going, the rest of the journal is still good.
        this.log.warn(`store: ignored a journal record of unknown kind ${(rec as { kind?: unknown }).kind as string}`);
    }
  }

  /** Upserts a turn checkpoint; a new one goes after the session's others. */
  private writeCheckpoint(sessionId: string, cp: TurnCheckpoint): void {
    const db = this.db;
    const existing = queryOne(db, 'SELECT idx FROM turn_checkpoints WHERE session_id = ? AND user_message_id = ?', [
      sessionId,
      cp.userMessageId,
    ]);
    const idx =
      existing?.idx ??
      queryOne(db, 'SELECT coalesce(max(idx) + 1, 0) AS n FROM turn_checkpoints WHERE session_id = ?', [sessionId])?.n;
    db.run('INSERT OR REPLACE INTO turn_checkpoints (session_id, user_message_id, idx, body) VALUES (?, ?, ?, ?)', [
      sessionId,
      cp.userMessageId,
      Number(idx ?? 0),
      JSON.stringify(cp),
    ]);
  }

  /**
   * Replaces a session's messages, model history and turn checkpoints with the record's (a rewind,
   * an earlier branch, a redo). Pending changes are written first, then the session's rows are
   * rewritten and its caches dropped, so the next event starts from the new conversation.
   */
  private replaceConversation(rec: Extract<JournalRecord, { kind: 'conversation_replaced' }>): void {
    this.materialize();
    this.warm(rec.sessionId);
    this.live.delete(rec.sessionId);
    this.modelMessageCount.delete(rec.sessionId);
    const db = this.db;
    db.exec('BEGIN');
    try {
      this.rewriteConversation(rec);
      db.exec('COMMIT');
    } catch (err) {
      db.exec('ROLLBACK');
      throw err;
    }
  }

  private rewriteConversation(rec: Extract<JournalRecord, { kind: 'conversation_replaced' }>): void {
    const db = this.db;
    const id = rec.sessionId;
    const old = queryAll(db, 'SELECT id FROM messages WHERE session_id = ?', [id]).map((r) => String(r.id));
    for (const m of old) {
      removeMessageChunks(db, m);
      db.run('DELETE FROM message_parts WHERE message_id = ?', [m]);
    }
    db.run('DELETE FROM tool_traces WHERE session_id = ?', [id]);
    db.run('DELETE FROM messages WHERE session_id = ?', [id]);
    db.run('DELETE FROM model_messages WHERE session_id = ?', [id]);
    db.run('DELETE FROM turn_checkpoints WHERE session_id = ?', [id]);
    for (const [ord, m] of rec.messages.entries()) writeMessage(this.db, this.blobs, id, ord, m);
    rec.modelMessages.forEach((m, idx) => {
      const { inline, ref } = this.blobs.split(JSON.stringify(m));
      db.run('INSERT INTO model_messages (session_id, idx, role, body, body_ref) VALUES (?, ?, ?, ?, ?)', [
        id,
        idx,
        m.role,
        inline ?? '',
        ref,
      ]);
    });
    for (const cp of rec.checkpoints) this.writeCheckpoint(id, cp);
    db.run('UPDATE sessions SET message_count = ?, reducer_state = NULL WHERE id = ?', [rec.messages.length, id]);
  }

  private ensureSession(id: string, at: number): void {
    this.db.run(
      `INSERT OR IGNORE INTO sessions (id, title, mode, model, created_at, updated_at)
       VALUES (?, '', 'chat', '', ?, ?)`,
      [id, at, at],
    );
  }

  private touch(id: string, at: number): void {
    this.db.run('UPDATE sessions SET updated_at = max(updated_at, ?) WHERE id = ?', [at, id]);
  }

  /** The database with every pending change written (for a read). */
  materialized(): Database {
    this.materialize();
    return this.db;
  }

  /** Writes every pending change to the tables, then forgets sessions with nothing in flight. */
  materialize(): void {
    if (this.live.size === 0) return;
    const db = this.db;
    db.exec('BEGIN');
    try {
      for (const [id, live] of this.live) {
        const { state } = live;
        for (const msgId of live.dirty) {
          const ord = state.messages.findIndex((m) => m.id === msgId);
          if (ord >= 0) writeMessage(this.db, this.blobs, id, ord, state.messages[ord]);
        }
        live.dirty.clear();
        if (live.todosDirty) writeTodos(this.db, id, state.todos);
        live.todosDirty = false;
        const reducer: ReducerState = {
          requests: Object.fromEntries(Object.entries(state.requests).filter(([, r]) => !r.done)),
          approvals: state.approvals,
          questions: state.questions,
          inFlightRequestId: state.inFlightRequestId,
        };
        db.run('UPDATE sessions SET reducer_state = ?, message_count = ? WHERE id = ?', [
          JSON.stringify(reducer),
          state.messages.length,
          id,
        ]);
        if (!state.inFlightRequestId) this.live.delete(id);
      }
      db.exec('COMMIT');
    } catch (err) {
      db.exec('ROLLBACK');
      throw err;
    }
  }

  private getLive(sessionId: string): ProjectingSession {
    let live = this.live.get(sessionId);
    if (!live) {
      const state = emptyChatState();
      state.messages = readMessages(this.db, this.blobs, sessionId);
      state.todos = readTodos(this.db, sessionId);
      const row = queryOne(this.db, 'SELECT reducer_state FROM sessions WHERE id = ?', [sessionId]);
      if (typeof row?.reducer_state === 'string') Object.assign(state, JSON.parse(row.reducer_state) as ReducerState);
      live = { state, dirty: new Set(), todosDirty: false };
      this.live.set(sessionId, live);
    }
    return live;
  }
}
