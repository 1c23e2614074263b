// The merge back on real repositories, each choice the user has: apply to the main working tree,
// merge the branch, rebase it, keep it. A conflict with the main tree (its uncommitted edits, or its
// branch) is shown as a list of files, and then the main tree is exactly as it was, the worktree is
// still there and its work is not lost. Untracked files in the worktree come back; the repository's
// own merge driver and hooks run nothing on the host.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createWorktree, mergeBack, type SessionWorktree } from '../../../extension/core/worktrees';
import { type Fixture, fixture, hasGit, treeState } from './repo-fixture';

const skip = hasGit ? false : 'git is not installed';

async function session(f: Fixture, title = 'Agent work'): Promise<SessionWorktree> {
  const { worktree } = await createWorktree({ repo: f.repo, title, sessionId: 'be7a11' });
  return worktree;
}

/** The agent's work: a commit on the branch, an uncommitted edit and an untracked file. */
function work(f: Fixture, wt: SessionWorktree): void {
  f.write(join(wt.path, 'src', 'b.txt'), 'bee\ncommitted by the agent\n');
  f.git(wt.path, 'commit', '-qam', 'agent commit');
  f.write(join(wt.path, 'a.txt'), 'one\ntwo, edited by the agent\nthree\n');
  f.write(join(wt.path, 'new folder', 'untracked file.txt'), 'made by the agent\n');
  // What the box kept aside when a command tried to plant a hook in `.git`: never part of the work.
  f.write(join(wt.path, '.git.sextant-refused-1', 'hooks', 'pre-commit'), '#!/bin/sh\nevil\n');
}

function branchExists(f: Fixture, branch: string): boolean {
  return f.git(f.repo, 'branch', '--list', branch).trim() !== '';
}

test('apply: the changes land in the main working tree uncommitted, the untracked file too; worktree removed', {
  skip,
}, async () => {
  const f = fixture();
  try {
    const wt = await session(f);
    work(f, wt);
    // The user's own unrelated edit in the main tree survives.
    f.write(join(f.repo, 'gone.txt'), 'the user edits this meanwhile\n');
    const head = f.git(f.repo, 'rev-parse', 'HEAD').trim();
    const r = await mergeBack(wt, 'apply');
    assert.equal(r.ok, true, r.message);
    assert.deepEqual(r.conflicts, []);
    assert.equal(f.read(join(f.repo, 'a.txt')), 'one\ntwo, edited by the agent\nthree\n');
    assert.equal(f.read(join(f.repo, 'src', 'b.txt')), 'bee\ncommitted by the agent\n');
    assert.equal(f.read(join(f.repo, 'new folder', 'untracked file.txt')), 'made by the agent\n');
    assert.equal(f.read(join(f.repo, 'gone.txt')), 'the user edits this meanwhile\n');
    assert.equal(existsSync(join(f.repo, '.git.sextant-refused-1')), false, 'what the box kept aside stays out');
    assert.equal(f.git(f.repo, 'rev-parse', 'HEAD').trim(), head, 'applied as edits, not committed');
    assert.equal(f.git(f.repo, 'diff', '--cached', '--name-only'), '', 'nothing staged');
    assert.equal(r.worktreeRemoved, true);
    assert.equal(existsSync(wt.path), false);
    assert.equal(r.branchKept, false);
    assert.equal(f.git(f.repo, 'worktree', 'list', '--porcelain').match(/^worktree /gm)?.length, 1);
  } finally {
    f.done();
  }
});

test('apply: a conflict with the main tree’s uncommitted edit is listed, nothing applied, nothing lost', {
  skip,
}, async () => {
  const f = fixture();
  try {
    const wt = await session(f);
    work(f, wt);
    f.write(join(f.repo, 'a.txt'), 'one\ntwo, edited by the user in the same line\nthree\n');
    const mainBefore = treeState(f, f.repo);
    const worktreeBefore = treeState(f, wt.path);
    const r = await mergeBack(wt, 'apply');
    assert.equal(r.ok, false);
    assert.deepEqual(r.conflicts, ['a.txt']);
    assert.match(r.message, /conflict with the main working tree's own edits; nothing was applied/);
    assert.equal(treeState(f, f.repo), mainBefore, 'the main tree, its index and status exactly as they were');
    assert.equal(treeState(f, wt.path), worktreeBefore, 'the worktree and its uncommitted work are untouched');
    assert.equal(r.worktreeRemoved, false);
    assert.ok(branchExists(f, wt.branch));
  } finally {
    f.done();
  }
});

test('merge: the uncommitted work is committed on the branch, then merged --no-ff; branch and worktree removed', {
  skip,
}, async () => {
  const f = fixture();
  try {
    const wt = await session(f);
    work(f, wt);
    // The main branch moved on meanwhile (another file): still a clean merge.
    f.write(join(f.repo, 'gone.txt'), 'changed on main\n');
    f.git(f.repo, 'commit', '-qam', 'main moves on');
    const r = await mergeBack(wt, 'merge');
    assert.equal(r.ok, true, r.message);
    assert.ok(r.savedCommit, 'the uncommitted work became a commit');
    assert.match(f.git(f.repo, 'log', '-1', '--format=%s%n%P'), /^Merge sextant\/agent-work-be7a11 .*\n\S+ \S+\n$/);
    assert.match(f.git(f.repo, 'log', '--format=%s'), /saved before merging back/);
    assert.equal(f.read(join(f.repo, 'new folder', 'untracked file.txt')), 'made by the agent\n');
    assert.equal(f.read(join(f.repo, 'a.txt')), 'one\ntwo, edited by the agent\nthree\n');
    assert.equal(f.git(f.repo, 'status', '--porcelain'), '');
    assert.doesNotMatch(f.git(f.repo, 'ls-files'), /sextant-refused/, 'what the box kept aside is not committed');
    assert.equal(existsSync(wt.path), false);
    assert.equal(branchExists(f, wt.branch), false, 'merged, so the branch goes');
  } finally {
    f.done();
  }
});

test('merge: a conflict with the main branch is listed before anything starts; main tree as before, work kept', {
  skip,
}, async () => {
  const f = fixture();
  try {
    const wt = await session(f);
    work(f, wt);
    f.write(join(f.repo, 'a.txt'), 'one\ntwo, committed on main in the same line\nthree\n');
    f.git(f.repo, 'commit', '-qam', 'main edits the same line');
    f.write(join(f.repo, 'src', 'b.txt'), 'bee\nthe user’s uncommitted edit\n');
    const mainBefore = treeState(f, f.repo);
    const r = await mergeBack(wt, 'merge');
    assert.equal(r.ok, false);
    assert.deepEqual(r.conflicts, ['a.txt']);
    assert.equal(treeState(f, f.repo), mainBefore);
    assert.equal(existsSync(join(f.repo, '.git', 'MERGE_HEAD')), false, 'no merge left half-done');
    // Nothing lost: the worktree is there and its branch holds every piece of the work.
    assert.equal(r.worktreeRemoved, false);
    assert.ok(r.savedCommit);
    assert.equal(f.git(f.repo, 'rev-parse', wt.branch).trim(), r.savedCommit);
    assert.equal(f.git(f.repo, 'show', `${wt.branch}:new folder/untracked file.txt`), 'made by the agent\n');
    assert.equal(f.git(f.repo, 'show', `${wt.branch}:a.txt`), 'one\ntwo, edited by the agent\nthree\n');
    assert.equal(f.read(join(wt.path, 'a.txt')), 'one\ntwo, edited by the agent\nthree\n');
  } finally {
    f.done();
  }
});

test('merge: the main tree’s uncommitted edit in a file the merge changes is not overwritten', { skip }, async () => {
  const f = fixture();
  try {
    const wt = await session(f);
    work(f, wt);
    f.write(join(f.repo, 'src', 'b.txt'), 'bee\nthe user’s uncommitted edit\n');
    const mainBefore = treeState(f, f.repo);
    const r = await mergeBack(wt, 'merge');
    assert.equal(r.ok, false);
    assert.deepEqual(r.conflicts, ['src/b.txt']);
    assert.match(r.message, /main working tree is as it was/);
    assert.equal(treeState(f, f.repo), mainBefore);
    assert.ok(existsSync(wt.path));
  } finally {
    f.done();
  }
});

test('rebase: the branch onto the main branch, then main fast-forwards; a conflict puts the branch back', {
  skip,
}, async () => {
  const f = fixture();
  try {
    const wt = await session(f);
    work(f, wt);
    f.write(join(f.repo, 'gone.txt'), 'changed on main\n');
    f.git(f.repo, 'commit', '-qam', 'main moves on');
    const mainCommit = f.git(f.repo, 'rev-parse', 'HEAD').trim();
    const r = await mergeBack(wt, 'rebase');
    assert.equal(r.ok, true, r.message);
    assert.equal(f.git(f.repo, 'log', '--merges', '--format=%H'), '', 'a straight history');
    assert.equal(f.git(f.repo, 'rev-list', '--count', `${mainCommit}..HEAD`).trim(), '2');
    assert.equal(f.read(join(f.repo, 'new folder', 'untracked file.txt')), 'made by the agent\n');
    assert.equal(existsSync(wt.path), false);

    const second = await createWorktree({ repo: f.repo, title: 'Second', sessionId: '5ec0d0' });
    f.write(join(second.worktree.path, 'a.txt'), 'one\nthe agent’s line\nthree\n');
    f.write(join(f.repo, 'a.txt'), 'one\nmain’s line\nthree\n');
    f.git(f.repo, 'commit', '-qam', 'main edits the same line');
    const mainBefore = treeState(f, f.repo);
    const failed = await mergeBack(second.worktree, 'rebase');
    assert.equal(failed.ok, false);
    assert.deepEqual(failed.conflicts, ['a.txt']);
    assert.equal(treeState(f, f.repo), mainBefore);
    assert.equal(f.git(f.repo, 'rev-parse', second.worktree.branch).trim(), failed.savedCommit, 'branch as before');
    assert.equal(f.git(second.worktree.path, 'status', '--porcelain'), '', 'no rebase left half-done');
    assert.equal(f.read(join(second.worktree.path, 'a.txt')), 'one\nthe agent’s line\nthree\n');
  } finally {
    f.done();
  }
});

test('keep: the uncommitted work is committed on the branch, the worktree removed, the branch kept', {
  skip,
}, async () => {
  const f = fixture();
  try {
    const wt = await session(f);
    work(f, wt);
    const mainBefore = treeState(f, f.repo);
    const r = await mergeBack(wt, 'keep');
    assert.equal(r.ok, true, r.message);
    assert.equal(r.branchKept, true);
    assert.equal(r.worktreeRemoved, true);
    assert.equal(existsSync(wt.path), false);
    assert.equal(f.git(f.repo, 'show', `${wt.branch}:new folder/untracked file.txt`), 'made by the agent\n');
    assert.equal(f.git(f.repo, 'show', `${wt.branch}:a.txt`), 'one\ntwo, edited by the agent\nthree\n');
    assert.equal(treeState(f, f.repo), mainBefore, 'keeping touches nothing in the main tree');
    assert.doesNotMatch(f.git(f.repo, 'worktree', 'list'), /agent-work/, 'pruned');
  } finally {
    f.done();
  }
});

test('keepWorktree: merged, and the worktree folder stays on request', { skip }, async () => {
  const f = fixture();
  try {
    const wt = await session(f);
    work(f, wt);
    const r = await mergeBack(wt, 'merge', { keepWorktree: true });
    assert.equal(r.ok, true, r.message);
    assert.equal(r.worktreeRemoved, false);
    assert.ok(existsSync(join(wt.path, 'a.txt')));
    assert.ok(branchExists(f, wt.branch));
  } finally {
    f.done();
  }
});

test('the repository’s own merge driver and hooks run nothing: the file is a conflict, shown', { skip }, async () => {
  const f = fixture();
  try {
    const marker = join(f.base, 'MARKER');
    const wt = await session(f);
    f.write(join(wt.path, 'a.txt'), 'one\nagent\nthree\n');
    f.write(join(f.repo, 'a.txt'), 'one\nmain\nthree\n');
    f.write(join(f.repo, '.gitattributes'), '*.txt merge=evil\n');
    f.git(f.repo, 'add', '-A');
    f.git(f.repo, 'commit', '-qm', 'main');
    // The driver "resolves" by running a program: plain git would run it and report a clean merge.
    const config = readFileSync(join(f.repo, '.git', 'config'), 'utf8');
    writeFileSync(
      join(f.repo, '.git', 'config'),
      `${config}[merge "evil"]\n\tdriver = touch '${marker}'; true\n[core]\n\thooksPath = evil-hooks\n`,
    );
    mkdirSync(join(f.repo, '.git', 'evil-hooks'));
    for (const hook of ['pre-commit', 'commit-msg', 'post-commit', 'post-merge', 'pre-merge-commit', 'post-checkout'])
      writeFileSync(join(f.repo, '.git', 'evil-hooks', hook), `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
    const r = await mergeBack(wt, 'merge');
    assert.equal(existsSync(marker), false, 'a program the repository names ran on the host');
    assert.equal(r.ok, false, 'the driver is replaced by a conflict, not by a silent resolution');
    assert.deepEqual(r.conflicts, ['a.txt']);
    const applied = await mergeBack(wt, 'apply');
    assert.equal(existsSync(marker), false);
    assert.equal(applied.ok, false);
  } finally {
    f.done();
  }
});

test('a worktree with a conflict of its own (a merge the agent left half-done) is not merged back', {
  skip,
}, async () => {
  const f = fixture();
  try {
    const wt = await session(f);
    f.git(wt.path, 'checkout', '-qb', 'side');
    f.write(join(wt.path, 'a.txt'), 'one\nside\nthree\n');
    f.git(wt.path, 'commit', '-qam', 'side');
    f.git(wt.path, 'checkout', '-q', wt.branch);
    f.write(join(wt.path, 'a.txt'), 'one\nbranch\nthree\n');
    f.git(wt.path, 'commit', '-qam', 'branch');
    const merge = spawnSync('git', ['merge', 'side'], { cwd: wt.path });
    assert.notEqual(merge.status, 0, 'the agent’s merge stopped on a conflict');
    const mainBefore = treeState(f, f.repo);
    for (const choice of ['apply', 'merge', 'keep'] as const) {
      const r = await mergeBack(wt, choice);
      assert.equal(r.ok, false);
      assert.deepEqual(r.conflicts, ['a.txt']);
      assert.match(r.message, /unresolved conflicts of its own/);
    }
    assert.equal(treeState(f, f.repo), mainBefore);
    assert.ok(existsSync(wt.path));
  } finally {
    f.done();
  }
});
