// The approved push runs in the box (real bubblewrap) when the sandbox is on: to a local bare remote the
// box may write (an extra write root), it lands; to one outside every root, the box refuses it and the
// refusal is in git's failure, so the push really ran boxed. The branch's upstream is set on the
// host (the box keeps .git/config read-only). The push's policy and approval are as in
// push-pull-request.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { boxedGitRunner, GitProblem, pushBranch, type PushPorts } from '../../../extension/core/git';
import { createSandbox } from '../../../extension/platform/sandbox/create-sandbox';
import { bubblewrapSkip } from '../../fixtures/box-test';
import { hasGit, makeRepo, type Repo } from './git-repo';

const skip = hasGit ? bubblewrapSkip('git push in the box') : 'git is not installed';

/** Every box made here: disposed at the end, else its helper processes keep the test process alive. */
const boxes: Array<ReturnType<typeof createSandbox>> = [];

function boxedPorts(r: Repo, extraWriteRoots: string[]): PushPorts {
  mkdirSync(join(r.base, 'home'), { recursive: true });
  const sandbox = createSandbox({
    settings: () => ({ mode: 'box', allowedHosts: [], extraWriteRoots }),
    workspaceFolders: () => [r.dir],
    home: join(r.base, 'home'),
    stateRoot: join(r.base, 'state'),
  });
  boxes.push(sandbox);
  return {
    judge: async () => ({ decision: 'ask', reason: 'no rule' }),
    approve: async () => true,
    run: boxedGitRunner(() => sandbox),
  };
}

test('push in the box: lands in a bare remote the box may write; refused for one outside its roots', {
  skip,
}, async () => {
  const r = makeRepo();
  try {
    const bare = join(r.base, 'remote repo.git');
    spawnSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
    r.git('remote', 'add', 'origin', bare);
    r.git('switch', '-q', '-c', 'feature');
    r.git('commit', '-q', '--allow-empty', '-m', 'feat: boxed');
    await assert.rejects(
      pushBranch(r.dir, boxedPorts(r, [])),
      (e) => e instanceof GitProblem && e.code === 'git_failed',
      'the box keeps the push out of a folder it may not write',
    );
    assert.equal(spawnSync('git', ['--git-dir', bare, 'rev-parse', '-q', '--verify', 'refs/heads/feature']).status, 1);
    const pushed = await pushBranch(r.dir, boxedPorts(r, [bare]));
    assert.equal(pushed.branch, 'feature');
    const remote = spawnSync('git', ['--git-dir', bare, 'rev-parse', 'refs/heads/feature'], { encoding: 'utf8' });
    assert.equal(remote.stdout.trim(), r.git('rev-parse', 'HEAD').trim());
    // The box keeps .git/config read-only: the upstream (`-u`) is recorded on the host after the push.
    assert.equal(pushed.upstreamSet, true, pushed.upstreamProblem);
    assert.equal(r.git('rev-parse', '--abbrev-ref', '@{upstream}').trim(), 'origin/feature');
  } finally {
    for (const box of boxes.splice(0)) box.dispose();
    r.done();
  }
});
