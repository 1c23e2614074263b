// The Agents view's words, order, filter and total (DESIGN §12: "running", "waiting for you", "done",
// "failed", "interrupted").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  agentEntries,
  agentEntry,
  agentsSummary,
  type ListedSession,
  listedSessions,
} from '../../../extension/core/sessions/agents-list';
import { emptyStatus } from '../../../extension/core/sessions/session-status';
import type { PendingApproval } from '../../../extension/protocol';

const approval: PendingApproval = {
  callId: 'c1',
  tool: 'bash',
  kind: 'execute',
  subject: 'npm   test\n--watch',
  detail: 'npm test --watch (in /repo)',
};

function listed(
  title: string,
  patch: Partial<ListedSession['status']>,
  extra: Partial<ListedSession> = {},
): ListedSession {
  return { status: { ...emptyStatus(), sessionId: title, title, ...patch }, ...extra };
}

test('an entry says state, elapsed time, steps and cost, and names what waits in one line', () => {
  const e = agentEntry(
    listed(
      'Fix the build',
      {
        state: 'waiting',
        mode: 'agent',
        model: 'openai/gpt',
        startedAt: 0,
        steps: 3,
        costUsd: 0.125,
        approvals: [approval],
      },
      { slotId: 's1', folder: '/wt/fix' },
    ),
    75_000,
  );
  assert.equal(e.state, 'waiting for you');
  assert.equal(e.description, 'waiting for you · 1m 15s · 3 tool steps · $0.13');
  assert.deepEqual(e.waiting, [
    { callId: 'c1', kind: 'approval', label: 'bash: npm test --watch', detail: approval.detail },
  ]);
  assert.ok(e.detail.includes('Folder: /wt/fix'));
  assert.ok(e.detail.includes('Model: openai/gpt'));
});

test('unknown prices are never made up: tokens are shown instead', () => {
  const e = agentEntry(listed('t', { state: 'done', startedAt: 0, endedAt: 1000, tokens: 500 }), 5000);
  assert.equal(e.description, 'done · 1s · 0 tool steps');
  assert.ok(e.detail.includes('Cost: 500 tokens (price unknown)'));
});

test('waiting first, then running, then the rest; filters keep their state; the total adds known costs', () => {
  const sessions = [
    listed('done', { state: 'done', startedAt: 1, endedAt: 2, costUsd: 0.5 }),
    listed('run', { state: 'running', startedAt: 3, costUsd: 0.25 }),
    listed('wait', { state: 'waiting', startedAt: 4, approvals: [approval] }),
    listed('cut', { state: 'idle', startedAt: 5 }, { interrupted: true }),
  ];
  assert.deepEqual(
    agentEntries(sessions, 'all', 10).map((e) => e.label),
    ['wait', 'run', 'cut', 'done'],
  );
  assert.deepEqual(
    agentEntries(sessions, 'interrupted', 10).map((e) => e.label),
    ['cut'],
  );
  assert.equal(agentsSummary(sessions), '1 running · 1 waiting for you · 1 interrupted · $0.75 total');
});

test("the fleet's total: dollars against the dollar cap, tokens when nothing had a price, both caps named", () => {
  const listed1 = [listed('a', { state: 'running', startedAt: 0, costUsd: 0.2 })];
  const fleet = (spent: { tokens: number; costUsd: number }, caps: { costUsd?: number; tokens?: number }) =>
    agentsSummary(listed1, { spent, caps });
  assert.equal(fleet({ tokens: 900, costUsd: 1.2 }, { costUsd: 5 }), '1 running · $1.20 of $5.00 total');
  assert.equal(fleet({ tokens: 12_300, costUsd: 0 }, {}), '1 running · 12,300 tokens total');
  assert.equal(fleet({ tokens: 1_540, costUsd: 0 }, { tokens: 1_500 }), '1 running · 1,540 of 1,500 tokens total');
  assert.equal(
    fleet({ tokens: 800, costUsd: 0.5 }, { costUsd: 2, tokens: 1_000 }),
    '1 running · $0.50 of $2.00 and 800 of 1,000 tokens total',
  );
  assert.equal(fleet({ tokens: 0, costUsd: 0 }, {}), '1 running');
});

test('a session whose request waits for a slot is listed as queued, and the queued filter keeps it', () => {
  const sessions = [
    listed('a', { state: 'running', startedAt: 0 }),
    listed('b', { state: 'running', startedAt: 1 }, { queued: true }),
  ];
  assert.deepEqual(
    agentEntries(sessions, 'all', 10).map((e) => `${e.label}:${e.state}`),
    ['a:running', 'b:queued'],
  );
  assert.deepEqual(
    agentEntries(sessions, 'queued', 10).map((e) => e.label),
    ['b'],
  );
  assert.equal(agentsSummary(sessions), '1 running · 1 queued');
});

test('a worktree session shows its branch and folder, and is marked for Merge Back', () => {
  const folder = join(tmpdir(), 'repo.sextant-worktrees', 'chat-abc123');
  const e = agentEntry(
    listed(
      'Refactor',
      { state: 'done', startedAt: 0, endedAt: 5_000 },
      {
        worktree: { branch: 'sextant/chat-abc123', path: folder },
      },
    ),
    10_000,
  );
  assert.equal(e.worktree, 'sextant/chat-abc123');
  assert.match(e.description, /sextant\/chat-abc123$/);
  assert.ok(e.detail.includes(`Worktree: sextant/chat-abc123 (${folder})`));
  assert.equal(agentEntry(listed('Plain', { state: 'done' }), 0).worktree, undefined);
});

test("a reloaded window's chat that reopened an interrupted session is listed as interrupted, with its slot", () => {
  // The sidebar reopened "Task R" after the reload (idle: nothing runs here); the store says it was cut off.
  const reopened = listed('Task R', { state: 'idle' }, { slotId: 'slot-1' });
  const cut = listed('Task R', { startedAt: 5, endedAt: 9 }, { interrupted: true });
  const [entry, ...rest] = listedSessions([reopened], [], [cut]);
  assert.equal(rest.length, 0, 'listed once');
  assert.equal(entry?.interrupted, true);
  assert.equal(entry?.slotId, 'slot-1', 'opening it shows the chat that has it');
  assert.equal(entry?.status.startedAt, 5);
  assert.equal(agentEntries([entry as ListedSession], 'interrupted', 10).length, 1);

  // Once Continue runs in that slot it is a running chat, not an interrupted one.
  const running = listed('Task R', { state: 'running' }, { slotId: 'slot-1' });
  assert.deepEqual(listedSessions([running], [], [cut]), [running]);
  // An empty new chat is not an agent; an interrupted session no slot has is listed on its own.
  const empty = listed('', { state: 'idle' }, { slotId: 'slot-2' });
  const other = listed('Other', {}, { interrupted: true });
  assert.deepEqual(listedSessions([empty], [], [other]), [other]);
  // A session this window ended (and listed as such) is not listed twice.
  const ended = listed('Done', { state: 'done' });
  assert.deepEqual(listedSessions([], [ended], [listed('Done', {}, { interrupted: true })]), [ended]);
});
