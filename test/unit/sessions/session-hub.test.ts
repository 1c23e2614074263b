// The session hub: several chats at once, views that move between them without stopping anything, and
// nothing waiting unseen. Real controllers (the agent harness) on scripted models.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatController } from '../../../extension/core/agent/controller';
import { SessionHub, type SessionSlot, type UnseenWait } from '../../../extension/core/sessions/session-hub';
import { SessionView } from '../../../extension/core/sessions/session-view';
import type { Outbound } from '../../../extension/protocol';
import type { ProviderEvent } from '../../../extension/core/providers/types';
import { ScriptedProvider } from '../../fixtures/scripted-provider';
import { createHarness, readTool, writeTool } from '../agent/harness';

const done: ProviderEvent = { type: 'done', stopReason: 'end' };
const usage: ProviderEvent = { type: 'usage', usage: { inputTokens: 100, outputTokens: 10, cachedTokens: 0 } };

/** A model that makes `steps` read calls (one per turn), then answers. Each turn can be held. */
function stepsProvider(steps: number, write = false): ScriptedProvider {
  const script: ProviderEvent[][] = [];
  for (let i = 0; i < steps; i++)
    script.push([
      { type: 'tool_call', call: { id: `c${i}`, name: 'peek', argumentsJson: `{"path":"f${i}"}` } },
      usage,
      { type: 'done', stopReason: 'tool_calls' },
    ]);
  if (write)
    script.push([
      { type: 'tool_call', call: { id: 'w', name: 'poke', argumentsJson: '{"path":"out"}' } },
      { type: 'done', stopReason: 'tool_calls' },
    ]);
  script.push([{ type: 'text', text: 'finished' }, usage, done]);
  return new ScriptedProvider(script);
}

async function waitFor(pred: () => boolean, what: string): Promise<void> {
  // A generous bound on polls, not a timing check: the states are what is awaited.
  for (let i = 0; i < 20_000 && !pred(); i++) await new Promise((r) => setTimeout(r, 1));
  assert.ok(pred(), `timed out waiting for: ${what}`);
}

function makeHub(providers: ScriptedProvider[], onUnseen?: (slot: SessionSlot<ChatController>, w: UnseenWait) => void) {
  let n = 0;
  const log: string[] = [];
  const hub = new SessionHub<ChatController>({
    newId: () => `slot${++n}`,
    now: () => Date.now(),
    ...(onUnseen ? { onUnseenWait: onUnseen } : {}),
    create: (post, slot) => {
      const provider = providers.shift() ?? stepsProvider(0);
      const h = createHarness({
        provider,
        tools: [readTool(log, 1), writeTool(log)],
        idPrefix: `${slot.id}-`,
        onPost: post,
      });
      return {
        controller: h.controller,
        handle: async (raw) => {
          const m = raw as { type: string; text?: string };
          if (m.type === 'newChat') await h.controller.newChat();
          if (m.type === 'send') await h.controller.send(`${slot.id}-r${++n}`, m.text ?? '', 'agent');
        },
        dispose: () => h.controller.dispose(),
      };
    },
  });
  return { hub, log };
}

function viewer(visible = true) {
  const got: Outbound[] = [];
  return { got, post: (m: Outbound) => void got.push(m), visible: () => visible };
}

test('two chats run at once, each with its own steps and cost; the list follows both to the end', async () => {
  const { hub } = makeHub([stepsProvider(20), stepsProvider(20)]);
  const a = hub.open({ place: 'sidebar' });
  const b = hub.open({ place: 'editor' });
  const runA = a.controller.send('ra', 'task a', 'agent');
  const runB = b.controller.send('rb', 'task b', 'agent');
  await waitFor(() => a.status.state === 'running' && b.status.state === 'running', 'both running');
  await Promise.all([runA, runB]);
  for (const s of [a, b]) {
    assert.equal(s.status.state, 'done');
    assert.equal(s.status.steps, 20);
    assert.equal(s.status.tokens, 21 * 110);
    assert.ok((s.status.costUsd ?? 0) > 0);
  }
  assert.equal(a.status.title, 'task a');
  assert.equal(b.status.title, 'task b');
  await hub.dispose();
});

test('New Chat while a chat runs leaves it running in the background and shows a new one', async () => {
  const gate = stepsProvider(3);
  let release!: () => void;
  gate.holdNextStepUntil(new Promise<void>((r) => (release = r)));
  const { hub } = makeHub([gate]);
  const first = hub.open({ place: 'sidebar' });
  const v = viewer();
  const view = new SessionView(hub, v, first, 'sidebar');
  const run = first.controller.send('r1', 'long task', 'agent');
  await waitFor(() => first.status.state === 'running', 'running');
  await view.handle({ type: 'newChat' });
  assert.notEqual(view.slot, first, 'the view shows another chat');
  assert.equal(first.status.state, 'running', 'the first goes on');
  assert.ok(!first.attached);
  const snap = v.got.filter((m) => m.type === 'snapshot').at(-1);
  assert.ok(snap?.type === 'snapshot' && snap.snapshot.sessionId === view.slot.controller.sessionId);
  v.got.length = 0;
  release();
  await run;
  assert.equal(first.status.state, 'done');
  assert.ok(!v.got.some((m) => m.type === 'events'), 'the detached chat posts nothing to the view that left it');
  assert.equal(hub.slots().length, 2, 'the finished chat stays until swept');
  await hub.sweep();
  assert.deepEqual(
    hub.slots().map((s) => s.id),
    [view.slot.id],
  );
  assert.deepEqual(
    hub.endedSessions().map((s) => [s.title, s.state]),
    [['long task', 'done']],
  );
  await hub.dispose();
});

test('opening a session that runs elsewhere shows its live chat instead of stopping it', async () => {
  const p = stepsProvider(2);
  let release!: () => void;
  p.holdNextStepUntil(new Promise<void>((r) => (release = r)));
  const { hub } = makeHub([p]);
  const running = hub.open({ place: 'editor' });
  const run = running.controller.send('r1', 'background work', 'agent');
  await waitFor(() => running.status.state === 'running', 'running');
  const other = hub.open({ place: 'sidebar' });
  const v = viewer();
  const view = new SessionView(hub, v, other, 'sidebar');
  await view.handle({ type: 'resume', sessionId: running.controller.sessionId });
  assert.equal(view.slot, running, 'the view attached to the live chat');
  assert.equal(running.status.state, 'running');
  assert.ok(!hub.get(other.id), 'the empty chat the view left is released');
  release();
  await run;
  assert.ok(
    v.got.some((m) => m.type === 'events'),
    'the view now streams the live chat',
  );
  await hub.dispose();
});

test('an approval in a chat nobody sees raises exactly one notice; a visible chat raises none', async () => {
  const unseen: [string, string][] = [];
  const { hub } = makeHub([stepsProvider(0, true), stepsProvider(0, true)], (slot, w) =>
    unseen.push([slot.id, 'approval' in w ? w.approval.tool : 'question']),
  );
  const hidden = hub.open({ place: 'editor' });
  const shown = hub.open({ place: 'sidebar' });
  const detach = shown.attach(viewer(true));
  const runHidden = hidden.controller.send('r1', 'write it', 'agent');
  const runShown = shown.controller.send('r2', 'write it too', 'agent');
  await waitFor(() => hidden.status.state === 'waiting' && shown.status.state === 'waiting', 'both waiting');
  assert.deepEqual(unseen, [[hidden.id, 'poke']]);
  assert.equal(hidden.status.approvals.length, 1);
  // Answered from outside its chat (the Agents view): the same broker path as the card.
  hidden.controller.approve(hidden.status.approvals[0].callId, { decision: 'approve' });
  shown.controller.approve(shown.status.approvals[0].callId, { decision: 'deny' });
  await Promise.all([runHidden, runShown]);
  assert.equal(hidden.status.state, 'done');
  assert.deepEqual(hidden.status.approvals, []);
  detach();
  await hub.dispose();
});

test('a closed view releases an idle chat, never a running one', async () => {
  const p = stepsProvider(1);
  let release!: () => void;
  p.holdNextStepUntil(new Promise<void>((r) => (release = r)));
  const { hub } = makeHub([p, stepsProvider(0)]);
  const busy = hub.open({ place: 'editor' });
  const busyView = new SessionView(hub, viewer(), busy, 'editor');
  const run = busy.controller.send('r1', 'keep going', 'agent');
  await waitFor(() => busy.status.state === 'running', 'running');
  await busyView.close();
  assert.ok(hub.get(busy.id), 'the running chat stays');
  const idle = hub.open({ place: 'editor' });
  const idleView = new SessionView(hub, viewer(), idle, 'editor');
  await idleView.close();
  assert.ok(!hub.get(idle.id), 'an idle chat with no view is released');
  assert.deepEqual(hub.endedSessions(), [], 'an empty chat is not listed');
  release();
  await run;
  assert.equal(busy.status.state, 'done');
  await hub.dispose();
});
