// Diff review as the loop and the controller carry it out, with the real file writers on a real
// temporary workspace: the approvals of a step are asked together (each with its own change and
// diff), executions keep call order, a second edit of the same file proposes only after the first
// has run, an edited proposal is written as edited and the model told what changed, a file changed
// under review is refused, and Stop ends every pending review.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, realpathSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DiffReviewPort, DiffReviewUpdate } from '../../../extension/core/ports';
import type { ProposedChange } from '../../../extension/core/tools/types';
import type { ModelMessage, ProviderEvent } from '../../../extension/core/providers/types';
import { readFileTool } from '../../../extension/core/tools/read-file';
import { editFileTool } from '../../../extension/core/tools/edit-file';
import { writeFileTool } from '../../../extension/core/tools/write-file';
import type { PendingApproval } from '../../../extension/protocol';
import { NodeWorkspace } from '../../fixtures/node-ports';
import { ScriptedProvider } from '../../fixtures/scripted-provider';
import { assertEnvelopeInvariants, createHarness } from './harness';

const done: ProviderEvent = { type: 'done', stopReason: 'end' };

/** A diff view that records what it was shown and returns the text a "user" typed into it. */
class FakeDiffReview implements DiffReviewPort {
  readonly opened: Array<{ callId: string; change: ProposedChange }> = [];
  readonly closed: string[] = [];
  readonly edits = new Map<string, string>();
  readonly updates = new Map<string, (u: DiffReviewUpdate) => void>();
  open(review: { callId: string; change: ProposedChange }, update: (u: DiffReviewUpdate) => void) {
    this.opened.push(review);
    this.updates.set(review.callId, update);
    return {
      editedText: () => this.edits.get(review.callId),
      close: () => void this.closed.push(review.callId),
    };
  }
}

function workspace(files: Record<string, string>): { root: string; ws: NodeWorkspace } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'diff-review-')));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  return { root, ws: new NodeWorkspace({ roots: [root] }) };
}

function calls(...list: Array<[id: string, name: string, args: unknown]>): ProviderEvent[] {
  return [
    ...list.map(
      ([id, name, args]): ProviderEvent => ({
        type: 'tool_call',
        call: { id, name, argumentsJson: JSON.stringify(args) },
      }),
    ),
    { type: 'done', stopReason: 'tool_calls' },
  ];
}

async function until<T>(what: string, probe: () => T | undefined | false): Promise<T> {
  // A generous bound, not a timing check.
  for (let i = 0; i < 5000; i++) {
    const v = probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function setup(files: Record<string, string>, steps: ProviderEvent[][]) {
  const { root, ws } = workspace(files);
  const provider = new ScriptedProvider(steps);
  const review = new FakeDiffReview();
  const h = createHarness({
    provider,
    tools: [readFileTool, editFileTool, writeFileTool],
    workspace: ws,
    diffReview: review,
  });
  const pending = (): PendingApproval[] => {
    const live = new Map<string, PendingApproval>();
    for (const e of h.envelopes('r1')) {
      if (e.event.type === 'approval_needed') live.set(e.event.approval.callId, e.event.approval);
      if (e.event.type === 'approval_resolved') live.delete(e.event.callId);
    }
    return [...live.values()];
  };
  const running = () =>
    h
      .envelopes('r1')
      .flatMap((e) =>
        e.event.type === 'tool_updated' && e.event.call.status === 'running' ? [e.event.call.subject] : [],
      );
  const toolResults = (request: number) =>
    provider.requests[request].messages.filter((m): m is Extract<ModelMessage, { role: 'tool' }> => m.role === 'tool');
  return {
    root,
    provider,
    review,
    h,
    pending,
    running,
    toolResults,
    read: (f: string) => readFileSync(join(root, f), 'utf8'),
  };
}

test('a step asks its approvals together, each with its change; runs keep call order; denials block none', async () => {
  const t = setup({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' }, [
    calls(['r1', 'read_file', { file_path: 'a.txt' }], ['r2', 'read_file', { file_path: 'b.txt' }]),
    calls(
      ['e1', 'edit_file', { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' }],
      ['e2', 'edit_file', { file_path: 'b.txt', old_string: 'beta', new_string: 'BETA' }],
      ['w3', 'write_file', { file_path: 'c.txt', content: 'gamma\n' }],
    ),
    [{ type: 'text', text: 'done' }, done],
  ]);
  const sending = t.h.controller.send('r1', 'change them', 'agent');
  const all = await until('three pending approvals', () => (t.pending().length === 3 ? t.pending() : undefined));
  assert.deepEqual(
    all.map((a) => [a.callId, a.change?.path, a.change?.isNew, a.change?.added, a.change?.removed]),
    [
      ['e1#2.0', 'a.txt', false, 1, 1],
      ['e2#2.1', 'b.txt', false, 1, 1],
      ['w3#2.2', 'c.txt', true, 1, 0],
    ],
  );
  assert.match(all[0].change?.diff ?? '', /-alpha\n\+ALPHA/);
  assert.deepEqual(
    t.review.opened.map((o) => [o.callId, o.change.before, o.change.after]),
    [
      ['e1#2.0', 'alpha\n', 'ALPHA\n'],
      ['e2#2.1', 'beta\n', 'BETA\n'],
      ['w3#2.2', '', 'gamma\n'],
    ],
  );
  // The full texts went to the diff view only, never to the webview or the journal.
  assert.ok(!JSON.stringify(t.h.persistence.records).includes('"proposal"'));

  // Decided out of order: the last first, then a denial, then the first.
  t.h.controller.approve('w3#2.2', { decision: 'approve' });
  t.h.controller.approve('e2#2.1', { decision: 'deny', reason: 'keep b lowercase' });
  await new Promise((r) => setTimeout(r, 20));
  assert.ok(!existsSync(join(t.root, 'c.txt')), 'the third call ran before the first was decided');
  t.h.controller.approve('e1#2.0', { decision: 'approve' });
  await sending;
  assert.deepEqual(t.running().slice(-2), ['a.txt', 'c.txt'], 'executions in call order');
  assert.equal(t.read('a.txt'), 'ALPHA\n');
  assert.equal(t.read('b.txt'), 'beta\n');
  assert.equal(t.read('c.txt'), 'gamma\n');
  const results = t.toolResults(2).slice(-3);
  assert.deepEqual(
    results.map((m) => [m.toolCallId, m.isError]),
    [
      ['e1', false],
      ['e2', true],
      ['w3', false],
    ],
  );
  assert.match(JSON.stringify(results[1].content), /keep b lowercase/);
  assert.deepEqual(t.review.closed.sort(), ['e1#2.0', 'e2#2.1', 'w3#2.2']);
  assertEnvelopeInvariants(t.h.envelopes());
});

test('a second edit of the same file proposes only after the first has run, against the text it left', async () => {
  const t = setup({ 'a.txt': 'alpha\n' }, [
    calls(['r1', 'read_file', { file_path: 'a.txt' }]),
    calls(
      ['e1', 'edit_file', { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' }],
      ['e2', 'edit_file', { file_path: 'a.txt', old_string: 'ALPHA', new_string: 'ALPHA!' }],
    ),
    [{ type: 'text', text: 'done' }, done],
  ]);
  const sending = t.h.controller.send('r1', 'change it twice', 'agent');
  await until('the first approval', () => t.pending().length === 1);
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(
    t.pending().map((a) => a.callId),
    ['e1#2.0'],
    'the second edit proposed before the first ran',
  );
  t.h.controller.approve('e1#2.0', { decision: 'approve' });
  const second = await until('the second approval', () => t.pending().find((a) => a.callId === 'e2#2.1'));
  assert.match(second.change?.diff ?? '', /-ALPHA\n\+ALPHA!/);
  assert.equal(t.review.opened[1].change.before, 'ALPHA\n');
  t.h.controller.approve('e2#2.1', { decision: 'approve' });
  await sending;
  assert.equal(t.read('a.txt'), 'ALPHA!\n');
});

test('Approve of an edited proposal writes the edited text and tells the model what the user changed', async () => {
  const t = setup({ 'a.txt': 'one\ntwo\n' }, [
    calls(['r1', 'read_file', { file_path: 'a.txt' }]),
    calls(['e1', 'edit_file', { file_path: 'a.txt', old_string: 'two', new_string: 'TWO' }]),
    [{ type: 'text', text: 'done' }, done],
  ]);
  const sending = t.h.controller.send('r1', 'shout two', 'agent');
  await until('the approval', () => t.pending().length === 1);
  // The user types into the proposal: the card says so.
  t.review.edits.set('e1#2.0', 'one\nTWO\nthree (added by the user)\n');
  t.review.updates.get('e1#2.0')?.({ edited: true });
  await until('the card marked edited', () => t.pending()[0]?.edited === true);
  t.h.controller.approve('e1#2.0', { decision: 'approve' });
  await sending;
  assert.equal(t.read('a.txt'), 'one\nTWO\nthree (added by the user)\n');
  const [result] = t.toolResults(2).slice(-1);
  assert.equal(result.isError, false);
  const told = JSON.stringify(result.content);
  assert.match(told, /user's edits/);
  assert.match(told, /\+three \(added by the user\)/, "the model was not shown the user's addition");
  assert.ok(!/[-+]TWO/.test(told.split('relative to your proposal')[1] ?? ''), 'the diff is against the proposal');
});

test('a file changed while its change is under review is refused, never applied', async () => {
  for (const edited of [undefined, 'one\nuser text\n']) {
    const t = setup({ 'a.txt': 'one\ntwo\n' }, [
      calls(['r1', 'read_file', { file_path: 'a.txt' }]),
      calls(['e1', 'edit_file', { file_path: 'a.txt', old_string: 'one', new_string: 'ONE' }]),
      [{ type: 'text', text: 'done' }, done],
    ]);
    const sending = t.h.controller.send('r1', 'shout one', 'agent');
    await until('the approval', () => t.pending().length === 1);
    writeFileSync(join(t.root, 'a.txt'), 'one\ntwo\nsomeone else was here\n');
    if (edited) t.review.edits.set('e1#2.0', edited);
    t.h.controller.approve('e1#2.0', { decision: 'approve' });
    await sending;
    assert.equal(t.read('a.txt'), 'one\ntwo\nsomeone else was here\n', `applied anyway (edited: ${!!edited})`);
    const [result] = t.toolResults(2).slice(-1);
    assert.equal(result.isError, true);
    assert.match(JSON.stringify(result.content), /Not applied: a\.txt changed while the user was reviewing/);
  }
});

test('Stop while several changes are under review: cards end aborted, nothing is written, diffs close', async () => {
  const t = setup({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' }, [
    calls(['r1', 'read_file', { file_path: 'a.txt' }], ['r2', 'read_file', { file_path: 'b.txt' }]),
    calls(
      ['e1', 'edit_file', { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' }],
      ['e2', 'edit_file', { file_path: 'b.txt', old_string: 'beta', new_string: 'BETA' }],
    ),
  ]);
  const sending = t.h.controller.send('r1', 'change them', 'agent');
  await until('two pending approvals', () => t.pending().length === 2);
  t.h.controller.approve('e1#2.0', { decision: 'approve' }); // approved, but e2 is still pending
  await t.h.controller.abort('r1');
  await sending;
  assert.equal(t.read('b.txt'), 'beta\n');
  assert.deepEqual(t.review.closed.sort(), ['e1#2.0', 'e2#2.1']);
  const snap = await t.h.controller.snapshot();
  assert.deepEqual(snap.approvals, []);
  const cards = snap.messages.at(-1)!.parts.flatMap((p) => (p.type === 'tool' ? [p.call] : []));
  assert.equal(cards.find((c) => c.callId === 'e2#2.1')?.status, 'aborted');
  assert.equal(t.h.envelopes('r1').at(-1)?.event.type, 'aborted');
});

test('an edit that cannot apply is not put to the user: no card, no diff, the model gets the candidates', async () => {
  const t = setup({ 'm.js': 'function sub(a, b) {\n  return a - b;\n}\n' }, [
    calls(['r1', 'read_file', { file_path: 'm.js' }]),
    calls(
      ['e1', 'edit_file', { file_path: 'm.js', old_string: 'function subtract(a, b) {', new_string: 'x' }],
      ['e2', 'edit_file', { file_path: 'm.js', old_string: 'return a - b;', new_string: 'return b - a;' }],
    ),
    [{ type: 'text', text: 'done' }, done],
  ]);
  const sending = t.h.controller.send('r1', 'fix it', 'agent');
  // Only the edit that can apply asks.
  const asked = await until('one pending approval', () => (t.pending().length === 1 ? t.pending() : undefined));
  assert.equal(asked[0].callId, 'e2#2.1');
  t.h.controller.approve('e2#2.1', { decision: 'approve' });
  await sending;
  assert.deepEqual(
    t.review.opened.map((o) => o.callId),
    ['e2#2.1'],
  );
  const failed = t.h
    .envelopes('r1')
    .flatMap((e) => (e.event.type === 'tool_updated' && e.event.call.callId === 'e1#2.0' ? [e.event.call] : []))
    .at(-1);
  assert.equal(failed?.status, 'error');
  assert.match(failed?.summary ?? '', /^old_string not found; closest: line 1/);
  assert.ok(
    !t.h.envelopes('r1').some((e) => e.event.type === 'approval_needed' && e.event.approval.callId === 'e1#2.0'),
  );
  const [first] = t.toolResults(2).slice(-2);
  assert.equal(first.isError, true);
  assert.match(JSON.stringify(first.content), /closest candidates[\s\S]*Retry once/);
  assert.equal(t.read('m.js'), 'function sub(a, b) {\n  return b - a;\n}\n');
  assertEnvelopeInvariants(t.h.envelopes());
});
