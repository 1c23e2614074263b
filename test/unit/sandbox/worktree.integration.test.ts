// A session in a worktree (`git worktree add`, core/worktrees/), boxed for real with bubblewrap: the
// worktree is the one writable root, and its `.git` is a file leading to the repository's common
// `.git` (outside every root) through `<common>/worktrees/<name>/`. git status, add and commit in the
// box must work and reach the repository; the worktree's `.git` file, its admin folder's commondir,
// gitdir and config.worktree, and the common `.git`'s config, hooks, info and the main tree's HEAD and
// index must stay as protected as a workspace's own `.git` — a planted config, hook, fsmonitor or
// filter never reaches git on the host. Run with the repository beside the checkout and under /tmp
// (the box's /tmp is its own, so there only the box's views make the repository visible at all).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { bashTool } from '../../../extension/core/tools/bash';
import { createToolSessionState, disposeToolSession } from '../../../extension/core/tools/registry';
import { createWorktree, type SessionWorktree, worktreeSessionRoots } from '../../../extension/core/worktrees';
import { shellQuote } from '../../../extension/platform/sandbox/bwrap-args';
import { createSandbox } from '../../../extension/platform/sandbox/create-sandbox';
import { createNodePorts, makeContext, textOf } from '../../fixtures/node-ports';
import { bubblewrapSkip } from '../../fixtures/box-test';

const skip = bubblewrapSkip('worktree sandbox integration');

const HOST_ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', LANG: 'C' };

async function setup(under: 'checkout' | 'tmp') {
  const parent = under === 'tmp' ? tmpdir() : path.join(process.cwd(), 'test-results');
  mkdirSync(parent, { recursive: true });
  const base = realpathSync(mkdtempSync(path.join(parent, 'wt box ')));
  const main = path.join(base, 'main repo');
  const home = path.join(base, 'home');
  mkdirSync(main);
  mkdirSync(home);
  const git = (cwd: string, ...args: string[]) => {
    const r = spawnSync('git', args, { cwd, env: { ...HOST_ENV, HOME: home }, encoding: 'utf8' });
    assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  git(main, 'init', '-q', '-b', 'main');
  git(main, 'config', 'user.name', 'host');
  git(main, 'config', 'user.email', 'host@example.com');
  writeFileSync(path.join(main, 'input.txt'), 'data\n');
  git(main, 'add', 'input.txt');
  git(main, 'commit', '-qm', 'on the host');
  const { worktree: wt } = await createWorktree({
    repo: main,
    title: 'Boxed session',
    sessionId: 'b0c5ed',
    folderSetting: path.join(base, 'trees'),
  });
  const roots = worktreeSessionRoots(wt);
  const ports = createNodePorts({ root: roots.cwd });
  // Never "run it outside the box" at the edge: every command here must do what it does in the box.
  const asked: string[] = [];
  ports.approval = {
    request: async (req) => {
      asked.push(`${req.tool}: ${req.subject}`);
      return { decision: 'deny' };
    },
  };
  const sandbox = createSandbox({
    settings: () => ({ mode: 'box', allowedHosts: [], extraWriteRoots: [] }),
    workspaceFolders: () => roots.workspaceFolders,
    home,
    stateRoot: path.join(base, 'state'),
  });
  ports.sandbox = sandbox;
  ports.childEnv = () => ({ PATH: HOST_ENV.PATH, HOME: home, LANG: 'C' });
  const session = createToolSessionState('wt-it');
  const ctx = makeContext(ports, { session, callId: 'call-1' });
  return {
    base,
    main,
    wt,
    git,
    ctx,
    asked,
    run: async (command: string) => textOf(await bashTool.execute({ command }, ctx)),
    done: () => {
      disposeToolSession(session);
      sandbox.dispose();
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/** Everything git reads as configuration or code in the worktree's two `.git` folders, as bytes. */
function protectedState(wt: SessionWorktree): string {
  const read = (p: string) => (existsSync(p) ? readFileSync(p, 'utf8') : '<absent>');
  return [
    read(path.join(wt.path, '.git')),
    read(path.join(wt.gitDir, 'commondir')),
    read(path.join(wt.gitDir, 'gitdir')),
    read(path.join(wt.gitDir, 'config.worktree')),
    existsSync(path.join(wt.gitDir, 'hooks')) ? 'hooks' : '',
    read(path.join(wt.commonDir, 'config')),
    existsSync(path.join(wt.commonDir, 'hooks')) ? readdirSync(path.join(wt.commonDir, 'hooks')).join(',') : '<none>',
    read(path.join(wt.commonDir, 'info', 'attributes')),
    read(path.join(wt.commonDir, 'HEAD')),
    read(path.join(wt.commonDir, 'index')),
  ].join('\n--\n');
}

for (const under of ['checkout', 'tmp'] as const) {
  const where = under === 'tmp' ? 'under /tmp' : 'beside the checkout';
  test(`a worktree session in the box (repository ${where}): git status, add and commit work and reach it`, {
    skip,
  }, async () => {
    const t = await setup(under);
    try {
      const mainHead = t.git(t.main, 'rev-parse', 'HEAD').trim();
      const out = await t.run(
        'echo boxed > f.txt && git status --porcelain && git add f.txt && ' +
          'git -c user.name=box -c user.email=box@example.com commit -qm boxed && ' +
          'git log --format=%s -1 && echo COMMITTED',
      );
      assert.match(out, /\?\? f\.txt/, 'git status sees the new file');
      assert.match(out, /COMMITTED/, out);
      assert.doesNotMatch(out, /\[sandbox\]/);
      assert.deepEqual(t.asked, [], 'it ran in the box, nothing asked to run it outside');
      // On the host: the commit is on the session's branch, the worktree's index is the box's.
      assert.equal(t.git(t.main, 'log', '--format=%s', '-1', t.wt.branch).trim(), 'boxed');
      assert.equal(t.git(t.wt.path, 'status', '--porcelain').trim(), '');
      assert.equal(t.git(t.main, 'rev-parse', 'HEAD').trim(), mainHead, 'the main branch did not move');
      assert.equal(t.git(t.main, 'status', '--porcelain').trim(), '', 'the main tree is untouched');
      assert.deepEqual(
        readdirSync(t.wt.gitDir).filter((n) => n.endsWith('.lock')),
        [],
        'no lock left in the admin folder',
      );
    } finally {
      t.done();
    }
  });
}

test('a worktree session in the box: its .git file, admin folder, the common config and hooks stay protected', {
  skip,
}, async () => {
  const t = await setup('checkout');
  try {
    const before = protectedState(t.wt);
    const marker = path.join(t.base, 'MARKER');
    const q = (...parts: string[]) => shellQuote(path.join(...parts));
    const evil = `[core]\\n\\tfsmonitor = touch ${shellQuote(marker)} #\\n`;
    const out = await t.run(
      [
        `printf 'gitdir: ${t.base}/elsewhere\\n' > .git`,
        'rm -f .git',
        `printf '${evil}' > ${shellQuote(path.join(t.wt.gitDir, 'config.worktree'))}`,
        `echo ${shellQuote(`${t.base}/elsewhere`)} > ${shellQuote(path.join(t.wt.gitDir, 'commondir'))}`,
        `echo /elsewhere/.git > ${shellQuote(path.join(t.wt.gitDir, 'gitdir'))}`,
        `mkdir -p ${q(t.wt.gitDir, 'hooks')} && echo evil > ${q(t.wt.gitDir, 'hooks', 'post-checkout')}`,
        `printf '${evil}' >> ${shellQuote(path.join(t.wt.commonDir, 'config'))}`,
        `echo evil > ${shellQuote(path.join(t.wt.commonDir, 'hooks', 'pre-commit'))}`,
        `mkdir -p ${q(t.wt.commonDir, 'info')}; echo '* filter=evil' > ${q(t.wt.commonDir, 'info', 'attributes')}`,
        `echo 0000000000000000000000000000000000000000 > ${shellQuote(path.join(t.wt.commonDir, 'HEAD'))}`,
        `echo x > ${shellQuote(path.join(t.wt.commonDir, 'index'))}`,
        `mv ${shellQuote(t.wt.commonDir)} ${shellQuote(`${t.wt.commonDir}-moved`)}`,
        'echo done',
      ].join('; '),
    );
    assert.match(out, /done/);
    assert.equal(protectedState(t.wt), before, 'nothing git reads as configuration or code changed on the host');
    assert.equal(existsSync(`${t.wt.commonDir}-moved`), false);
    // What the command made in the box's view of the admin folder is kept aside and reported.
    assert.match(out, /\[sandbox\] refused .*config\.worktree.*not carried over to the repository/);
    // git on the host, in the worktree and the main tree, runs nothing and still works.
    t.git(t.wt.path, 'status', '--porcelain');
    t.git(t.main, 'status', '--porcelain');
    assert.equal(existsSync(marker), false);
    // And git in the box still works after all that.
    const again = await t.run('git status --porcelain >/dev/null && echo STILL-WORKS');
    assert.match(again, /STILL-WORKS/);
  } finally {
    t.done();
  }
});
