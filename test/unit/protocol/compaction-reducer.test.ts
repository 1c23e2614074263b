// The `compacted` event in the shared reducer: inside a running request it marks the answer; on a
// request of its own ("Compact now") it adds a marker message once; latestCompaction finds the last.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyEnvelope,
  emptyChatState,
  EnvelopeSchema,
  latestCompaction,
  type Compaction,
  type RequestEvent,
} from '../../../extension/protocol';

const c = (id: string, replaces: number): Compaction => ({
  id,
  replaces,
  brief: '## Goal\n- x',
  trigger: 'auto',
  tokensBefore: 100,
  tokensAfter: 10,
  at: 1,
});
const env = (requestId: string, seq: number, event: RequestEvent) =>
  EnvelopeSchema.parse({ requestId, seq, ts: seq, event });

test('a compaction marks the running answer, and Compact now adds one marker message', () => {
  const s = emptyChatState();
  const started: RequestEvent = {
    type: 'started',
    userMessageId: 'u1',
    assistantMessageId: 'a1',
    text: 'hi',
    mode: 'chat',
    model: 'm',
  };
  applyEnvelope(s, env('r1', 1, started));
  assert.equal(applyEnvelope(s, env('r1', 2, { type: 'compacted', compaction: c('c1', 4), messageId: 'x' })), 'a1');
  assert.deepEqual(s.messages[1].parts, [{ type: 'compaction', compaction: c('c1', 4) }]);
  applyEnvelope(s, env('r1', 3, { type: 'complete' }));
  assert.equal(latestCompaction(s)?.id, 'c1');

  const manual = env('compact-1', 1, { type: 'compacted', compaction: c('c2', 6), messageId: 'm2' });
  assert.equal(applyEnvelope(s, manual), 'm2');
  assert.equal(applyEnvelope(s, manual), undefined, 'replayed twice, added once');
  assert.equal(s.messages.length, 3);
  assert.equal(s.messages[2].role, 'assistant');
  assert.equal(s.messages[2].status, 'done');
  assert.equal(latestCompaction(s)?.id, 'c2');
});

test('a compaction event with a negative cut is refused by the schema', () => {
  assert.throws(() => env('r', 1, { type: 'compacted', compaction: c('c', -1), messageId: 'm' }));
});
