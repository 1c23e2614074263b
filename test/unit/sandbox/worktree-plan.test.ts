// The box's plan for a linked worktree as data (the real box is in worktree.integration.test.ts): the
// worktree is the writable root, its `.git` file stays read-only, its common `.git` and admin folder
// get views with only data writable, mounted common first, and the macOS profile says the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planBox } from '../../../extension/core/sandbox/box-plan';
import { bwrapArgs } from '../../../extension/platform/sandbox/bwrap-args';
import { seatbeltProfile } from '../../../extension/platform/sandbox/seatbelt-profile';

const existing: Record<string, 'file' | 'dir'> = { '/trees/w': 'dir', '/trees/w/.git': 'file' };
const linked = {
  gitDir: {
    path: '/repo/.git/worktrees/w',
    entries: [
      { name: 'HEAD', kind: 'file' as const },
      { name: 'index', kind: 'file' as const },
      { name: 'commondir', kind: 'file' as const },
      { name: 'gitdir', kind: 'file' as const },
      { name: 'config.worktree', kind: 'file' as const },
      { name: 'logs', kind: 'dir' as const },
    ],
  },
  commonDir: {
    path: '/repo/.git',
    entries: [
      { name: 'HEAD', kind: 'file' as const },
      { name: 'index', kind: 'file' as const },
      { name: 'config', kind: 'file' as const },
      { name: 'packed-refs', kind: 'file' as const },
      { name: 'hooks', kind: 'dir' as const },
      { name: 'objects', kind: 'dir' as const },
      { name: 'refs', kind: 'dir' as const },
      { name: 'logs', kind: 'dir' as const },
      { name: 'worktrees', kind: 'dir' as const },
    ],
  },
};
const plan = planBox({
  workspaceFolders: ['/trees/w'],
  extraWriteRoots: [],
  home: '/home/u',
  sessionTemp: '/state/s-1',
  allowedHosts: [],
  kindOf: (p) => existing[p],
  linkedWorktree: (root) => (root === '/trees/w' ? linked : undefined),
});

test('a linked worktree: its common .git and admin folder get views, common first; only data is writable', () => {
  assert.deepEqual(
    plan.writable.map((w) => w.path),
    ['/trees/w'],
  );
  assert.deepEqual(
    plan.git.map((g) => g.path),
    ['/repo/.git', '/repo/.git/worktrees/w'],
  );
  const [common, own] = plan.git;
  assert.equal(common.role, 'common');
  assert.deepEqual(common.live, ['objects', 'refs', 'logs']);
  assert.deepEqual(common.state, ['packed-refs'], "the main tree's HEAD and index are not the worktree's to write");
  assert.deepEqual(
    common.readOnly.map((e) => e.name),
    ['HEAD', 'index', 'config', 'hooks', 'worktrees'],
  );
  assert.deepEqual(own.live, ['logs']);
  assert.deepEqual(own.state, ['HEAD', 'index']);
  assert.deepEqual(
    own.readOnly.map((e) => e.name),
    ['commondir', 'gitdir', 'config.worktree'],
  );
  const gitFile = plan.readOnly.find((r) => r.path === '/trees/w/.git');
  assert.equal(gitFile?.kind, 'file', "the worktree's .git file stays read-only as it is");
});

test('bubblewrap mounts the admin folder on top of the common view; the macOS profile allows the same data', () => {
  const shadows = ['--bind', '/s/git-0', '/repo/.git', '--bind', '/s/git-1', '/repo/.git/worktrees/w'];
  const args = bwrapArgs(plan, { emptyFile: '/e/f', emptyDir: '/e/d', gitShadows: shadows }, 'true');
  const at = (dest: string) => args.findIndex((a, i) => a === dest && args[i - 2] === '--bind');
  assert.ok(at('/repo/.git') < at('/repo/.git/worktrees/w'));
  const profile = seatbeltProfile(plan, undefined);
  assert.match(profile, /\(deny file-write\* \(subpath "\/repo\/\.git"\)\)/);
  assert.match(profile, /\^\/repo\/\\\\\.git\/\(\?:packed-refs\)/);
  assert.match(profile, /\^\/repo\/\\\\\.git\/worktrees\/w\/\(\?:index\|HEAD/);
});

test('a .git file that is no linked worktree keeps the older treatment: read-only, no view', () => {
  const other = planBox({
    workspaceFolders: ['/trees/w'],
    extraWriteRoots: [],
    home: '/home/u',
    sessionTemp: '/state/s-1',
    allowedHosts: [],
    kindOf: (p) => existing[p],
    linkedWorktree: () => undefined,
  });
  assert.deepEqual(other.git, []);
  assert.equal(other.readOnly.find((r) => r.path === '/trees/w/.git')?.kind, 'file');
});
