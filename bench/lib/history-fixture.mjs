// Deterministic history for the store benchmarks (bench/store.mjs, bench/memory.mjs): pseudo-prose that
// makes full-text search and page layout behave like real text, one exchange as the runtime journals it
// (question, streamed answer, a read_file card, complete, and the model history), and a folder's size.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** `prose(chars)`: words from a fixed 5,000-word vocabulary, the same sequence for the same seed. */
export function proseGenerator(seed = 42) {
  let s = seed;
  const rnd = () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const words = Array.from({ length: 5000 }, () =>
    Array.from({ length: 3 + Math.floor(rnd() * 7) }, () => String.fromCharCode(97 + Math.floor(rnd() * 26))).join(''),
  );
  return (chars) => {
    let text = '';
    while (text.length < chars) text += `${words[Math.floor(rnd() * words.length)]} `;
    return text;
  };
}

/**
 * Appends exchange `e` of a session: its question, `answer` streamed in `deltaChars` pieces (one record
 * each, as a long answer is journaled; all in one record when 0), a read_file card with `detail`, the
 * end of the request and the model history.
 */
export function appendExchange(store, o) {
  const { sessionId, e, at, model, question, answer, detail, deltaChars = 0 } = o;
  const req = `${sessionId}-r${e}`;
  let seq = 0;
  const env = (event) => ({ requestId: req, seq: ++seq, ts: at + e, event });
  const events = (envelopes) => store.append({ kind: 'events', sessionId, at: at + e, envelopes });
  const started = env({
    type: 'started',
    userMessageId: `${req}-u`,
    assistantMessageId: `${req}-a`,
    text: question,
    mode: 'agent',
    model,
  });
  const card = () =>
    env({
      type: 'tool_updated',
      call: { callId: `${req}-c`, name: 'read_file', kind: 'read', subject: 'src/x.ts', status: 'ok', detail },
    });
  if (deltaChars > 0) {
    events([started]);
    for (let i = 0; i < answer.length; i += deltaChars)
      events([env({ type: 'text_delta', text: answer.slice(i, i + deltaChars) })]);
    events([card(), env({ type: 'complete' })]);
  } else {
    events([started, env({ type: 'text_delta', text: answer }), card(), env({ type: 'complete' })]);
  }
  store.append({
    kind: 'model_messages',
    sessionId,
    at: at + e,
    messages: [
      { role: 'user', content: 'q' },
      { role: 'assistant', text: answer },
    ],
  });
}

/** Bytes of every file below `dir`. */
export function dirBytes(dir) {
  let n = 0;
  for (const f of readdirSync(dir, { recursive: true })) {
    try {
      const s = statSync(join(dir, f));
      if (s.isFile()) n += s.size;
    } catch {}
  }
  return n;
}
