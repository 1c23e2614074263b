// The window's first request (vscode/first-send-clock.ts): one "first request:" line with its arrival and
// its steps once it is on its way, and one call when it has ended — where the code cache is written
// (first-use.ts). Later requests add nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FirstSendClock } from '../../../extension/vscode/first-send-clock';
import { markFirstRequest } from '../../../extension/core/util/first-request-trace';
import type { Outbound } from '../../../extension/protocol';

const events = (...types: string[]) =>
  ({
    type: 'events',
    envelopes: types.map((type, i) => ({ requestId: 'r1', seq: i + 1, ts: 0, event: { type } })),
  }) as unknown as Outbound;

test('the first request: said once with its steps when it starts; its end reported once', () => {
  const lines: string[] = [];
  let ended = 0;
  const clock = new FirstSendClock(
    { info: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(m) },
    () => ended++,
  );
  clock.observe(events('started', 'complete'));
  assert.deepEqual([lines, ended], [[], 0], 'nothing before a message from a view arrived');
  clock.arrived({ type: 'ready' });
  clock.arrived({ type: 'send', requestId: 'r1', text: 'hi', mode: 'chat' });
  markFirstRequest('system prompt');
  clock.observe(events('started'));
  assert.equal(lines.length, 1);
  assert.match(lines[0], /^first request: .*\(epoch [\d.]+ ms\); steps \(ms\): system prompt \d+\.\d$/);
  assert.equal(ended, 0, 'still running');
  clock.observe(events('text_delta', 'complete'));
  assert.equal(ended, 1);
  clock.arrived({ type: 'send', requestId: 'r2', text: 'again', mode: 'chat' });
  clock.observe(events('started', 'error'));
  assert.deepEqual([lines.length, ended], [1, 1], 'a later request says nothing more');
});
