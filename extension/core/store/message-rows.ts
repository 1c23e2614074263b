// A chat message and its rows: the messages, message_parts and tool_traces tables (long tool details in
// blobs), and a session's todo list. Written by the projection as records are folded in, read back by
// the projection (a session going live again), the history reads and the move to cold files; kept here
// so the row layout is defined in one place, apart from the record handling in projection.ts.
import * as z from 'zod';
import {
  type ChatMessage,
  type ChatState,
  type ImageRef,
  ImageRefSchema,
  type MessagePart,
  type SubagentView,
  SubagentViewSchema,
} from '../../protocol';
import type { BlobStore } from './blobs';
import { isJsonPart, jsonPartFromRow, partText } from './json-parts';
import { indexMessageText } from './memory-index';
import { writeUsageEntries } from './usage-entries';
import type { Database } from './sqljs';
import { queryAll } from './sqljs';

export function messageText(m: ChatMessage): string {
  return m.parts
    .filter((p): p is Extract<MessagePart, { type: 'text' }> => p.type === 'text')
    .map((p) => p.text)
    .join('\n\n');
}

/** Replaces a session's todo list rows. */
export function writeTodos(db: Database, sessionId: string, todos: ChatState['todos']): void {
  db.run('DELETE FROM todos WHERE session_id = ?', [sessionId]);
  for (const [i, t] of todos.entries()) {
    db.run('INSERT INTO todos (session_id, idx, id, content, status) VALUES (?, ?, ?, ?, ?)', [
      sessionId,
      i,
      t.id,
      t.content,
      t.status,
    ]);
  }
}

/** Writes one message's rows (its parts, its tool calls' traces) and, once it is final, its search chunks. */
export function writeMessage(db: Database, blobs: BlobStore, sessionId: string, ord: number, m: ChatMessage): void {
  db.run(
    `INSERT OR REPLACE INTO messages
       (id, session_id, ord, role, mode, status, model, created_at, error_json, usage_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      m.id,
      sessionId,
      ord,
      m.role,
      m.mode,
      m.status,
      m.model ?? null,
      m.createdAt,
      m.error ? JSON.stringify(m.error) : null,
      m.usage ? JSON.stringify(m.usage) : null,
    ],
  );
  writeUsageEntries(db, sessionId, m);
  db.run('DELETE FROM message_parts WHERE message_id = ?', [m.id]);
  db.run('DELETE FROM tool_traces WHERE message_id = ?', [m.id]);
  m.parts.forEach((p, idx) => {
    if (p.type !== 'tool') {
      // A card (plan, report, compaction marker, notice) is kept whole, as JSON, in the text column.
      db.run('INSERT INTO message_parts (message_id, idx, type, text) VALUES (?, ?, ?, ?)', [
        m.id,
        idx,
        p.type,
        partText(p),
      ]);
      return;
    }
    const c = p.call;
    // A task call's sub-agent (its card and transcript) rides as JSON in the part's otherwise empty text.
    db.run('INSERT INTO message_parts (message_id, idx, type, text, call_id) VALUES (?, ?, ?, ?, ?)', [
      m.id,
      idx,
      'tool',
      c.subagent ? JSON.stringify(c.subagent) : null,
      c.callId,
    ]);
    const detail = blobs.split(c.detail);
    db.run(
      `INSERT OR REPLACE INTO tool_traces (message_id, call_id, session_id, name, kind, subject, status,
         started_at, duration_ms, preview, detail, detail_ref, live_output, summary, images_json)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        m.id,
        c.callId,
        sessionId,
        c.name,
        c.kind,
        c.subject,
        c.status,
        c.startedAt ?? null,
        c.durationMs ?? null,
        c.preview ?? null,
        detail.inline,
        detail.ref,
        c.liveOutput ?? null,
        c.summary ?? null,
        c.images?.length ? JSON.stringify(c.images) : null,
      ],
    );
  });
  if (m.status !== 'streaming') indexMessageText(db, sessionId, m.id, messageText(m));
}

export function readTodos(db: Database, sessionId: string): ChatState['todos'] {
  return queryAll(db, 'SELECT id, content, status FROM todos WHERE session_id = ? ORDER BY idx', [sessionId]).map(
    (r) => ({
      id: String(r.id),
      content: String(r.content),
      status: r.status as ChatState['todos'][number]['status'],
    }),
  );
}

export function readMessages(db: Database, blobs: BlobStore, sessionId: string): ChatMessage[] {
  const parts = new Map<string, MessagePart[]>();
  const traces = new Map<string, Record<string, unknown>>();
  for (const t of queryAll(db, 'SELECT * FROM tool_traces WHERE session_id = ?', [sessionId]))
    traces.set(`${String(t.message_id)}\u0000${String(t.call_id)}`, t);
  const partRows = queryAll(
    db,
    `SELECT p.message_id, p.type, p.text, p.call_id FROM message_parts p JOIN messages m ON m.id = p.message_id
      WHERE m.session_id = ? ORDER BY p.message_id, p.idx`,
    [sessionId],
  );
  for (const p of partRows) {
    const mid = String(p.message_id);
    let list = parts.get(mid);
    if (!list) {
      list = [];
      parts.set(mid, list);
    }
    if (p.type === 'tool') {
      const t = traces.get(`${mid}\u0000${String(p.call_id)}`);
      if (!t) continue;
      const call: Extract<MessagePart, { type: 'tool' }>['call'] = {
        callId: String(t.call_id),
        name: String(t.name),
        kind: t.kind as 'read',
        subject: String(t.subject),
        status: t.status as 'ok',
      };
      if (t.started_at !== null) call.startedAt = Number(t.started_at);
      if (t.duration_ms !== null) call.durationMs = Number(t.duration_ms);
      if (t.preview !== null) call.preview = String(t.preview);
      const detail = blobs.join(t.detail, t.detail_ref);
      if (detail !== undefined) call.detail = detail;
      if (t.live_output !== null) call.liveOutput = String(t.live_output);
      if (t.summary !== null && t.summary !== undefined) call.summary = String(t.summary);
      const images = imagesFromRow(t.images_json);
      if (images) call.images = images;
      const subagent = subagentFromRow(p.text);
      if (subagent) call.subagent = subagent;
      list.push({ type: 'tool', call });
    } else if (isJsonPart(String(p.type))) {
      const card = jsonPartFromRow(String(p.type), p.text);
      if (card) list.push(card);
    } else list.push({ type: p.type as 'text', text: String(p.text ?? '') });
  }
  return queryAll(db, 'SELECT * FROM messages WHERE session_id = ? ORDER BY ord', [sessionId]).map((r) => {
    const m: ChatMessage = {
      id: String(r.id),
      role: r.role as ChatMessage['role'],
      mode: r.mode as ChatMessage['mode'],
      parts: parts.get(String(r.id)) ?? [],
      status: r.status as ChatMessage['status'],
      createdAt: Number(r.created_at),
    };
    if (r.model !== null) m.model = String(r.model);
    if (r.error_json !== null) m.error = JSON.parse(String(r.error_json)) as ChatMessage['error'];
    if (r.usage_json !== null) m.usage = JSON.parse(String(r.usage_json)) as ChatMessage['usage'];
    return m;
  });
}

/** A tool call's stored image references; unreadable ones are left out. */
function imagesFromRow(text: unknown): ImageRef[] | undefined {
  if (typeof text !== 'string' || !text) return undefined;
  try {
    const parsed = z.array(ImageRefSchema).safeParse(JSON.parse(text));
    return parsed.success && parsed.data.length ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** A stored sub-agent card; an unreadable one is left out (the call's own card still shows). */
function subagentFromRow(text: unknown): SubagentView | undefined {
  if (typeof text !== 'string' || !text) return undefined;
  try {
    const parsed = SubagentViewSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
