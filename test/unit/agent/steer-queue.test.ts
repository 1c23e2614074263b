// Talking to a running turn: a steer is delivered at the next step boundary — after the step's tool
// calls have all ended, never in the middle of one — as the user's message in the model's next request,
// in order, and stored with the session (a notice in the answer, the message in the model history); a
// steer during the model's last answer sends the turn on; with nothing running it is refused (the host
// then sends it as a new message). The queue keeps its order, edits and removals, and survives a
// re-created host (its store).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { MessageQueue } from '../../../extension/core/agent/message-queue';
import type { ProviderEvent, ProviderRequest } from '../../../extension/core/providers/types';
import { defineTool } from '../../../extension/core/tools/types';
import type { QueuedMessage } from '../../../extension/protocol';
import { ScriptedProvider } from '../../fixtures/scripted-provider';
import { createHarness } from './harness';

const log: string[] = [];
let release: () => void = () => undefined;
const slow = defineTool({
  name: 'slow',
  description: 'takes a while',
  kind: 'read',
  permission: { subject: 'text', text: () => '' },
  modes: ['agent'],
  input: z.object({ n: z.number() }),
  subject: (i) => String(i.n),
  execute: async (i) => {
    log.push(`start ${i.n}`);
    await new Promise<void>((r) => {
      release = r;
    });
    log.push(`end ${i.n}`);
    return { forModel: `result ${i.n}`, forUi: `result ${i.n}`, isError: false };
  },
});

const call = (id: string, n: number): ProviderEvent[] => [
  { type: 'tool_call', call: { id, name: 'slow', argumentsJson: JSON.stringify({ n }) } },
  { type: 'done', stopReason: 'tool_calls' },
];
const answer = (text = 'done'): ProviderEvent[] => [
  { type: 'text', text },
  { type: 'done', stopReason: 'end' },
];

async function until(pred: () => boolean): Promise<void> {
  for (let i = 0; i < 5000 && !pred(); i++) await new Promise((r) => setTimeout(r, 2));
  assert.ok(pred(), 'timed out');
}

const userTexts = (req: ProviderRequest | undefined) =>
  (req?.messages ?? []).filter((m) => m.role === 'user').map((m) => (typeof m.content === 'string' ? m.content : ''));

test('a steer during a tool call waits for it, then reaches the next request after its result, in order', async () => {
  log.length = 0;
  const provider = new ScriptedProvider([call('a', 1), answer()]);
  const h = createHarness({ provider, tools: [slow] });
  const sending = h.controller.send('r1', 'work', 'agent');
  await until(() => log.includes('start 1'));
  assert.equal(h.controller.isRunning(), true);
  assert.equal(h.controller.steer('use the staging database'), true);
  assert.equal(h.controller.steer('and keep the logs'), true);
  // The tool is still running: nothing went to the model in the middle of it.
  assert.equal(provider.requests.length, 1);
  release();
  await sending;
  assert.deepEqual(log, ['start 1', 'end 1']);
  const next = provider.requests[1];
  const roles = next.messages.map((m) => m.role);
  assert.deepEqual(roles.slice(-4), ['assistant', 'tool', 'user', 'user'], 'after the tool result, never before');
  assert.deepEqual(userTexts(next).slice(-2), ['use the staging database', 'and keep the logs']);
  // Stored with the session: the model history and a notice in the answer (replays and exports show it).
  const stored = h.persistence.records.flatMap((r) => (r.kind === 'model_messages' ? r.messages : []));
  assert.deepEqual(
    stored.filter((m) => m.role === 'user').map((m) => m.content),
    ['work', 'use the staging database', 'and keep the logs'],
  );
  const notices = h
    .envelopes('r1')
    .flatMap((e) => (e.event.type === 'notice' && e.event.kind === 'steer' ? [e.event.text] : []));
  assert.deepEqual(notices, ['Steered: use the staging database', 'Steered: and keep the logs']);
  assert.equal(h.controller.lastEnd(), 'complete');
});

test('a steer while the model writes its last answer sends the turn on with it', async () => {
  let gate!: () => void;
  const provider = new ScriptedProvider([answer('first answer'), answer('second answer')]);
  provider.holdNextStepUntil(new Promise<void>((r) => (gate = r)));
  const h = createHarness({ provider, tools: [slow] });
  const sending = h.controller.send('r1', 'hello', 'agent');
  await until(() => provider.requests.length === 1);
  assert.equal(h.controller.steer('actually, in French'), true);
  gate();
  await sending;
  assert.equal(provider.requests.length, 2);
  assert.deepEqual(userTexts(provider.requests[1]).at(-1), 'actually, in French');
});

test('with nothing running a steer is refused (the host sends it as a message); Stop ends the turn', async () => {
  log.length = 0;
  const provider = new ScriptedProvider([call('a', 2), answer()]);
  const h = createHarness({ provider, tools: [slow] });
  assert.equal(h.controller.steer('anyone?'), false);
  const sending = h.controller.send('r1', 'work', 'agent');
  await until(() => log.includes('start 2'));
  h.controller.steer('never mind');
  const stopping = h.controller.stop('r1');
  release(); // the tool ends (it does not watch the signal); the turn then ends without another call
  await stopping;
  await sending;
  assert.equal(h.controller.lastEnd(), 'aborted');
  assert.equal(provider.requests.length, 1, 'Stop stops everything: the steer did not start another call');
});

test('the queue keeps order, edits and removals, and comes back from its store', () => {
  let stored: unknown;
  let n = 0;
  const store = { read: () => stored, write: (items: QueuedMessage[]) => (stored = structuredClone(items)) };
  const q = new MessageQueue(store, () => `q${++n}`);
  q.add('first', 'agent');
  const second = q.add('second', 'agent');
  q.add('third', 'plan');
  q.edit(second.id, 'second, edited');
  q.remove('q3');
  const again = new MessageQueue(store, () => 'x');
  assert.deepEqual(
    again.items().map((m) => m.text),
    ['first', 'second, edited'],
  );
  assert.equal(again.shift()?.text, 'first');
  assert.equal(again.take('q2')?.text, 'second, edited');
  assert.equal(again.shift(), undefined);
  q.edit('q1', '   ');
  assert.deepEqual(
    q.items().map((m) => m.id),
    ['q2'],
    'an emptied message is removed',
  );
});

test('a queued message keeps its images through the store; one put first goes ahead of the others', () => {
  let stored: unknown;
  let n = 0;
  const store = { read: () => stored, write: (items: QueuedMessage[]) => (stored = structuredClone(items)) };
  const q = new MessageQueue(store, () => `q${++n}`);
  const image = { name: 'a.png', mediaType: 'image/png' as const, dataBase64: 'iVBORw0KGgo=' };
  q.add('later', 'agent');
  q.add('look at this', 'agent', undefined, [image], { first: true });
  const again = new MessageQueue(store, () => 'x');
  const next = again.shift();
  assert.equal(next?.text, 'look at this', 'the steer with images goes next');
  assert.deepEqual(next?.images, [image]);
  assert.equal(again.shift()?.images, undefined);
});
