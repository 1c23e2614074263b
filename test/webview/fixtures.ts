// Builders for what the host sends: snapshots, messages and request events.
import type { ChatMessage, Envelope, Mode, Outbound, Report, RequestEvent, Snapshot } from '../../extension/protocol';

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

/** A verified research report: two sources, one claim supported and one marked unsupported. */
export const REPORT: Report = {
  id: 'report-1',
  title: 'What changed in Rust 2024',
  question: 'What changed in the Rust 2024 edition?',
  markdown: [
    '# What changed in Rust 2024',
    '## Summary',
    'The edition shipped with Rust 1.85 [1]. It reached 60% of users [2]. *(not supported by the cited source)*',
    '## Sources',
    '1. [The Rust 2024 edition](https://a.example/edition) — accessed 2026-11-23',
    '2. [Survey](https://c.example/survey) — accessed 2026-11-23',
  ].join('\n'),
  sources: [
    { n: 1, url: 'https://a.example/edition', title: 'The Rust 2024 edition', accessedAt: Date.UTC(2026, 10, 23) },
    { n: 2, url: 'https://c.example/survey', title: 'Survey', accessedAt: Date.UTC(2026, 10, 23) },
  ],
  verdicts: [
    { claim: 'The edition shipped with Rust 1.85.', cites: [1], verdict: 'supported', by: 'model', coverage: 1 },
    {
      claim: 'It reached 60% of users.',
      cites: [2],
      verdict: 'unsupported',
      by: 'lexical',
      coverage: 0.5,
      reason: 'the cited page does not contain 60',
    },
  ],
  notes: ['1 of 2 cited claims supported; 1 marked as not supported.', '2 searches and 2 pages read in 4 s.'],
  stats: {
    searches: 2,
    sourcesRead: 2,
    claims: 2,
    supported: 1,
    unsupported: 1,
    unchecked: 0,
    inventedRemoved: 0,
    unfetchedUrlsRemoved: 0,
  },
  createdAt: Date.UTC(2026, 10, 23),
};
