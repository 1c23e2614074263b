// The status bar's line: the active chat's state and cost, and a waiting chat taking the line. Statuses
// are folded from the same messages the Agents view reads (session-status.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionStatusFold } from '../../../extension/core/sessions/session-status';
import { statusLine } from '../../../extension/core/sessions/status-line';
import type { Outbound, RequestEvent, ToolCallView } from '../../../extension/protocol';

let seq = 0;
const events = (requestId: string, ...evs: RequestEvent[]): Outbound => ({
  type: 'events',
  envelopes: evs.map((event) => ({ requestId, seq: ++seq, ts: 1, event })),
});
const tool = (status: ToolCallView['status']): ToolCallView =>
  ({ callId: 'c1', name: 'bash', status, subject: 'x', kind: 'execute' }) as ToolCallView;
const started: RequestEvent = {
  type: 'started',
  userMessageId: 'u',
  assistantMessageId: 'a',
  text: 'fix the tests',
  mode: 'agent',
  model: 'fake/m',
};

test('thinking, running a tool, waiting for you, idle — with the session cost', () => {
  const fold = new SessionStatusFold();
  const line = () => statusLine([{ id: 's1', status: fold.current }], 's1');
  fold.apply(events('r', started));
  assert.equal(line()?.state, 'thinking');
  fold.apply(
    events('r', { type: 'usage', usage: { inputTokens: 10, outputTokens: 5, cachedTokens: 0, costUsd: 0.042 } }),
  );
  assert.equal(line()?.text, '$(loading~spin) Sextant: thinking · $0.04');
  fold.apply(
    events('r', { type: 'tool_started', call: tool('pending') }, { type: 'tool_updated', call: tool('running') }),
  );
  assert.equal(line()?.text, '$(loading~spin) Sextant: running bash · $0.04');
  fold.apply(events('r', { type: 'tool_updated', call: tool('ok') }));
  assert.equal(line()?.state, 'thinking');
  fold.apply(events('r', { type: 'complete' }));
  assert.equal(line()?.text, '$(compass) Sextant: idle · $0.04');
});

test('a chat that waits takes the line (a click shows it), even when another chat is active', () => {
  const active = new SessionStatusFold();
  const other = new SessionStatusFold();
  active.apply(events('r1', started));
  other.apply(events('r2', started));
  other.apply(
    events('r2', {
      type: 'approval_needed',
      approval: { callId: 'c9', tool: 'bash', subject: 'rm -rf build', kind: 'execute' } as never,
    }),
  );
  const slots = [
    { id: 'active', status: active.current },
    { id: 'other', status: other.current },
  ];
  const l = statusLine(slots, 'active');
  assert.equal(l?.slotId, 'other');
  assert.equal(l?.state, 'waiting');
  assert.match(l?.tooltip ?? '', /approve bash/);
  assert.equal(statusLine([], undefined), undefined);
});

test('no price: tokens, never a made-up dollar figure', () => {
  const fold = new SessionStatusFold();
  fold.apply(events('r', started));
  fold.apply(events('r', { type: 'usage', usage: { inputTokens: 1500, outputTokens: 700, cachedTokens: 0 } }));
  assert.equal(
    statusLine([{ id: 's', status: fold.current }], 's')?.text,
    '$(loading~spin) Sextant: thinking · 2.2k tokens',
  );
});
