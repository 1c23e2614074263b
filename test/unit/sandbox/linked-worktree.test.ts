// Which `.git` files the box takes for a linked worktree's (and so gives the worktree's repository
// writable data folders): only one git itself made — pointing at `<common>/worktrees/<name>`, which
// points back and leads to a repository. A `.git` file pointing anywhere else gets no view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { linkedWorktreeAt } from '../../../extension/platform/sandbox/linked-worktree';

const hasGit = spawnSync('git', ['--version']).status === 0;
const describe = (path: string) => ({ path, entries: [] });

test('a linked worktree is recognised; a .git file that only looks like one is not', { skip: !hasGit }, () => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'sextant linked ')));
  try {
    const git = (cwd: string, ...args: string[]) =>
      assert.equal(spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', ...args], { cwd }).status, 0);
    const main = join(base, 'main');
    mkdirSync(main);
    git(main, 'init', '-q');
    git(main, 'commit', '-q', '--allow-empty', '-m', 'first');
    git(main, 'worktree', 'add', '-q', '-b', 'w', join(base, 'w'));
    const found = linkedWorktreeAt(join(base, 'w'), describe);
    assert.equal(found?.commonDir.path, join(main, '.git'));
    assert.equal(found?.gitDir.path, join(main, '.git', 'worktrees', 'w'));
    assert.equal(linkedWorktreeAt(main, describe), undefined, 'a .git folder is no linked worktree');

    // A second folder whose .git file names the same admin folder: it does not point back here.
    mkdirSync(join(base, 'copy'));
    writeFileSync(join(base, 'copy', '.git'), `gitdir: ${join(main, '.git', 'worktrees', 'w')}\n`);
    assert.equal(linkedWorktreeAt(join(base, 'copy'), describe), undefined);

    // A made-up admin folder outside `<common>/worktrees`, pointing back and leading to the repository.
    const fake = join(base, 'fake-admin');
    mkdirSync(fake);
    mkdirSync(join(base, 'x'));
    writeFileSync(join(base, 'x', '.git'), `gitdir: ${fake}\n`);
    writeFileSync(join(fake, 'gitdir'), `${join(base, 'x', '.git')}\n`);
    writeFileSync(join(fake, 'commondir'), `${join(main, '.git')}\n`);
    assert.equal(linkedWorktreeAt(join(base, 'x'), describe), undefined);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
