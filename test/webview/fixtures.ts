// Builders for what the host sends: snapshots, messages and request events.
import type { ChatMessage, Envelope, Mode, Outbound, RequestEvent, Snapshot } from '../../extension/protocol';

export function snapshot(overrides: Partial<Snapshot> = {}): Snapshot {
  return {
    sessionId: 's-1',
    title: 'Test session',
    mode: 'chat',
    model: 'fake/model-a',
    models: [
      { ref: 'fake/model-a', label: 'Model A', hasKey: true },
      { ref: 'fake/model-b', label: 'Model B', hasKey: false },
    ],
    modes: [
      { mode: 'chat', enabled: true },
      { mode: 'plan', enabled: false, reason: 'Plan mode arrives with issue 6' },
      { mode: 'research', enabled: true },
      { mode: 'agent', enabled: true },
    ],
    messages: [],
    todos: [],
    approvals: [],
    questions: [],
    workspaceTrusted: true,
    ...overrides,
  };
}

export function snapshotMessage(s: Snapshot): Outbound {
  return { type: 'snapshot', snapshot: s };
}

let counter = 0;
export function message(role: 'user' | 'assistant', text: string, extra: Partial<ChatMessage> = {}): ChatMessage {
  counter++;
  return {
    id: `m-${counter}`,
    role,
    mode: 'chat',
    parts: text ? [{ type: 'text', text }] : [],
    status: 'done',
    createdAt: 1_700_000_000_000 + counter,
    ...extra,
  };
}

/** A conversation of n messages alternating user / assistant, with some Markdown in the answers. */
export function conversation(n: number): ChatMessage[] {
  return Array.from({ length: n }, (_, i) =>
    i % 2 === 0
      ? message('user', `Question number ${i / 2}: how does part ${i} work?`)
      : message(
          'assistant',
          `Answer ${i}: it **works** like this.\n\n- point one\n- point two\n\n\`\`\`ts\nconst x${i} = ${i};\n\`\`\`\n`,
        ),
  );
}

/** Plays one request's events with increasing seq. */
export class RequestScript {
  private seq = 0;
  constructor(
    readonly requestId: string,
    readonly assistantMessageId = `a-${requestId}`,
  ) {}

  envelope(event: RequestEvent): Envelope {
    this.seq++;
    return { requestId: this.requestId, seq: this.seq, ts: 1_700_000_000_000 + this.seq, event };
  }

  events(...events: RequestEvent[]): Outbound {
    return { type: 'events', envelopes: events.map((e) => this.envelope(e)) };
  }

  started(text: string, mode: Mode = 'chat'): RequestEvent {
    return {
      type: 'started',
      userMessageId: `u-${this.requestId}`,
      assistantMessageId: this.assistantMessageId,
      text,
      mode,
      model: 'fake/model-a',
    };
  }
}
