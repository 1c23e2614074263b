// Deterministic chat content for the streaming benchmark: a history of n messages, and an
// answer of N tokens cut into the batches a host would post (one `events` message per frame).

function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = [
  'the a model answer streams tokens into markdown with code tables lists and links',
  'while history grows long yet every frame stays cheap because only one message redraws',
]
  .join(' ')
  .split(' ');

/** ~N tokens of varied Markdown: paragraphs, lists, fenced code, tables. A token is one word or symbol chunk. */
export function answerTokens(n, seed = 7) {
  const r = rng(seed);
  const tokens = [];
  const word = () => WORDS[Math.floor(r() * WORDS.length)];
  while (tokens.length < n) {
    const kind = r();
    if (kind < 0.55) {
      const len = 20 + Math.floor(r() * 40);
      for (let i = 0; i < len; i++) tokens.push(`${i === 0 ? '' : ' '}${i % 9 === 4 ? `**${word()}**` : word()}`);
      tokens.push('.\n\n');
    } else if (kind < 0.75) {
      for (let i = 0; i < 4; i++) {
        tokens.push('- ');
        for (let j = 0; j < 6; j++) tokens.push(`${j ? ' ' : ''}${word()}`);
        tokens.push('\n');
      }
      tokens.push('\n');
    } else if (kind < 0.9) {
      tokens.push('```ts\n');
      for (let i = 0; i < 6; i++) tokens.push(`const ${word()}${i} = `, `${Math.floor(r() * 1000)};`, '\n');
      tokens.push('```\n\n');
    } else {
      tokens.push('| name | value | note |\n', '|---|---|---|\n');
      for (let i = 0; i < 4; i++) tokens.push(`| ${word()} `, `| ${i} `, `| ${word()} ${word()} |\n`);
      tokens.push('\n');
    }
  }
  return tokens.slice(0, n);
}

export function history(n) {
  const messages = [];
  for (let i = 0; i < n; i++) {
    const user = i % 2 === 0;
    messages.push({
      id: `h-${i}`,
      role: user ? 'user' : 'assistant',
      mode: 'chat',
      parts: [{ type: 'text', text: user ? `Question ${i}: how does part ${i} work?` : answerTokens(120, i).join('') }],
      status: 'done',
      createdAt: 1_700_000_000_000 + i,
      ...(user ? {} : { model: 'fake/model' }),
    });
  }
  return messages;
}

export function snapshot(messages) {
  return {
    type: 'snapshot',
    snapshot: {
      sessionId: 'bench',
      title: 'Benchmark',
      mode: 'chat',
      model: 'fake/model',
      models: [{ ref: 'fake/model', label: 'Fake', hasKey: true }],
      modes: ['chat', 'plan', 'research', 'agent'].map((mode) => ({ mode, enabled: true })),
      messages,
      todos: [],
      approvals: [],
      questions: [],
      workspaceTrusted: true,
    },
  };
}

/** The host's posts for one request: `started`, then `tokensPerFrame` tokens per post, then `complete`. */
export function streamPosts(tokens, tokensPerFrame) {
  const requestId = 'bench-req';
  let seq = 0;
  const env = (event) => ({ requestId, seq: ++seq, ts: 1_700_000_000_000 + seq, event });
  const posts = [
    {
      type: 'events',
      envelopes: [
        env({
          type: 'started',
          userMessageId: 'bench-u',
          assistantMessageId: 'bench-a',
          text: 'Explain everything',
          mode: 'chat',
          model: 'fake/model',
        }),
      ],
    },
  ];
  for (let i = 0; i < tokens.length; i += tokensPerFrame) {
    posts.push({
      type: 'events',
      envelopes: [env({ type: 'text_delta', text: tokens.slice(i, i + tokensPerFrame).join('') })],
    });
  }
  posts.push({ type: 'events', envelopes: [env({ type: 'complete' })] });
  return posts;
}
