import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApprovalBroker } from '../../../extension/core/agent/approval-broker';
import type { RequestEvent } from '../../../extension/protocol';
import type { ApprovalRequest, DiffReviewPort, DiffReviewUpdate } from '../../../extension/core/ports';

const quiet = () => {
  const warnings: string[] = [];
  return { warnings, log: { info() {}, warn: (m: string) => warnings.push(m), error() {} } };
};

const request = (callId: string, extra: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  callId,
  sessionId: 's1',
  tool: 'write_file',
  kind: 'write',
  subject: 'a.txt',
  detail: 'write a.txt',
  reason: 'writes ask',
  ...extra,
});

test('an approval is shown, answered once through approve(), then withdrawn from the card', async () => {
  const { log, warnings } = quiet();
  const broker = new ApprovalBroker(log);
  const events: RequestEvent[] = [];
  const { approval } = broker.portsFor((e) => events.push(e));
  const waiting = approval.request(request('c1'), new AbortController().signal);
  assert.deepEqual(
    events.map((e) => e.type),
    ['approval_needed'],
  );
  const shown = events[0];
  assert.ok(shown.type === 'approval_needed' && !('sessionId' in shown.approval), 'the session id stays home');
  broker.approve('c1', { decision: 'approve' });
  assert.deepEqual(await waiting, { decision: 'approve' });
  assert.deepEqual(
    events.map((e) => e.type),
    ['approval_needed', 'approval_resolved'],
  );
  // A second answer (a double click, the editor and the card both) finds nothing waiting.
  broker.approve('c1', { decision: 'deny' });
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /no approval is waiting for c1/);
});

test('Stop withdraws a pending approval and its diff review', async () => {
  const { log } = quiet();
  const broker = new ApprovalBroker(log);
  let closed = 0;
  const review: DiffReviewPort = { open: () => ({ editedText: () => undefined, close: () => void closed++ }) };
  const events: RequestEvent[] = [];
  const stop = new AbortController();
  const change = { path: '/w/a.txt', displayPath: 'a.txt', isNew: false, before: 'a', after: 'b' };
  const waiting = broker
    .portsFor((e) => events.push(e), review)
    .approval.request(request('c2', { proposal: change }), stop.signal);
  stop.abort();
  await assert.rejects(waiting, /aborted/);
  assert.equal(closed, 1);
  assert.equal(events.at(-1)?.type, 'approval_resolved');
});

test('the diff view updates the card and an edit made there travels with the approval', async () => {
  const { log } = quiet();
  const broker = new ApprovalBroker(log);
  let update!: (u: DiffReviewUpdate) => void;
  const review: DiffReviewPort = {
    open: (_r, u) => {
      update = u;
      return { editedText: () => 'b, edited', close() {} };
    },
  };
  const events: RequestEvent[] = [];
  const change = { path: '/w/a.txt', displayPath: 'a.txt', isNew: false, before: 'a', after: 'b' };
  const waiting = broker
    .portsFor((e) => events.push(e), review)
    .approval.request(request('c3', { proposal: change }), new AbortController().signal);
  update({ edited: true, stale: 'the file changed' });
  const again = events.at(-1);
  assert.ok(again?.type === 'approval_needed');
  assert.equal(again.approval.edited, true);
  assert.equal(again.approval.stale, 'the file changed');
  broker.approve('c3', { decision: 'always' });
  assert.deepEqual(await waiting, { decision: 'always', editedText: 'b, edited' });
});

test('a denial never carries the edited text; questions are asked and answered the same way', async () => {
  const { log } = quiet();
  const broker = new ApprovalBroker(log);
  const review: DiffReviewPort = { open: () => ({ editedText: () => 'edited', close() {} }) };
  const events: RequestEvent[] = [];
  const ports = broker.portsFor((e) => events.push(e), review);
  const change = { path: '/w/a.txt', displayPath: 'a.txt', isNew: false, before: 'a', after: 'b' };
  const denied = ports.approval.request(request('c4', { proposal: change }), new AbortController().signal);
  broker.approve('c4', { decision: 'deny', reason: 'no' });
  assert.deepEqual(await denied, { decision: 'deny', reason: 'no' });
  const q = [{ question: 'Which?', header: 'Pick', options: [{ label: 'A' }, { label: 'B' }], multiSelect: false }];
  const asked = ports.ask.ask({ callId: 'q1', sessionId: 's1', questions: q as never }, new AbortController().signal);
  assert.equal(events.at(-1)?.type, 'question');
  broker.answer('q1', [{ selected: ['A'] }]);
  assert.deepEqual(await asked, [{ selected: ['A'] }]);
  assert.equal(events.at(-1)?.type, 'question_resolved');
});
