import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Outbox } from '../../../extension/core/agent/outbox';
import type { Envelope } from '../../../extension/protocol';

function manual() {
  const timers: Array<() => void> = [];
  return {
    scheduler: {
      setTimeout: (fn: () => void) => {
        timers.push(fn);
        return timers.length;
      },
      clearTimeout: () => {},
    },
    tick: () => {
      for (const f of timers.splice(0)) f();
    },
  };
}

test('deltas between frames become one envelope; seq strictly increases; nothing after a terminal event', () => {
  const batches: Envelope[][] = [];
  const m = manual();
  const box = new Outbox(
    (e) => batches.push(e),
    () => 1,
    m.scheduler,
  );
  box.emit('r', { type: 'started', userMessageId: 'u', assistantMessageId: 'a', text: 'q', mode: 'chat', model: 'x' });
  for (let i = 0; i < 1000; i++) box.emit('r', { type: 'text_delta', text: 'x' });
  m.tick();
  box.emit('r', { type: 'text_delta', text: 'y' });
  box.emit('r', { type: 'complete' });
  assert.equal(box.emit('r', { type: 'text_delta', text: 'late' }), false);
  assert.equal(box.emit('r', { type: 'error', error: { code: 'internal', message: 'x', recoverable: true } }), false);
  m.tick();
  const all = batches.flat();
  assert.deepEqual(
    all.map((e) => e.seq),
    [1, 2, 3, 4],
  );
  assert.deepEqual(
    all.map((e) => e.event.type),
    ['started', 'text_delta', 'text_delta', 'complete'],
  );
  assert.equal((all[1].event as { text: string }).text.length, 1000);
  assert.equal(batches.length, 3, 'one batch per frame, plus the immediate started and terminal flushes');
});

test('after stop only the terminal event gets through', () => {
  const out: Envelope[] = [];
  const m = manual();
  const box = new Outbox(
    (e) => out.push(...e),
    () => 1,
    m.scheduler,
  );
  box.emit('r', { type: 'started', userMessageId: 'u', assistantMessageId: 'a', text: 'q', mode: 'chat', model: 'x' });
  box.stop('r');
  assert.equal(box.emit('r', { type: 'text_delta', text: 'no' }), false);
  assert.equal(box.emit('r', { type: 'aborted', partialSaved: true }), true);
  assert.deepEqual(
    out.map((e) => e.event.type),
    ['started', 'aborted'],
  );
});

test('events of different requests and tool outputs of different calls are not merged', () => {
  const out: Envelope[] = [];
  const m = manual();
  const box = new Outbox(
    (e) => out.push(...e),
    () => 1,
    m.scheduler,
  );
  box.emit('r', { type: 'tool_progress', callId: 'a', output: '1' });
  box.emit('r', { type: 'tool_progress', callId: 'b', output: '2' });
  box.emit('r', { type: 'tool_progress', callId: 'b', output: '3' });
  box.emit('s', { type: 'text_delta', text: 'z' });
  m.tick();
  assert.deepEqual(
    out.map((e) => [e.requestId, e.seq, e.event.type === 'tool_progress' ? e.event.output : '']),
    [
      ['r', 1, '1'],
      ['r', 2, '23'],
      ['s', 1, ''],
    ],
  );
});
