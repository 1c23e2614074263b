// The reviewed commit on real repositories: git_commit's card lists exactly the files the commit takes
// and the commit takes exactly those (the user's other staged file stays staged, out of it); a failing
// pre-commit hook leaves the index byte for byte as it was, commits nothing, and says why; the hook
// sees the card's files as the index; and each bad input is refused with what to do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commitFiles, GitProblem } from '../../../extension/core/git';
import { gitCommitTool } from '../../../extension/core/tools/git-commit';
import type { ToolContext } from '../../../extension/core/tools/types';
import { hasGit, makeRepo, type Repo } from './git-repo';

const skip = hasGit ? false : 'git is not installed';

function ctxFor(r: Repo): ToolContext {
  return { ports: { workspace: { roots: () => [r.dir] } } } as unknown as ToolContext;
}

function committedFiles(r: Repo): string[] {
  return r.git('show', '--name-only', '--format=', 'HEAD').split('\n').filter(Boolean).sort();
}

function problem(code: string, text: RegExp) {
  return (e: unknown) => e instanceof GitProblem && e.code === code && text.test(e.message);
}

test('/commit (git_commit): the card lists exactly the files committed; another staged file stays staged', {
  skip,
}, async () => {
  const r = makeRepo();
  try {
    r.write('history/0.txt', 'first, edited\n');
    r.write('src/new file.ts', 'export {};\n');
    r.write('staged-elsewhere.txt', 'the user staged this for later\n');
    r.git('add', 'staged-elsewhere.txt');
    r.write('left alone.txt', 'untracked, not on the card\n');
    const input = { files: ['history/0.txt', 'src/new file.ts'], message: 'feat: edit the first file\n\nAnd add one.' };
    const card = await gitCommitTool.describeForApproval?.(input, ctxFor(r));
    assert.ok(card);
    const listed = card
      .split('\n')
      .filter((l) => l.startsWith('  '))
      .map((l) => l.trim());
    assert.deepEqual(listed, input.files, 'the card lists the files, nothing else');
    assert.match(card, /as in the working tree/);
    assert.match(card, /Staged but not in this commit \(they stay staged\): staged-elsewhere\.txt/);
    assert.match(card, /first, edited/, 'the diff is on the card');
    const result = await gitCommitTool.execute(input, ctxFor(r));
    assert.equal(result.isError, false, String(result.forModel));
    assert.deepEqual(committedFiles(r), [...input.files].sort(), 'the commit takes exactly the card’s files');
    assert.equal(r.git('log', '-1', '--format=%B').trim(), input.message);
    assert.equal(r.git('log', '-1', '--format=%an <%ae>').trim(), 'Test User <test@example.com>');
    assert.equal(r.git('diff', '--cached', '--name-only').trim(), 'staged-elsewhere.txt');
    assert.match(r.git('status', '--porcelain'), /\?\? "left alone\.txt"|\?\? left alone\.txt/);
    assert.deepEqual(
      readdirSync(join(r.dir, '.git')).filter((n) => n.startsWith('sextant-commit-index')),
      [],
    );
  } finally {
    r.done();
  }
});

test('staged files commit as staged: the unstaged edit of the same file is not taken', { skip }, async () => {
  const r = makeRepo();
  try {
    r.write('history/0.txt', 'staged version\n');
    r.git('add', 'history/0.txt');
    r.write('history/0.txt', 'staged version\nplus an unstaged line\n');
    const input = { files: ['history/0.txt'], message: 'change the first file' };
    assert.match((await gitCommitTool.describeForApproval?.(input, ctxFor(r))) ?? '', /as staged/);
    assert.equal((await gitCommitTool.execute(input, ctxFor(r))).isError, false);
    assert.equal(r.git('show', 'HEAD:history/0.txt'), 'staged version\n');
    assert.equal(r.read('history/0.txt'), 'staged version\nplus an unstaged line\n');
  } finally {
    r.done();
  }
});

test('a failing pre-commit hook: nothing committed, the index exactly as it was, and the hook’s reason said', {
  skip,
}, async () => {
  const r = makeRepo();
  try {
    r.hook('pre-commit', 'echo "lint: trailing space in history/0.txt" >&2\nexit 1');
    r.write('history/0.txt', 'edited \n');
    r.write('other.txt', 'staged by the user\n');
    r.git('add', 'other.txt');
    const head = r.git('rev-parse', 'HEAD');
    const indexBytes = readFileSync(join(r.dir, '.git', 'index'));
    const status = r.git('status', '--porcelain');
    const input = { files: ['history/0.txt', 'other.txt'], message: 'fix: spaces' };
    const result = await gitCommitTool.execute(input, ctxFor(r));
    assert.equal(result.isError, true);
    assert.match(String(result.forModel), /pre-commit hook refused the commit/);
    assert.match(String(result.forModel), /lint: trailing space in history\/0\.txt/);
    assert.match(String(result.forModel), /staged changes are as they were/);
    assert.equal(r.git('rev-parse', 'HEAD'), head, 'nothing committed');
    assert.deepEqual(
      readFileSync(join(r.dir, '.git', 'index')),
      indexBytes,
      'the index file is byte for byte the same',
    );
    assert.equal(r.git('status', '--porcelain'), status);
    assert.deepEqual(
      readdirSync(join(r.dir, '.git')).filter((n) => n.startsWith('sextant-commit-index')),
      [],
    );
  } finally {
    r.done();
  }
});

test('hooks run as git runs them, on the index the card shows (never --no-verify)', { skip }, async () => {
  const r = makeRepo();
  try {
    r.hook('pre-commit', 'git diff --cached --name-only > "$(git rev-parse --git-dir)/hook-saw"');
    r.write('a.txt', 'a\n');
    r.write('b.txt', 'b\n');
    await commitFiles(r.dir, { files: ['a.txt'], message: 'add a', from: 'worktree' });
    assert.equal(readFileSync(join(r.dir, '.git', 'hook-saw'), 'utf8'), 'a.txt\n');
  } finally {
    r.done();
  }
});

test('bad input: detached HEAD, a merge in progress, no identity, no changes — each says what to do', {
  skip,
}, async () => {
  const r = makeRepo({ history: ['one', 'two'] });
  const home = mkdtempSync(join(tmpdir(), 'sextant empty home '));
  try {
    await assert.rejects(
      commitFiles(r.dir, { files: ['x.txt'], message: 'm', from: 'worktree' }),
      problem('no_changes', /working tree is clean/),
    );
    r.write('x.txt', 'x\n');
    r.git('checkout', '-q', '--detach', 'HEAD');
    await assert.rejects(
      commitFiles(r.dir, { files: ['x.txt'], message: 'm', from: 'worktree' }),
      problem('detached_head', /git switch -c/),
    );
    r.git('checkout', '-q', 'main');
    writeFileSync(join(r.dir, '.git', 'MERGE_HEAD'), `${r.git('rev-parse', 'HEAD~1')}`);
    await assert.rejects(
      commitFiles(r.dir, { files: ['x.txt'], message: 'm', from: 'worktree' }),
      problem('operation_in_progress', /merge is in progress.*git merge --continue/s),
    );
    rmSync(join(r.dir, '.git', 'MERGE_HEAD'));
    r.git('config', '--unset', 'user.name');
    r.git('config', '--unset', 'user.email');
    const noIdentity = { ...process.env, HOME: home, XDG_CONFIG_HOME: home, GIT_CONFIG_NOSYSTEM: '1' } as Record<
      string,
      string
    >;
    delete noIdentity.GIT_AUTHOR_NAME;
    delete noIdentity.GIT_AUTHOR_EMAIL;
    await assert.rejects(
      commitFiles(r.dir, { files: ['x.txt'], message: 'm', from: 'worktree' }, { baseEnv: noIdentity }),
      problem('no_identity', /git config --global user\.name/),
    );
    assert.equal(existsSync(join(r.dir, '.git', 'index.lock')), false);
    assert.equal(r.git('log', '--format=%s').trim(), 'two\none', 'nothing was committed along the way');
  } finally {
    r.done();
    rmSync(home, { recursive: true, force: true });
  }
});
