// Sextant's own git on the host (command coverage, /review, @git): a repository's config — its own, or
// one a `commondir` planted by a command points at — names programs git would run on the way (a filter
// driver's clean/smudge/process, core.fsmonitor, hooks). Each of those writes a marker file here; the
// real functions Sextant calls must give their results and never create a marker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findRepo, ignoredPaths, readBlobs } from '../../../extension/core/checkpoints/git-repo';
import { readableDiff } from '../../../extension/core/extensions/readable-diff';
import { gitReviewDiff } from '../../../extension/core/extensions/review';
import { repositoryOverrides } from '../../../extension/core/security/git-safety';

const hasGit = spawnSync('git', ['--version']).status === 0;
const skip = hasGit ? false : 'git is not installed';

/** A repository with one committed file under a filter, the file then changed (a worktree diff runs clean). */
function repo(): { root: string; marker: string; run(...a: string[]): void } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-hostgit-')));
  const marker = join(root, 'MARKER');
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, GIT_CONFIG_NOSYSTEM: '1' };
  const run = (...a: string[]) => {
    const r = spawnSync('git', a, { cwd: root, env, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  };
  run('init', '-q');
  run('config', 'user.email', 't@example.com');
  run('config', 'user.name', 't');
  writeFileSync(join(root, '.gitattributes'), '*.txt filter=evil\n');
  writeFileSync(join(root, 'a.txt'), 'one\n');
  run('add', '.');
  run('commit', '-qm', 'first');
  writeFileSync(join(root, 'a.txt'), 'one\ntwo\n');
  utimesSync(join(root, 'a.txt'), new Date(2001, 1, 1), new Date(2001, 1, 1));
  return { root, marker, run };
}

/** Config text that makes git run `touch MARKER` through every door a read command opens. */
function evilConfig(marker: string): string {
  const touch = `touch '${marker}'; cat`;
  return (
    `[core]\n\tfsmonitor = touch '${marker}' #\n\thooksPath = hooks-evil\n` +
    `[filter "evil"]\n\tclean = ${touch}\n\tsmudge = ${touch}\n\trequired = true\n`
  );
}

async function everythingSextantRuns(root: string): Promise<void> {
  const found = await findRepo(root);
  assert.ok(found, 'the repository is found');
  await ignoredPaths(found);
  const blobs = spawnSync('git', ['rev-parse', 'HEAD:a.txt'], { cwd: root, encoding: 'utf8' }).stdout.trim();
  const read = await readBlobs(found, [{ oid: blobs, path: 'a.txt' }]);
  assert.equal(read.get('a.txt')?.toString(), 'one\n', 'cat-file --filters gives the blob');
  const diff = await readableDiff(root, 'HEAD', async () => ({ ok: true }));
  assert.match(diff.diff, /\+two/, 'the worktree diff is there');
  const review = await gitReviewDiff(
    () => root,
    async () => ({ ok: true }),
  )(undefined);
  assert.equal(review.ok, true);
}

test("Sextant's host git runs nothing a repository's own config names (filters, fsmonitor, hooks)", {
  skip,
}, async () => {
  const r = repo();
  try {
    mkdirSync(join(r.root, '.git', 'hooks-evil'));
    writeFileSync(join(r.root, '.git', 'hooks-evil', 'post-index-change'), `#!/bin/sh\ntouch '${r.marker}'\n`, {
      mode: 0o755,
    });
    writeFileSync(join(r.root, '.git', 'config'), `${evilConfig(r.marker)}[user]\n\temail = t@example.com\n`);
    // The setup is live: plain git runs the filter.
    spawnSync('git', ['diff', 'HEAD'], { cwd: r.root, env: { PATH: process.env.PATH, HOME: r.root } });
    assert.equal(existsSync(r.marker), true, 'plain git runs the repository filter (the test means something)');
    rmSync(r.marker);
    await everythingSextantRuns(r.root);
    assert.equal(existsSync(r.marker), false, 'a program named by the repository config ran');
  } finally {
    rmSync(r.root, { recursive: true, force: true });
  }
});

test("a commondir planted in .git leads Sextant's git to no program either", { skip }, async () => {
  const r = repo();
  const elsewhere = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-hostgit-common-')));
  try {
    // What a boxed command could do: copy the repository's common parts elsewhere, with a config of its own.
    spawnSync('cp', ['-a', join(r.root, '.git', 'objects'), join(r.root, '.git', 'refs'), elsewhere]);
    writeFileSync(join(elsewhere, 'HEAD'), 'ref: refs/heads/master\n');
    writeFileSync(join(elsewhere, 'config'), evilConfig(r.marker));
    writeFileSync(join(r.root, '.git', 'commondir'), elsewhere);
    spawnSync('git', ['diff', 'HEAD'], { cwd: r.root, env: { PATH: process.env.PATH, HOME: r.root } });
    assert.equal(existsSync(r.marker), true, 'plain git follows the commondir (the test means something)');
    rmSync(r.marker);
    await everythingSextantRuns(r.root);
    assert.equal(existsSync(r.marker), false, 'a program named by the commondir config ran');
  } finally {
    rmSync(r.root, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  }
});

test('repositoryOverrides: only drivers the repository defines (local, worktree), never the user-wide ones', () => {
  const listing = [
    'global',
    'filter.lfs.clean\ngit-lfs clean -- %f',
    'local',
    'filter.evil.smudge\ntouch x',
    'worktree',
    'filter.wt.process\nrun',
    'local',
    'core.bare\nfalse',
    '',
  ].join('\0');
  assert.deepEqual(repositoryOverrides(listing), [
    ['filter.evil.process', ''],
    ['filter.evil.clean', ''],
    ['filter.evil.smudge', ''],
    ['filter.evil.required', 'false'],
    ['filter.wt.process', ''],
    ['filter.wt.clean', ''],
    ['filter.wt.smudge', ''],
    ['filter.wt.required', 'false'],
  ]);
});
