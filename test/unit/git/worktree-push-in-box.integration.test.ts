// A worktree session's branch pushed from its worktree in the box (real bubblewrap): the box keeps the
// repository's common `.git/config` read-only, so the push runs without `-u` (an explicit refspec) and
// the upstream is set on the host afterwards, as part of the push the user approved.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { boxedGitRunner, GitProblem, pushBranch, type PushPorts } from '../../../extension/core/git';
import { createWorktree } from '../../../extension/core/worktrees/create';
import { createSandbox } from '../../../extension/platform/sandbox/create-sandbox';
import { bubblewrapSkip } from '../../fixtures/box-test';
import { hasGit, makeRepo, type Repo } from './git-repo';

const skip = hasGit ? bubblewrapSkip('git push from a worktree in the box') : 'git is not installed';

const boxes: Array<ReturnType<typeof createSandbox>> = [];

function boxedPorts(r: Repo, worktree: string, extraWriteRoots: string[], answer: boolean) {
  mkdirSync(join(r.base, 'home'), { recursive: true });
  const sandbox = createSandbox({
    settings: () => ({ mode: 'box', allowedHosts: [], extraWriteRoots }),
    workspaceFolders: () => [r.dir],
    home: join(r.base, 'home'),
    stateRoot: join(r.base, 'state'),
  });
  boxes.push(sandbox);
  const asked: string[] = [];
  const p: PushPorts = {
    judge: async () => ({ decision: 'ask', reason: 'no rule' }),
    approve: async (command) => {
      asked.push(command);
      return answer;
    },
    run: boxedGitRunner(() => sandbox, { workspaceFolders: [worktree] }),
  };
  return { p, asked };
}

test('worktree push in the box: only after approval, lands on the remote, upstream set on the host', {
  skip,
}, async () => {
  const r = makeRepo();
  try {
    const bare = join(r.base, 'remote repo.git');
    spawnSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
    r.git('remote', 'add', 'origin', bare);
    r.git('push', '-q', '-u', 'origin', 'main');
    r.write('notes.txt', 'the user is editing this\n');
    r.git('add', 'notes.txt');
    const indexBefore = r.git('diff', '--cached', '--name-status');
    const { worktree } = await createWorktree({ repo: r.dir, title: 'Boxed login', sessionId: 'abcdef123456' });
    spawnSync('git', ['-C', worktree.path, 'commit', '-q', '--allow-empty', '-m', 'feat: boxed login']);
    const commit = spawnSync('git', ['-C', worktree.path, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
    const remoteHas = () =>
      spawnSync('git', ['--git-dir', bare, 'rev-parse', '-q', '--verify', `refs/heads/${worktree.branch}`], {
        encoding: 'utf8',
      }).stdout.trim();

    const declined = boxedPorts(r, worktree.path, [bare], false);
    await assert.rejects(pushBranch(worktree.path, declined.p), (e) => e instanceof GitProblem && e.code === 'declined');
    assert.deepEqual(declined.asked, [`git push -u origin ${worktree.branch}`]);
    assert.equal(remoteHas(), '', 'a declined push pushes nothing');

    const approved = boxedPorts(r, worktree.path, [bare], true);
    const pushed = await pushBranch(worktree.path, approved.p);
    assert.equal(pushed.branch, worktree.branch);
    assert.equal(remoteHas(), commit, 'the remote has the session’s commit');
    const upstream = spawnSync('git', ['-C', worktree.path, 'rev-parse', '--abbrev-ref', '@{upstream}'], {
      encoding: 'utf8',
    });
    assert.equal(upstream.stdout.trim(), `origin/${worktree.branch}`, upstream.stderr);
    assert.equal(r.git('rev-parse', '--abbrev-ref', 'HEAD').trim(), 'main', 'the main checkout stays on its branch');
    assert.equal(r.git('diff', '--cached', '--name-status'), indexBefore, 'the main checkout’s index is untouched');
    assert.equal(r.read('notes.txt'), 'the user is editing this\n');
  } finally {
    for (const box of boxes.splice(0)) box.dispose();
    r.done();
  }
});
