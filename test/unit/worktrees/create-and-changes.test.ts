// A session's worktree on a real repository: made beside the repository on a branch named after the
// session, never over an existing branch or folder; refused with the reason on a repository without a
// commit; started from HEAD when the main tree has uncommitted edits; and its changes against its base
// — committed, uncommitted, untracked, deleted, renamed — listed with both sides for the diff review.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createWorktree,
  readChangeBlob,
  titleSlug,
  worktreeChanges,
  worktreeName,
  worktreesFolder,
} from '../../../extension/core/worktrees';
import { fixture, hasGit } from './repo-fixture';

const skip = hasGit ? false : 'git is not installed';

test('names: a safe slug of the title and six characters of the id; the folder beside the repository', () => {
  assert.equal(titleSlug('Fix the login bug: “café” & more!'), 'fix-the-login-bug-cafe-more');
  assert.equal(titleSlug('   '), 'session');
  assert.equal(titleSlug('../../etc/passwd'), 'etc-passwd');
  assert.equal(worktreeName('Fix it', 'A1B2-C3D4-E5F6'), 'fix-it-a1b2c3');
  assert.equal(worktreeName('Fix it', 'a1b2c3d4', 3), 'fix-it-a1b2c3-3');
  assert.equal(worktreesFolder('/src/my app'), '/src/my app.sextant-worktrees');
  assert.equal(worktreesFolder('/src/app', '~/trees', '/home/u'), '/home/u/trees/app');
  assert.equal(worktreesFolder('/src/app', '/var/trees'), '/var/trees/app');
  assert.throws(() => worktreesFolder('/src/app', 'trees'), /must be an absolute folder/);
});

test('create: a branch and folder named after the session, from HEAD, outside the workspace; main’s edits stay', {
  skip,
}, async () => {
  const f = fixture();
  try {
    f.write(join(f.repo, 'a.txt'), 'one\ntwo (edited in main, not committed)\nthree\n');
    f.write(join(f.repo, 'main-only.txt'), 'untracked in main\n');
    const head = f.git(f.repo, 'rev-parse', 'HEAD').trim();
    const { worktree: wt, mainHadChanges } = await createWorktree({
      repo: join(f.repo, 'src'),
      title: 'Fix the login bug',
      sessionId: '3F9A2C77-0000',
    });
    assert.equal(wt.branch, 'sextant/fix-the-login-bug-3f9a2c');
    assert.equal(wt.path, join(f.base, 'my project.sextant-worktrees', 'fix-the-login-bug-3f9a2c'));
    assert.equal(wt.mainPath, f.repo);
    assert.equal(wt.base, head);
    assert.equal(wt.commonDir, join(f.repo, '.git'));
    assert.equal(wt.gitDir, join(f.repo, '.git', 'worktrees', 'fix-the-login-bug-3f9a2c'));
    assert.equal(mainHadChanges, true, 'the UI can say the uncommitted edits are not in the worktree');
    assert.equal(readFileSync(join(wt.path, 'a.txt'), 'utf8'), 'one\ntwo\nthree\n', 'the worktree starts from HEAD');
    assert.equal(existsSync(join(wt.path, 'main-only.txt')), false);
    assert.equal(f.git(wt.path, 'rev-parse', '--abbrev-ref', 'HEAD').trim(), wt.branch);
    assert.match(f.git(f.repo, 'status', '--porcelain'), /a\.txt/, 'the main tree keeps its own edits');

    // The same session name again: never the existing branch or folder.
    const again = await createWorktree({ repo: f.repo, title: 'Fix the login bug', sessionId: '3f9a2c' });
    assert.equal(again.worktree.branch, 'sextant/fix-the-login-bug-3f9a2c-2');
    // A folder in the way (not a worktree) is left alone as well.
    mkdirSync(join(f.base, 'my project.sextant-worktrees', 'other-abcdef'));
    writeFileSync(join(f.base, 'my project.sextant-worktrees', 'other-abcdef', 'mine.txt'), 'mine\n');
    const third = await createWorktree({ repo: f.repo, title: 'Other', sessionId: 'abcdef' });
    assert.equal(third.worktree.branch, 'sextant/other-abcdef-2');
    assert.equal(
      readFileSync(join(f.base, 'my project.sextant-worktrees', 'other-abcdef', 'mine.txt'), 'utf8'),
      'mine\n',
    );
    // A folder the user set.
    const set = await createWorktree({
      repo: f.repo,
      title: 'Set',
      sessionId: 'aaaaaa',
      folderSetting: join(f.base, 'trees here'),
    });
    assert.equal(set.worktree.path, join(f.base, 'trees here', 'my project', 'set-aaaaaa'));
    // A workspace that is itself a linked worktree: the new one still hangs off the main working tree.
    const fromLinked = await createWorktree({ repo: join(wt.path, 'src'), title: 'Nested', sessionId: 'bbbbbb' });
    assert.equal(fromLinked.worktree.mainPath, f.repo);
    assert.equal(fromLinked.worktree.commonDir, join(f.repo, '.git'));
    assert.equal(fromLinked.worktree.path, join(f.base, 'my project.sextant-worktrees', 'nested-bbbbbb'));
  } finally {
    f.done();
  }
});

test('create in the background: returns with the worktree, its files come with `ready`, the same tree', {
  skip,
}, async () => {
  const f = fixture();
  try {
    const made = await createWorktree({ repo: f.repo, title: 'Quick', sessionId: 'abc123', populate: 'background' });
    await made.ready;
    const wt = made.worktree;
    assert.equal(
      readFileSync(join(wt.path, 'old name.txt'), 'utf8'),
      readFileSync(join(f.repo, 'old name.txt'), 'utf8'),
    );
    assert.equal(
      f.git(wt.path, 'status', '--porcelain', '--untracked-files=all'),
      '',
      'files and index as checked out',
    );
    assert.equal(f.git(wt.path, 'rev-parse', 'HEAD').trim(), wt.base);
    assert.equal(f.git(wt.path, 'ls-files').split('\n').filter(Boolean).length, 4);
  } finally {
    f.done();
  }
});

test('create: a repository without a commit is refused with the reason', { skip }, async () => {
  const f = fixture({ commit: false });
  try {
    await assert.rejects(
      createWorktree({ repo: f.repo, title: 't', sessionId: 'abc' }),
      /the repository has no commit yet, and a worktree is a checkout of a commit/,
    );
    assert.equal(existsSync(join(f.base, 'my project.sextant-worktrees')), false);
    await assert.rejects(createWorktree({ repo: f.base, title: 't', sessionId: 'abc' }), /not in a git repository/);
  } finally {
    f.done();
  }
});

test('what changed: commits on the branch, uncommitted, untracked, deleted and renamed files, with both sides', {
  skip,
}, async () => {
  const f = fixture();
  try {
    const { worktree: wt } = await createWorktree({ repo: f.repo, title: 'Changes', sessionId: 'c0ffee' });
    f.write(join(wt.path, 'src', 'b.txt'), 'bee\ncommitted on the branch\n');
    f.git(wt.path, 'commit', '-qam', 'on the branch');
    f.write(join(wt.path, 'a.txt'), 'one\ntwo, not committed\nthree\n');
    f.write(join(wt.path, 'new dir', 'new file.txt'), 'untracked\n');
    rmSync(join(wt.path, 'gone.txt'));
    renameSync(join(wt.path, 'old name.txt'), join(wt.path, 'new name.txt'));
    writeFileSync(join(wt.path, 'bin.dat'), Buffer.from([0, 1, 2, 0, 255]));
    const before = f.git(wt.path, 'status', '--porcelain');
    const changes = await worktreeChanges(wt);
    const byPath = new Map(changes.files.map((c) => [c.path, c]));
    assert.deepEqual(changes.files.map((c) => `${c.status} ${c.path}`).sort(), [
      'added bin.dat',
      'added new dir/new file.txt',
      'deleted gone.txt',
      'modified a.txt',
      'modified src/b.txt',
      'renamed new name.txt',
    ]);
    assert.equal(byPath.get('new name.txt')?.oldPath, 'old name.txt');
    assert.equal(byPath.get('bin.dat')?.binary, true);
    assert.equal(byPath.get('a.txt')?.binary, false);
    const a = byPath.get('a.txt');
    assert.ok(a?.baseBlob && a.afterBlob && a.afterFile);
    assert.equal((await readChangeBlob(wt, a.baseBlob)).toString(), 'one\ntwo\nthree\n');
    assert.equal((await readChangeBlob(wt, a.afterBlob)).toString(), 'one\ntwo, not committed\nthree\n');
    assert.equal(a.afterFile, join(wt.path, 'a.txt'));
    const gone = byPath.get('gone.txt');
    assert.equal(gone?.afterBlob, undefined);
    assert.equal(gone?.afterFile, undefined);
    assert.equal(byPath.get('new dir/new file.txt')?.baseBlob, undefined);
    assert.equal(f.git(wt.path, 'status', '--porcelain'), before, 'reading the changes touches neither tree nor index');
  } finally {
    f.done();
  }
});
