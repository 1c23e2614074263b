// "Create Branch and Pull Request" on an Agents view row acts on THAT row's session, not the sidebar
// chat's: the row's command hands the row's session id to the git command (as the chat's end-of-run
// button does), which resolves it to that session's worktree, title, last answer and review; the
// palette's (no argument) stays on the sidebar chat's session in the main checkout. The row offers the
// action once its session has ended (package.json's menu matches the row's context value).
import '../manifest/fake-vscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pullRequestTarget, type PullRequestSessions, sessionIdOf } from '../../../extension/core/git';
import { emptyStatus, type SessionState } from '../../../extension/core/sessions/session-status';
import { AgentItem, AgentsView } from '../../../extension/vscode/agents-view';
import { recorded } from '../manifest/fake-vscode';

const slot = (id: string, sessionId: string, title: string, state: SessionState) => ({
  id,
  status: { ...emptyStatus(), sessionId, title, state, startedAt: 1 },
  controller: { sessionId },
});

const sessions: PullRequestSessions = {
  session: (id) =>
    ({
      'sidebar-session': { title: 'Sidebar work', summary: 'the sidebar answer' },
      'row-session': { title: 'Row work', summary: 'the row answer' },
    })[id],
  worktreeOf: (id) =>
    id === 'row-session' ? { path: '/repos/app.worktrees/row-work', branch: 'sextant/row-work-abc123' } : undefined,
  review: (id) => (id === 'row-session' ? '- **low** [a.ts:1](a.ts#L1) — row finding' : undefined),
  root: () => '/repos/app',
};

test('the Agents view’s Create Branch and Pull Request targets the row’s session, not the sidebar’s', async () => {
  const slots = [
    slot('s1', 'sidebar-session', 'Sidebar work', 'done'),
    slot('s2', 'row-session', 'Row work', 'done'),
    slot('s3', 'busy-session', 'Busy work', 'running'),
  ];
  const view = new AgentsView({
    hub: {
      onDidChange: () => () => undefined,
      slots: () => slots,
      endedSessions: () => [],
      get: (id: string) => slots.find((s) => s.id === id),
    } as never,
    tree: undefined,
    memento: { get: () => undefined, update: async () => undefined } as never,
    interrupted: () => [],
    showSlot: async () => undefined,
    openSession: async () => undefined,
    worktreeOf: (id) => sessions.worktreeOf(id),
  });
  try {
    const rows = view.children() as AgentItem[];
    const row = rows.find((r) => r.entry.sessionId === 'row-session');
    assert.ok(row instanceof AgentItem);
    recorded.executed.length = 0;
    await view.createPullRequest(row);
    assert.deepEqual(recorded.executed, [
      { command: 'sextant.git.createPullRequest', args: [{ sessionId: 'row-session' }] },
    ]);

    // What the git command (git-host.ts) makes of that argument, and of none (the palette).
    const fromRow = pullRequestTarget(sessionIdOf(recorded.executed[0]?.args[0]) ?? 'sidebar-session', sessions);
    assert.ok(fromRow.ok);
    assert.equal(fromRow.target.sessionId, 'row-session');
    assert.equal(fromRow.target.cwd, '/repos/app.worktrees/row-work', 'the row’s worktree, not the main checkout');
    assert.deepEqual(fromRow.target.worktree, sessions.worktreeOf('row-session'));
    assert.deepEqual(fromRow.target.session, {
      title: 'Row work',
      summary: 'the row answer',
      review: '- **low** [a.ts:1](a.ts#L1) — row finding',
    });
    const fromPalette = pullRequestTarget(sessionIdOf(undefined) ?? 'sidebar-session', sessions);
    assert.ok(fromPalette.ok);
    assert.equal(fromPalette.target.cwd, '/repos/app');
    assert.equal(fromPalette.target.worktree, undefined);
    assert.deepEqual(fromPalette.target.session, { title: 'Sidebar work', summary: 'the sidebar answer' });

    // The row offers it once its session ended (worktree or not); a running one does not.
    const pkg = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8'));
    const menus = pkg.contributes.menus['view/item/context'] as Array<{ command: string; when: string }>;
    const when = menus.find((m) => m.command === 'sextant.agents.createPullRequest')?.when ?? '';
    const pattern = new RegExp(/viewItem =~ \/(.+)\/$/.exec(when)?.[1] ?? '$^');
    const offered = (sessionId: string) =>
      pattern.test(String(rows.find((r) => r.entry.sessionId === sessionId)?.contextValue));
    assert.equal(offered('row-session'), true);
    assert.equal(offered('sidebar-session'), true);
    assert.equal(offered('busy-session'), false);
    const palette = pkg.contributes.menus.commandPalette as Array<{ command: string; when: string }>;
    assert.equal(palette.find((m) => m.command === 'sextant.agents.createPullRequest')?.when, 'false');
  } finally {
    view.dispose();
  }
});

test('no folder and no worktree, or a chat still running: a clear problem, nothing run', () => {
  const none = pullRequestTarget('sidebar-session', { ...sessions, root: () => undefined });
  assert.deepEqual(none, { ok: false, problem: 'open a folder that is a git repository first.' });
  const running = pullRequestTarget('row-session', { ...sessions, running: (id) => id === 'row-session' });
  assert.deepEqual(running, { ok: false, problem: 'that chat is still running: stop it or let it finish first.' });
});
