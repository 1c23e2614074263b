// A worktree session's hooks (engine/hooks.ts with `sessionWorktree`): they start in the session's worktree
// (cwd, CLAUDE_PROJECT_DIR) and, boxed, may write it but not the main working tree — as the session's tools.
// A session without a worktree runs its hooks in the window's folder as before. Real git, real hook
// processes, real bubblewrap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { createPolicy } from '../../../extension/core/permissions';
import { declaredToolFacts } from '../../../extension/core/tools/registry';
import { createWorktree } from '../../../extension/core/worktrees/create';
import { WorktreeSessions, type WorktreeRecord } from '../../../extension/core/worktrees/session-registry';
import { createEngineHooks } from '../../../extension/engine/hooks';
import { createSandbox } from '../../../extension/platform/sandbox/create-sandbox';
import { detectBackend } from '../../../extension/platform/sandbox/detect';
import { fixture, hasGit } from './repo-fixture';

const detected = detectBackend();
const skip = !hasGit
  ? 'git is not installed'
  : detected.ok && detected.backend === 'bubblewrap'
    ? false
    : 'no box here';

test('a worktree session’s hook starts in its worktree and writes there; the main tree’s session’s in the main tree', {
  skip,
}, async () => {
  const f = fixture();
  const made = await createWorktree({ repo: f.repo, title: 'chat', sessionId: 'wt-1' });
  await made.ready;
  const stored: WorktreeRecord[] = [];
  const sessions = new WorktreeSessions({ read: () => stored, write: (r) => stored.splice(0, stored.length, ...r) });
  sessions.add('wt-1', made.worktree, made.ready);
  const sandbox = createSandbox({
    settings: () => ({ mode: 'box', allowedHosts: [], extraWriteRoots: [] }),
    workspaceFolders: () => [f.repo],
    home: f.base,
    stateRoot: path.join(f.base, 'state'),
  });
  const warnings: string[] = [];
  const main = JSON.stringify(path.join(f.repo, 'leak.txt'));
  const hooks = createEngineHooks({
    log: { info: () => {}, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) },
    post: () => {},
    ports: () => ({
      sandbox,
      childEnv: () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: f.base, LANG: 'C' }),
    }),
    audit: () => {},
    policy: () => createPolicy({ user: {}, workspaceFolders: [f.repo], home: f.base, tools: declaredToolFacts() }),
    workspaceState: { get: () => undefined, update: async () => {} },
    trusted: () => true,
    folder: () => f.repo,
    readWorkspaceFile: async () => undefined,
    userHooks: () => ({
      Stop: [
        {
          hooks: [
            {
              type: 'command',
              command:
                'pwd > ran-here.txt; echo "$CLAUDE_PROJECT_DIR" >> ran-here.txt; ' +
                `echo x > ${main} 2>/dev/null; true`,
            },
          ],
        },
      ],
    }),
    sessionWorktree: (id) => sessions.get(id),
  });
  hooks.reloadUser();
  const fire = (sessionId: string) =>
    hooks.engine.fire('Stop', { stop_hook_active: false }, { sessionId, signal: new AbortController().signal });
  try {
    await fire('wt-1');
    const there = readFileSync(path.join(made.worktree.path, 'ran-here.txt'), 'utf8').split('\n');
    assert.equal(there[0], made.worktree.path, 'the hook started in the worktree');
    assert.equal(there[1], made.worktree.path, 'CLAUDE_PROJECT_DIR is the worktree');
    assert.ok(!existsSync(path.join(f.repo, 'ran-here.txt')), 'nothing of it in the main working tree');
    assert.ok(!existsSync(path.join(f.repo, 'leak.txt')), 'the main working tree is not writable from its box');

    await fire('plain-session');
    assert.equal(readFileSync(path.join(f.repo, 'ran-here.txt'), 'utf8').split('\n')[0], f.repo);
  } finally {
    sandbox.dispose();
    rmSync(path.join(f.base, 'state'), { recursive: true, force: true });
    f.done();
  }
});
