// Which sessions work in a worktree, kept across reloads (workspace state): what is stored comes back,
// a malformed stored record is dropped rather than rooting a session somewhere unknown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WorktreeSessions, type WorktreeRecord } from '../../../extension/core/worktrees/session-registry';

const wt = {
  path: '/r.sextant-worktrees/chat-abc123',
  branch: 'sextant/chat-abc123',
  base: 'a'.repeat(40),
  mainPath: '/r',
  commonDir: '/r/.git',
  gitDir: '/r/.git/worktrees/chat-abc123',
};

test('a worktree session is found by its session id, again after a reload, until it is dropped', async () => {
  let stored: unknown;
  const store = {
    read: () => stored,
    write: (r: WorktreeRecord[]) => {
      stored = r;
    },
  };
  const first = new WorktreeSessions(store);
  let changes = 0;
  first.onDidChange(() => changes++);
  first.add('s1', wt, Promise.resolve(), 7);
  assert.deepEqual(first.get('s1')?.worktree, wt);
  assert.equal(first.get('other'), undefined);
  assert.equal(changes, 1);
  // A reloaded window: the record is read back; its files are long written.
  const again = new WorktreeSessions(store);
  assert.deepEqual(again.record('s1'), { sessionId: 's1', worktree: wt, createdAt: 7 });
  await again.get('s1')?.ready;
  again.delete('s1');
  assert.equal(new WorktreeSessions(store).get('s1'), undefined);
});

test('malformed stored records are dropped', () => {
  const stored = [
    { sessionId: 'ok', worktree: wt, createdAt: 1 },
    { sessionId: 'no-path', worktree: { ...wt, path: '' }, createdAt: 1 },
    { sessionId: 'bad', worktree: 'x', createdAt: 1 },
    null,
    'text',
  ];
  const r = new WorktreeSessions({ read: () => stored, write: () => undefined });
  assert.deepEqual(
    r.all().map((x) => x.sessionId),
    ['ok'],
  );
  assert.equal(new WorktreeSessions({ read: () => ({ not: 'a list' }), write: () => undefined }).all().length, 0);
});
