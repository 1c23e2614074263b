// Shared by the store tests: temp folders, a recording logger, a shared sql.js, record builders.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Envelope } from '../../../extension/protocol';
import type { JournalRecord, Logger } from '../../../extension/core/ports';
import { loadSqlJs, type SqlJsStatic } from '../../../extension/core/store/sqljs';
import { openSessionStore, type SessionStore, type SessionStoreOptions } from '../../../extension/core/store';

export const ROOT = process.cwd();
export const WASM = join(ROOT, 'node_modules/sql.js/dist/sql-wasm.wasm');

let sqlPromise: Promise<SqlJsStatic> | undefined;
export function sql(): Promise<SqlJsStatic> {
  sqlPromise ??= loadSqlJs(WASM);
  return sqlPromise;
}

export function tempDir(label = 'store'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `sextant-${label}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface RecordingLog extends Logger {
  lines: string[];
}
export function recordingLog(): RecordingLog {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
}

export async function open(dir: string, extra: Partial<SessionStoreOptions> = {}): Promise<SessionStore> {
  return openSessionStore({
    dir,
    log: extra.log ?? recordingLog(),
    sql: await sql(),
    snapshotDelayMs: 60_000,
    ...extra,
  });
}

/** Builds the envelopes of one request, seq numbered from 1. */
export class RequestBuilder {
  private seq = 0;
  constructor(
    readonly requestId: string,
    private ts = 1_000,
  ) {}
  env(event: Envelope['event']): Envelope {
    return { requestId: this.requestId, seq: ++this.seq, ts: this.ts++, event };
  }
}

export function created(sessionId: string, at: number, title = ''): JournalRecord {
  return { kind: 'session_created', sessionId, title, mode: 'agent', model: 'fake/model', at };
}

export function events(sessionId: string, at: number, envelopes: Envelope[]): JournalRecord {
  return { kind: 'events', sessionId, envelopes, at };
}

/** A whole exchange: user text, an answer with thinking, a tool card and a final text. */
export function exchange(
  sessionId: string,
  requestId: string,
  at: number,
  user: string,
  answer: string,
): JournalRecord[] {
  const r = new RequestBuilder(requestId, at);
  return [
    events(sessionId, at, [
      r.env({
        type: 'started',
        userMessageId: `${requestId}-u`,
        assistantMessageId: `${requestId}-a`,
        text: user,
        mode: 'agent',
        model: 'fake/model',
      }),
    ]),
    events(sessionId, at + 1, [r.env({ type: 'thinking_delta', text: 'Let me look.' })]),
    events(sessionId, at + 2, [
      r.env({
        type: 'tool_started',
        call: { callId: `${requestId}-c1`, name: 'read_file', kind: 'read', subject: 'src/a.ts', status: 'running' },
      }),
      r.env({
        type: 'tool_updated',
        call: {
          callId: `${requestId}-c1`,
          name: 'read_file',
          kind: 'read',
          subject: 'src/a.ts',
          status: 'ok',
          durationMs: 5,
          preview: '1 line',
          detail: 'export const a = 1;',
        },
      }),
    ]),
    events(sessionId, at + 3, [
      r.env({ type: 'text_delta', text: answer.slice(0, 5) }),
      r.env({ type: 'text_delta', text: answer.slice(5) }),
    ]),
    events(sessionId, at + 4, [
      r.env({ type: 'usage', usage: { inputTokens: 10, outputTokens: 20, cachedTokens: 0 } }),
      r.env({ type: 'complete' }),
    ]),
    {
      kind: 'model_messages',
      sessionId,
      at: at + 4,
      messages: [
        { role: 'user', content: user },
        { role: 'assistant', text: answer },
      ],
    },
  ];
}
