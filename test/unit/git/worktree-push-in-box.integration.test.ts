// A worktree session's branch and pull request, from its worktree, in the box (real bubblewrap): the box
// keeps the repository's common `.git/config` read-only, so the push runs without `-u` (an explicit
// refspec) and the upstream is set on the host afterwards, as part of the push the user approved. The
// worktree's uncommitted work is committed on its branch only after that approval; a declined push
// changes nothing. The main checkout's branch, index and files are never touched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boxedGitRunner, createBranchAndPullRequest, GitProblem, pushBranch } from '../../../extension/core/git';
import type { PushPorts } from '../../../extension/core/git';
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
  const asked: Array<{ command: string; detail: string }> = [];
  const p: PushPorts = {
    judge: async () => ({ decision: 'ask', reason: 'no rule' }),
    approve: async (command, detail) => {
      asked.push({ command, detail });
      return answer;
    },
    run: boxedGitRunner(() => sandbox, { workspaceFolders: [worktree] }),
  };
  return { p, asked };
}

const git = (cwd: string, ...args: string[]) =>
  spawnSync('git', ['-C', cwd, ...args], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });

/** A repository with a local bare remote, a staged edit of the user's, and a session's worktree. */
async function setUp(r: Repo) {
  const bare = join(r.base, 'remote repo.git');
  spawnSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
  r.git('remote', 'add', 'origin', bare);
  r.git('push', '-q', '-u', 'origin', 'main');
  r.write('notes.txt', 'the user is editing this\n');
  r.git('add', 'notes.txt');
  const { worktree } = await createWorktree({ repo: r.dir, title: 'Boxed login', sessionId: 'abcdef123456' });
  const remoteHas = () =>
    spawnSync('git', ['--git-dir', bare, 'rev-parse', '-q', '--verify', `refs/heads/${worktree.branch}`], {
      encoding: 'utf8',
    }).stdout.trim();
  const main = () => ({
    head: r.git('rev-parse', 'HEAD'),
    branch: r.git('rev-parse', '--abbrev-ref', 'HEAD'),
    index: r.git('diff', '--cached', '--name-status'),
    status: r.git('status', '--porcelain'),
    notes: r.read('notes.txt'),
  });
  return { bare, worktree, remoteHas, main };
}

test('worktree push in the box: only after approval, lands on the remote, upstream set on the host', {
  skip,
}, async () => {
  const r = makeRepo();
  try {
    const { bare, worktree, remoteHas, main } = await setUp(r);
    git(worktree.path, 'commit', '-q', '--allow-empty', '-m', 'feat: boxed login');
    const commit = git(worktree.path, 'rev-parse', 'HEAD').stdout.trim();
    const mainBefore = main();

    const declined = boxedPorts(r, worktree.path, [bare], false);
    await assert.rejects(
      pushBranch(worktree.path, declined.p),
      (e) => e instanceof GitProblem && e.code === 'declined',
    );
    assert.deepEqual(
      declined.asked.map((a) => a.command),
      [`git push -u origin ${worktree.branch}`],
    );
    assert.match(declined.asked[0]?.detail ?? '', /feat: boxed login/, 'the card lists the commits that go');
    assert.equal(remoteHas(), '', 'a declined push pushes nothing');

    const approved = boxedPorts(r, worktree.path, [bare], true);
    const pushed = await pushBranch(worktree.path, approved.p);
    assert.equal(pushed.branch, worktree.branch);
    assert.equal(pushed.upstreamSet, true, pushed.upstreamProblem);
    assert.equal(remoteHas(), commit, 'the remote has the session’s commit');
    const upstream = git(worktree.path, 'rev-parse', '--abbrev-ref', '@{upstream}');
    assert.equal(upstream.stdout.trim(), `origin/${worktree.branch}`, upstream.stderr);
    assert.deepEqual(main(), mainBefore, 'the main checkout’s branch, index and files are untouched');
  } finally {
    for (const box of boxes.splice(0)) box.dispose();
    r.done();
  }
});

test('a worktree session’s branch and pull request: its work committed and pushed after approval, gh absent', {
  skip,
}, async () => {
  const r = makeRepo();
  const bin = mkdtempSync(join(tmpdir(), 'sextant no gh '));
  try {
    const { bare, worktree, remoteHas, main } = await setUp(r);
    // The agent's edits in the worktree, not committed (as a session leaves them).
    writeFileSync(join(worktree.path, 'login.ts'), 'export const login = true;\n');
    const mainBefore = main();
    mkdirSync(join(bin, 'bin'));
    symlinkSync(spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim(), join(bin, 'bin', 'git'));
    const session = { title: 'Add the login page', summary: 'Added login.ts.' };
    const prPorts = (answer: boolean) => {
      const { p, asked } = boxedPorts(r, worktree.path, [bare], answer);
      const copied: string[] = [];
      const opened: string[] = [];
      const ports = {
        ...p,
        copyToClipboard: async (t: string) => void copied.push(t),
        openUrl: async (u: string) => void opened.push(u),
        ghEnv: { PATH: join(bin, 'bin'), HOME: bin },
      };
      return { ports, asked, copied, opened };
    };

    const denied = prPorts(false);
    await assert.rejects(
      createBranchAndPullRequest(worktree.path, session, denied.ports, {}, { worktree: true }),
      (e) => e instanceof GitProblem && e.code === 'declined',
    );
    assert.match(
      denied.asked[0]?.detail ?? '',
      /uncommitted work is committed on its branch as "Add the login page": login\.ts/,
    );
    assert.equal(remoteHas(), '', 'a declined push pushes nothing');
    assert.equal(git(worktree.path, 'rev-parse', 'HEAD').stdout.trim(), worktree.base, 'and commits nothing');
    assert.equal(git(worktree.path, 'status', '--porcelain').stdout, '?? login.ts\n');

    // Fetches name GitHub (the compare link); pushes go to the local bare repository.
    r.git('remote', 'set-url', 'origin', 'git@github.com:acme/widgets.git');
    r.git('remote', 'set-url', '--push', 'origin', bare);
    const approved = prPorts(true);
    const done = await createBranchAndPullRequest(worktree.path, session, approved.ports, {}, { worktree: true });
    assert.equal(done.created, false, 'the worktree’s own branch, no new one');
    assert.equal(done.branch, worktree.branch);
    const head = git(worktree.path, 'rev-parse', 'HEAD').stdout.trim();
    assert.notEqual(head, worktree.base);
    assert.equal(git(worktree.path, 'log', '-1', '--format=%s').stdout.trim(), 'Add the login page');
    assert.equal(remoteHas(), head, 'the remote has the session’s commit');
    const file = spawnSync('git', ['--git-dir', bare, 'show', `${worktree.branch}:login.ts`], { encoding: 'utf8' });
    assert.equal(file.stdout, readFileSync(join(worktree.path, 'login.ts'), 'utf8'));
    assert.equal(
      git(worktree.path, 'rev-parse', '--abbrev-ref', '@{upstream}').stdout.trim(),
      `origin/${worktree.branch}`,
    );
    assert.equal(done.pullRequest.kind, 'compare');
    const url = `https://github.com/acme/widgets/compare/main...${worktree.branch}?expand=1`;
    assert.equal(done.pullRequest.url, url);
    assert.deepEqual(approved.opened, [url]);
    assert.match(approved.copied[0] ?? '', /^Add the login page\n\n## Summary\n\nAdded login\.ts\./);
    assert.deepEqual(main(), mainBefore, 'the main checkout’s branch, index and files are untouched');
  } finally {
    for (const box of boxes.splice(0)) box.dispose();
    r.done();
    rmSync(bin, { recursive: true, force: true });
  }
});
