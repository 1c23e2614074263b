// Push and pull request on real repositories: the push to a local bare remote happens only through the
// approval (the user's permission policy judges `git push …` as a bash call; a deny rule refuses it, a
// declined card pushes nothing); a remote that moved on rejects the push with what to do; and with no
// `gh` on PATH the pull request's body goes to the clipboard and the compare URL is reported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  compareUrl,
  createBranchAndPullRequest,
  GitProblem,
  pushBranch,
  type PushPorts,
  runGitCommand,
} from '../../../extension/core/git';
import { createPolicy, decide } from '../../../extension/core/permissions';
import { declaredToolFacts } from '../../../extension/core/tools/registry';
import { hasGit, makeRepo, type Repo } from './git-repo';

const skip = hasGit ? false : 'git is not installed';

function withRemote(r: Repo): string {
  const bare = join(r.base, 'remote repo.git');
  spawnSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
  r.git('remote', 'add', 'origin', bare);
  r.git('push', '-q', '-u', 'origin', 'main');
  return bare;
}

function remoteRef(bare: string, ref: string): string {
  return spawnSync('git', ['--git-dir', bare, 'rev-parse', '-q', '--verify', ref], { encoding: 'utf8' }).stdout.trim();
}

/** The permission policy as the editor builds it, with `user` rules; the card answered `answer`. */
function ports(r: Repo, answer: boolean, user: { deny?: string[] } = {}) {
  const policy = createPolicy({ workspaceFolders: [r.dir], home: r.base, tools: declaredToolFacts(), user });
  const asked: string[] = [];
  const p: PushPorts = {
    judge: async (command) => {
      const d = decide({ tool: 'bash', input: { command } }, policy);
      return { decision: d.decision, reason: d.reason };
    },
    approve: async (command) => {
      asked.push(command);
      return answer;
    },
    run: (args, cwd) => runGitCommand(cwd, args),
  };
  return { p, asked };
}

test('push to a local bare remote: only after the approval; declined or denied pushes nothing', { skip }, async () => {
  const r = makeRepo();
  try {
    const bare = withRemote(r);
    r.git('switch', '-q', '-c', 'feature/login');
    r.write('login.ts', 'export {};\n');
    r.git('add', '-A');
    r.git('commit', '-qm', 'feat: login');
    const declined = ports(r, false);
    await assert.rejects(pushBranch(r.dir, declined.p), (e) => e instanceof GitProblem && e.code === 'declined');
    assert.deepEqual(declined.asked, ['git push -u origin feature/login']);
    assert.equal(remoteRef(bare, 'refs/heads/feature/login'), '', 'nothing pushed without the user');
    const denied = ports(r, true, { deny: ['bash(git push*)'] });
    await assert.rejects(pushBranch(r.dir, denied.p), /permission rules refuse/);
    assert.deepEqual(denied.asked, [], 'a deny rule refuses before anyone is asked');
    const approved = ports(r, true);
    const pushed = await pushBranch(r.dir, approved.p);
    assert.deepEqual(approved.asked, ['git push -u origin feature/login']);
    assert.equal(pushed.branch, 'feature/login');
    assert.equal(remoteRef(bare, 'refs/heads/feature/login'), r.git('rev-parse', 'HEAD').trim());
  } finally {
    r.done();
  }
});

test('a rejected push says so and what to do; nothing is forced', { skip }, async () => {
  const r = makeRepo();
  try {
    const bare = withRemote(r);
    const other = join(r.base, 'other clone');
    spawnSync('git', ['clone', '-q', bare, other]);
    spawnSync('git', [
      '-C',
      other,
      '-c',
      'user.name=O',
      '-c',
      'user.email=o@x',
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      'theirs',
    ]);
    spawnSync('git', ['-C', other, 'push', '-q', 'origin', 'main']);
    const theirs = remoteRef(bare, 'refs/heads/main');
    r.git('commit', '-q', '--allow-empty', '-m', 'mine');
    await assert.rejects(
      pushBranch(r.dir, ports(r, true).p),
      (e) => e instanceof GitProblem && e.code === 'push_rejected' && /git pull --rebase origin main/.test(e.message),
    );
    assert.equal(remoteRef(bare, 'refs/heads/main'), theirs, 'the remote keeps its commit');
  } finally {
    r.done();
  }
});

test('gh absent: a branch is made, pushed after approval, the body copied and the compare URL reported', {
  skip,
}, async () => {
  const r = makeRepo();
  const bin = mkdtempSync(join(tmpdir(), 'sextant no gh '));
  try {
    const bare = withRemote(r);
    // Fetches name GitHub (the compare link); pushes go to the local bare repository.
    r.git('remote', 'set-url', 'origin', 'git@github.com:acme/widgets.git');
    r.git('remote', 'set-url', '--push', 'origin', bare);
    r.write('login.ts', 'export {};\n');
    r.git('add', '-A');
    r.git('commit', '-qm', 'feat: add the login page');
    const gitPath = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
    mkdirSync(join(bin, 'bin'));
    symlinkSync(gitPath, join(bin, 'bin', 'git'));
    const copied: string[] = [];
    const opened: string[] = [];
    const { p, asked } = ports(r, true);
    const done = await createBranchAndPullRequest(
      r.dir,
      {
        title: 'Add the login page',
        summary: 'Added login.ts.',
        review: '- **low** [login.ts:1](login.ts#L1) — empty',
      },
      {
        ...p,
        copyToClipboard: async (t) => void copied.push(t),
        openUrl: async (u) => void opened.push(u),
        ghEnv: { PATH: join(bin, 'bin'), HOME: bin },
      },
    );
    assert.equal(done.created, true);
    assert.equal(done.branch, 'sextant/add-the-login-page');
    assert.deepEqual(asked, ['git push -u origin sextant/add-the-login-page']);
    assert.equal(remoteRef(bare, 'refs/heads/sextant/add-the-login-page'), r.git('rev-parse', 'HEAD').trim());
    assert.equal(done.pullRequest.kind, 'compare');
    const url = 'https://github.com/acme/widgets/compare/main...sextant/add-the-login-page?expand=1';
    assert.equal(done.pullRequest.url, url);
    assert.match(done.pullRequest.kind === 'compare' ? done.pullRequest.why : '', /gh\) is not installed/);
    assert.deepEqual(opened, [url]);
    assert.equal(copied.length, 1);
    assert.match(copied[0] ?? '', /^feat: add the login page\n\n## Summary\n\nAdded login\.ts\./);
    assert.match(copied[0] ?? '', /## Review/);
  } finally {
    r.done();
    rmSync(bin, { recursive: true, force: true });
  }
});

test('compare URLs from https, ssh and scp-like remotes; none for a local path', () => {
  const want = 'https://github.com/o/r/compare/main...feat/x?expand=1';
  assert.equal(compareUrl('https://github.com/o/r.git', 'main', 'feat/x'), want);
  assert.equal(compareUrl('https://user@github.com/o/r', 'main', 'feat/x'), want);
  assert.equal(compareUrl('ssh://git@github.com:22/o/r.git', 'main', 'feat/x'), want);
  assert.equal(compareUrl('git@github.com:o/r.git', 'main', 'feat/x'), want);
  assert.equal(compareUrl('/srv/git/r.git', 'main', 'feat/x'), undefined);
});
