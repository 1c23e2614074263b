// The box for real: bash commands run through bubblewrap with the product's own launch (plan, bwrap
// command line, proxy bridge, forwarder). Each refused act is checked on the host (nothing written)
// and in what the model gets (the rule is named); the allowed work beside it must succeed.
// Skipped with the reason printed where no backend works (macOS sandbox-exec is tested by its
// profile in seatbelt-profile.test.ts; an integration run needs a Mac).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { bashTool } from '../../../extension/core/tools/bash';
import { bashOutputTool } from '../../../extension/core/tools/bash-output';
import { killShellTool } from '../../../extension/core/tools/kill-shell';
import { createToolSessionState, disposeToolSession } from '../../../extension/core/tools/registry';
import type { ApprovalRequest } from '../../../extension/core/ports';
import type { BoxConnection } from '../../../extension/core/sandbox/types';
import { shellQuote } from '../../../extension/platform/sandbox/bwrap-args';
import { createSandbox } from '../../../extension/platform/sandbox/create-sandbox';
import { CLOCK_SLACK_MS } from '../../../extension/platform/sandbox/new-repositories';
import { createNodePorts, makeContext, textOf } from '../../fixtures/node-ports';
import { bubblewrapSkip, hostProcesses, waitFor } from '../../fixtures/box-test';

const skip = bubblewrapSkip('sandbox integration');

/**
 * Folders for one test. "Outside" is where the box cannot write wherever the checkout is: not under
 * /tmp (the box's /tmp is its own and writable, so a checkout under /tmp would make it a write into
 * the chat's temp) — /var/tmp, a host folder every user may write that the box keeps read-only.
 */
function scratch(): { base: string; ws: string; home: string; outside: string } {
  const base = path.join(
    process.cwd(),
    'test-results',
    `sandbox-it-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
  );
  const ws = path.join(base, 'ws');
  const home = path.join(base, 'home');
  mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
  writeFileSync(path.join(ws, '.git', 'config'), '[core]\n');
  writeFileSync(path.join(ws, 'input.txt'), 'workspace data\n');
  mkdirSync(path.join(home, '.ssh'), { recursive: true });
  writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY\n');
  const outside = existsSync('/var/tmp') ? mkdtempSync('/var/tmp/sextant-outside-') : path.join(base, 'outside');
  mkdirSync(outside, { recursive: true });
  return { base: realpathSync(base), ws: realpathSync(ws), home: realpathSync(home), outside: realpathSync(outside) };
}

function setup(allowedHosts: string[] = []) {
  const dirs = scratch();
  const ports = createNodePorts({ root: dirs.ws });
  const asked: ApprovalRequest[] = [];
  let answer: 'approve' | 'deny' = 'deny';
  ports.approval = {
    request: async (req) => {
      asked.push(req);
      return { decision: answer };
    },
  };
  const connections: BoxConnection[] = [];
  const sandbox = createSandbox({
    settings: () => ({ mode: 'box', allowedHosts, extraWriteRoots: [] }),
    workspaceFolders: () => [dirs.ws],
    home: dirs.home,
    stateRoot: path.join(dirs.base, 'state'),
    onConnection: (c) => connections.push(c),
  });
  ports.sandbox = sandbox;
  ports.childEnv = () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dirs.home, LANG: 'C' });
  const session = createToolSessionState('it');
  const ctx = makeContext(ports, { session, callId: 'call-1' });
  return {
    ...dirs,
    ctx,
    asked,
    connections,
    approveEdge: () => (answer = 'approve'),
    done: () => {
      disposeToolSession(session);
      sandbox.dispose();
      rmSync(dirs.base, { recursive: true, force: true });
      rmSync(dirs.outside, { recursive: true, force: true });
    },
  };
}

test('a boxed command: its own output and reads work; protected, outside and secret writes are refused by name', {
  skip,
}, async () => {
  const t = setup();
  try {
    const r = await bashTool.execute(
      {
        command:
          'cat input.txt; echo made > out.txt; echo evil > .git/hooks/pre-commit; ' +
          `echo x > ${shellQuote(`${t.outside}/escaped.txt`)}; ` +
          'echo y > ~/.ssh/authorized_keys; echo z > .mcp.json; exit 3',
      },
      t.ctx,
    );
    const text = textOf(r);
    assert.equal(r.isError, true);
    // Allowed work: reading the workspace, writing its own output file.
    assert.match(text, /workspace data/);
    assert.equal(readFileSync(path.join(t.ws, 'out.txt'), 'utf8'), 'made\n');
    // Refused work: nothing reached the host.
    assert.equal(existsSync(path.join(t.ws, '.git', 'hooks', 'pre-commit')), false);
    assert.equal(existsSync(path.join(t.outside, 'escaped.txt')), false);
    assert.equal(existsSync(path.join(t.home, '.ssh', 'authorized_keys')), false);
    assert.equal(
      existsSync(path.join(t.ws, '.mcp.json')),
      false,
      'the stand-in for a missing protected file is removed',
    );
    assert.match(text, /Read-only file system/);
    // The first refusal is named with its rule, for the model and the card.
    assert.match(text, /\[sandbox\] refused \.git\/hooks\/pre-commit|\[sandbox\] refused .*\.git\/hooks/);
    assert.match(text, /\.git\/hooks stays read-only in the sandbox: git reads it as configuration or code/);
    // One prompt at the edge: it names the rule and offers a run outside the box (no widening for .git).
    assert.equal(t.asked.length, 1);
    assert.equal(t.asked[0].labels?.approve, 'Run once outside the box');
    assert.equal(t.asked[0].alwaysRule, undefined);
  } finally {
    t.done();
  }
});

test('each refusal alone names its own rule', { skip }, async () => {
  const t = setup();
  try {
    const outside = await bashTool.execute({ command: `echo x > ${shellQuote(`${t.outside}/escaped.txt`)}` }, t.ctx);
    assert.match(textOf(outside), /\[sandbox\] refused .*escaped\.txt: .* is outside the box's writable folders/);
    assert.equal(t.asked.at(-1)?.labels?.always, 'Allow this folder');
    assert.equal(t.asked.at(-1)?.alwaysRule, t.outside);

    const secretRead = await bashTool.execute({ command: 'cat ~/.ssh/id_rsa' }, t.ctx);
    assert.doesNotMatch(textOf(secretRead), /PRIVATE KEY/);
    assert.match(textOf(secretRead), /\[sandbox\] refused ~\/\.ssh\/id_rsa: ~\/\.ssh\/ is hidden in the sandbox/);

    const protectedNew = await bashTool.execute({ command: 'echo "{}" > .mcp.json' }, t.ctx);
    assert.match(textOf(protectedNew), /\[sandbox\] refused \.mcp\.json: \.mcp\.json stays read-only in the sandbox/);
    assert.equal(existsSync(path.join(t.ws, '.mcp.json')), false);
  } finally {
    t.done();
  }
});

test("a folder in the host's /tmp: the refusal says the box does not show it and offers to allow it", {
  skip,
}, async () => {
  const t = setup();
  // /tmp itself, not os.tmpdir(): the box replaces /tmp with the chat's own.
  const hostTemp = realpathSync(mkdtempSync('/tmp/sextant-host-temp-'));
  writeFileSync(path.join(hostTemp, 'data.txt'), 'host data\n');
  try {
    const read = await bashTool.execute({ command: `cat ${hostTemp}/data.txt` }, t.ctx);
    assert.doesNotMatch(textOf(read), /host data/);
    assert.match(
      textOf(read),
      /\[sandbox\] refused .*data\.txt: .* outside the box's writable folders: the host's \/tmp is not visible/,
    );
    assert.equal(t.asked.at(-1)?.labels?.always, 'Allow this folder');
    assert.equal(t.asked.at(-1)?.alwaysRule, hostTemp);
    const write = await bashTool.execute({ command: `echo x > ${hostTemp}/new.txt` }, t.ctx);
    assert.match(textOf(write), /the host's \/tmp is not visible in the box/);
    assert.equal(existsSync(path.join(hostTemp, 'new.txt')), false);
    // A path that is nowhere, on the host either, is not blamed on the box.
    const nowhere = await bashTool.execute({ command: `cat /tmp/sextant-no-such-${process.pid}/x` }, t.ctx);
    assert.doesNotMatch(textOf(nowhere), /\[sandbox\]/);
  } finally {
    t.done();
    rmSync(hostTemp, { recursive: true, force: true });
  }
});

test('.git: a repository made in the command gets no hook; .git cannot be renamed away to plant one', {
  skip,
}, async () => {
  const t = setup();
  try {
    // Moving .git aside and making a new one: the new .git would have no read-only hooks folder.
    const moved = await bashTool.execute(
      { command: 'mv .git .git-old; mkdir -p .git/hooks; echo evil > .git/hooks/pre-commit; ls .git/hooks' },
      t.ctx,
    );
    assert.match(textOf(moved), /Device or resource busy/);
    assert.equal(existsSync(path.join(t.ws, '.git-old')), false);
    assert.deepEqual(readdirSync(path.join(t.ws, '.git', 'hooks')), []);
    // No .git at launch: `git init` and a hook in the same command.
    rmSync(path.join(t.ws, '.git'), { recursive: true, force: true });
    const made = await bashTool.execute(
      {
        command:
          'echo made > out.txt; git init -q; mkdir -p .git/hooks; echo evil > .git/hooks/pre-commit; ' +
          'mkdir -p .git-x/hooks && mv -T .git-x .git',
      },
      t.ctx,
    );
    const text = textOf(made);
    assert.equal(readFileSync(path.join(t.ws, 'out.txt'), 'utf8'), 'made\n', 'the allowed work is done');
    assert.equal(existsSync(path.join(t.ws, '.git', 'hooks', 'pre-commit')), false);
    assert.equal(existsSync(path.join(t.ws, '.git')), false, 'the stand-in is removed after the command');
    assert.match(text, /\.git stays read-only in the sandbox while it does not exist/);
    rmSync(path.join(t.ws, '.git-x'), { recursive: true, force: true });
  } finally {
    t.done();
  }
});

/** A real repository in the workspace, made on the host (outside any box), with one commit. */
function realRepository(ws: string): (...args: string[]) => string {
  rmSync(path.join(ws, '.git'), { recursive: true, force: true });
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: ws, GIT_CONFIG_NOSYSTEM: '1', LANG: 'C' };
  const git = (...args: string[]) => {
    const r = spawnSync('git', args, { cwd: ws, env, encoding: 'utf8' });
    assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  git('init', '-q');
  git('config', 'user.name', 'host');
  git('config', 'user.email', 'host@example.com');
  git('add', 'input.txt');
  git('commit', '-qm', 'on the host');
  return git;
}

test('git in the box: add and commit work and reach the repository (index, HEAD, refs, objects)', {
  skip,
}, async () => {
  const t = setup();
  try {
    const git = realRepository(t.ws);
    const r = await bashTool.execute(
      {
        command:
          'echo hello > f.txt && git add f.txt && ' +
          'git -c user.name=box -c user.email=box@example.com commit -qm boxed ' +
          '&& git checkout -qb feature && git log --format=%s | head -1',
      },
      t.ctx,
    );
    assert.equal(r.isError, false, textOf(r));
    assert.doesNotMatch(textOf(r), /\[sandbox\]/);
    // On the host, after the box: the commit, the branch switch and the index are all there.
    assert.equal(git('log', '--format=%s', '-1').trim(), 'boxed');
    assert.equal(git('rev-parse', '--abbrev-ref', 'HEAD').trim(), 'feature');
    assert.equal(git('status', '--porcelain').trim(), '', 'the index the box wrote is the repository’s');
    assert.deepEqual(
      readdirSync(path.join(t.ws, '.git')).filter((n) => n.includes('sextant') || n.endsWith('.lock')),
      [],
    );
  } finally {
    t.done();
  }
});

test('git in the box: what git reads as configuration or code never reaches the repository', { skip }, async () => {
  const t = setup();
  try {
    const git = realRepository(t.ws);
    mkdirSync(path.join(t.ws, '.git', 'modules'));
    const config = readFileSync(path.join(t.ws, '.git', 'config'), 'utf8');
    // fsmonitor runs in the working tree: a relative marker, so no path (spaces and all) needs quoting.
    const marker = path.join(t.ws, 'MARKER');
    const evil = '[core]\n\tfsmonitor = touch MARKER #\n';
    mkdirSync(path.join(t.ws, 'elsewhere'));
    writeFileSync(path.join(t.ws, 'elsewhere', 'config'), evil);
    const r = await bashTool.execute(
      {
        command: [
          // The path built at run time, as a policy would never see it.
          `python3 -c "open('.g'+'it/commondir','w').write('${t.ws}/elsewhere')" ||` +
            ` echo '${t.ws}/elsewhere' > .git/commondir`,
          `printf '${evil.replace(/\n/g, '\\n').replace(/\t/g, '\\t')}' > .git/config.worktree`,
          'mkdir -p .git/worktrees/w && echo x > .git/worktrees/w/config',
          'mkdir -p .git/modules/x/hooks',
          'echo evil > .git/hooks/pre-commit',
          'echo "[alias]" >> .git/config',
          'echo "*.txt filter=evil" > .git/info/attributes',
          'echo done',
        ].join('; '),
      },
      t.ctx,
    );
    const text = textOf(r);
    assert.match(text, /done/);
    for (const name of [
      'commondir',
      'config.worktree',
      'worktrees',
      'hooks/pre-commit',
      'modules/x',
      'info/attributes',
    ])
      assert.equal(existsSync(path.join(t.ws, '.git', name)), false, `.git/${name} reached the repository`);
    assert.equal(readFileSync(path.join(t.ws, '.git', 'config'), 'utf8'), config);
    // Reported, and kept aside (never deleted).
    assert.match(
      text,
      /\[sandbox\] refused \.git\/\S+: .*not carried over to the repository: git reads it as configuration/,
    );
    const kept = readdirSync(t.ws).filter((n) => n.startsWith('.git.sextant-refused-'));
    assert.equal(kept.length, 1);
    assert.ok(existsSync(path.join(t.ws, kept[0], 'commondir')));
    // git on the host still works and runs nothing.
    git('status', '--porcelain');
    assert.equal(existsSync(marker), false);
  } finally {
    t.done();
  }
});

test('a repository made by a boxed command inside the workspace is put aside when the box ends', { skip }, async () => {
  const t = setup();
  try {
    realRepository(t.ws);
    // A nested repository the user made before: not the command's, left alone.
    spawnSync('git', ['init', '-q', path.join(t.ws, 'old')]);
    // Made before the command: once the clock is past the launch's slack for the kernel's coarse file times.
    const born = statSync(path.join(t.ws, 'old', '.git')).birthtimeMs || Date.now();
    await waitFor(() => Date.now() > born + CLOCK_SLACK_MS + 1);
    const r = await bashTool.execute(
      {
        command:
          "git init -q sub && git -C sub config core.fsmonitor 'touch ../MARKER #' && " +
          "mkdir -p deep/er && printf 'gitdir: /elsewhere\\n' > deep/er/.git && echo made",
      },
      t.ctx,
    );
    const text = textOf(r);
    assert.match(text, /made/);
    assert.equal(existsSync(path.join(t.ws, 'sub', '.git')), false);
    assert.equal(existsSync(path.join(t.ws, 'deep', 'er', '.git')), false);
    assert.equal(readdirSync(path.join(t.ws, 'sub')).filter((n) => n.startsWith('.git.sextant-refused-')).length, 1);
    assert.ok(existsSync(path.join(t.ws, 'old', '.git', 'HEAD')), "the user's own nested repository is untouched");
    assert.match(text, /\[sandbox\] refused (sub|deep\/er)\/\.git: a repository made in the box/);
    spawnSync('git', ['status'], { cwd: path.join(t.ws, 'sub') });
    assert.equal(existsSync(path.join(t.ws, 'MARKER')), false);
  } finally {
    t.done();
  }
});

test('a repository already inside the workspace (vendor/lib, a .git file) gets the same box as the workspace’s own', {
  skip,
}, async () => {
  const t = setup();
  try {
    realRepository(t.ws);
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: t.ws, GIT_CONFIG_NOSYSTEM: '1', LANG: 'C' };
    const gitIn = (cwd: string, ...args: string[]) => {
      const r = spawnSync('git', args, { cwd, env, encoding: 'utf8' });
      assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
      return r.stdout;
    };
    // A vendored checkout with a commit, made on the host; and a sub-project whose `.git` is a file
    // pointing at its repository elsewhere in the workspace.
    const lib = path.join(t.ws, 'vendor', 'lib');
    mkdirSync(lib, { recursive: true });
    gitIn(lib, 'init', '-q');
    writeFileSync(path.join(lib, 'lib.txt'), 'lib\n');
    gitIn(lib, 'add', 'lib.txt');
    gitIn(lib, '-c', 'user.name=host', '-c', 'user.email=host@example.com', 'commit', '-qm', 'on the host');
    mkdirSync(path.join(lib, '.git', 'hooks'), { recursive: true });
    mkdirSync(path.join(t.ws, 'store'));
    gitIn(t.ws, 'init', '-q', '--separate-git-dir', path.join(t.ws, 'store', 'p.git'), path.join(t.ws, 'vendor', 'p'));
    // Made before the command (else its release would put them aside as the command's own).
    const born =
      Math.max(
        ...[path.join(lib, '.git'), path.join(t.ws, 'vendor', 'p', '.git')].map((g) => statSync(g).birthtimeMs),
      ) || Date.now();
    await waitFor(() => Date.now() > born + CLOCK_SLACK_MS + 1);
    const pointer = readFileSync(path.join(t.ws, 'vendor', 'p', '.git'), 'utf8');
    const libConfig = readFileSync(path.join(lib, '.git', 'config'), 'utf8');
    const storeConfig = readFileSync(path.join(t.ws, 'store', 'p.git', 'config'), 'utf8');
    const attack = await bashTool.execute(
      {
        command: [
          "printf '[core]\\n\\tfsmonitor = touch MARKER #\\n' >> vendor/lib/.git/config",
          'echo evil > vendor/lib/.git/hooks/pre-commit',
          `echo ${shellQuote(t.outside)} > vendor/lib/.git/commondir`,
          "printf 'gitdir: /elsewhere\\n' > vendor/p/.git",
          'rm -f vendor/p/.git',
          'mv vendor/lib/.git vendor/lib/.git-old',
          "echo '[alias]' >> store/p.git/config",
          'echo done',
        ].join('; '),
      },
      t.ctx,
    );
    const text = textOf(attack);
    assert.match(text, /done/);
    assert.equal(readFileSync(path.join(lib, '.git', 'config'), 'utf8'), libConfig, 'the nested config is unchanged');
    assert.equal(existsSync(path.join(lib, '.git', 'hooks', 'pre-commit')), false, 'no hook in the nested repository');
    assert.equal(existsSync(path.join(lib, '.git', 'commondir')), false, 'no commondir in the nested repository');
    assert.equal(existsSync(path.join(lib, '.git-old')), false, 'the nested .git cannot be renamed away');
    assert.equal(
      readFileSync(path.join(t.ws, 'vendor', 'p', '.git'), 'utf8'),
      pointer,
      'the .git file keeps its target',
    );
    assert.equal(readFileSync(path.join(t.ws, 'store', 'p.git', 'config'), 'utf8'), storeConfig);
    assert.match(text, /\[sandbox\] refused vendor\/(lib|p)\/\.git/);
    // What the command made in the nested .git is kept beside it and reported, as for the workspace's own.
    const kept = readdirSync(lib).filter((n) => n.startsWith('.git.sextant-refused-'));
    assert.equal(kept.length, 1);
    assert.ok(existsSync(path.join(lib, kept[0], 'commondir')));
    // git in the nested repository still works from the box, and its commit reaches the repository.
    const commit = await bashTool.execute(
      {
        command:
          'echo boxed > vendor/lib/new.txt && git -C vendor/lib add new.txt && ' +
          'git -C vendor/lib -c user.name=box -c user.email=box@example.com commit -qm boxed && echo committed',
      },
      t.ctx,
    );
    assert.equal(commit.isError, false, textOf(commit));
    assert.doesNotMatch(textOf(commit), /\[sandbox\]/);
    assert.equal(gitIn(lib, 'log', '--format=%s', '-1').trim(), 'boxed');
    assert.equal(gitIn(lib, 'status', '--porcelain', '--', 'lib.txt', 'new.txt').trim(), '', 'the index is the box’s');
    assert.equal(existsSync(path.join(lib, 'MARKER')), false, 'git on the host ran nothing the box wrote');
  } finally {
    t.done();
  }
});

test('.git as a link: a command that replaces it with a .git of its own gets the link back, its .git kept aside', {
  skip,
}, async () => {
  const t = setup();
  try {
    // As Android's `repo` lays projects out: .git links to the real repository elsewhere.
    rmSync(path.join(t.ws, '.git'), { recursive: true, force: true });
    mkdirSync(path.join(t.ws, '.repo', 'project.git', 'hooks'), { recursive: true });
    writeFileSync(path.join(t.ws, '.repo', 'project.git', 'config'), '[core]\n');
    symlinkSync('.repo/project.git', path.join(t.ws, '.git'));
    const through = await bashTool.execute({ command: 'echo evil > .git/hooks/pre-commit' }, t.ctx);
    assert.match(textOf(through), /Read-only file system/, 'the hooks behind the link are read-only');
    const replaced = await bashTool.execute(
      { command: 'rm .git && mkdir -p .git/hooks && echo evil > .git/hooks/pre-commit && echo planted' },
      t.ctx,
    );
    const text = textOf(replaced);
    assert.match(text, /planted/, 'the command ran to its end (exit 0)');
    assert.equal(readlinkSync(path.join(t.ws, '.git')), '.repo/project.git', 'the link is back');
    assert.equal(existsSync(path.join(t.ws, '.git', 'hooks', 'pre-commit')), false);
    const kept = readdirSync(t.ws).filter((n) => n.startsWith('.git.sextant-refused-'));
    assert.equal(kept.length, 1, 'what the command made is kept, not deleted');
    assert.equal(readFileSync(path.join(t.ws, kept[0], 'hooks', 'pre-commit'), 'utf8'), 'evil\n');
    assert.match(
      text,
      /\[sandbox\] refused \.git: \.git is a link here, and the box keeps it.*link to \.repo\/project\.git is back/,
    );
    // A command that leaves the link alone is not reported.
    const calm = await bashTool.execute({ command: 'cat .git/config' }, t.ctx);
    assert.doesNotMatch(textOf(calm), /\[sandbox\]/);
  } finally {
    t.done();
  }
});

test('the network: a direct connection has no route, the proxy lets only allowed hosts through and logs each', {
  skip,
}, async () => {
  const server = createServer((_req, res) => res.end('hello from the host\n'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const t = setup(['localhost']);
  try {
    // Node's fetch ignores HTTP_PROXY: the box's loopback is its own, so the host's server is not there.
    const direct = await bashTool.execute(
      {
        command:
          `node -e "fetch('http://127.0.0.1:${port}/')` +
          `.then(()=>console.log('REACHED'),e=>{console.log(e.cause?.code);process.exit(1)})"`,
      },
      t.ctx,
    );
    assert.doesNotMatch(textOf(direct), /REACHED/);
    assert.match(textOf(direct), /\[sandbox\] refused .*no route|\[sandbox\] refused the network/);

    const curl = existsSync('/usr/bin/curl');
    if (curl) {
      const allowed = await bashTool.execute({ command: `curl -sS --noproxy '' http://localhost:${port}/` }, t.ctx);
      assert.equal(allowed.isError, false, textOf(allowed));
      assert.match(textOf(allowed), /hello from the host/);
      const refused = await bashTool.execute({ command: `curl -sSf --noproxy '' http://127.0.0.1:${port}/` }, t.ctx);
      assert.equal(refused.isError, true);
      assert.match(
        textOf(refused),
        /\[sandbox\] refused 127\.0\.0\.1:\d+: .*127\.0\.0\.1 is not in sextant\.sandbox\.network\.allowedHosts/,
      );
      assert.equal(t.asked.at(-1)?.labels?.always, 'Allow this host');
      assert.deepEqual(
        t.connections.map((c) => [c.host, c.allowed]),
        [
          ['localhost', true],
          ['127.0.0.1', false],
        ],
      );
    } else console.log('# curl missing: the proxy checks are left out');
  } finally {
    t.done();
    server.close();
  }
});

test('run once outside the box: only after the user approves at the edge', { skip }, async () => {
  const t = setup();
  try {
    t.approveEdge();
    const r = await bashTool.execute({ command: `echo x > ${shellQuote(`${t.outside}/approved.txt`)}` }, t.ctx);
    assert.equal(r.isError, false, textOf(r));
    assert.match(textOf(r), /ran once outside the sandbox \(the user approved\)/);
    assert.equal(readFileSync(path.join(t.outside, 'approved.txt'), 'utf8'), 'x\n');
  } finally {
    t.done();
  }
});

test('background jobs run boxed; bash_output names the refusal; kill_shell takes the box down', { skip }, async () => {
  const t = setup();
  const marker = `sleep ${3000 + Math.floor(Math.random() * 900)}`;
  try {
    const bg = await bashTool.execute(
      { command: 'echo x > .vscode/tasks.json; exit 1', run_in_background: true },
      t.ctx,
    );
    assert.match(textOf(bg), /in the sandbox/);
    const id = /bash_\d+/.exec(textOf(bg))?.[0] ?? '';
    await waitFor(async () => /exit code 1/.test(textOf(await bashOutputTool.execute({ bash_id: id }, t.ctx))));
    const out = textOf(await bashOutputTool.execute({ bash_id: id, offset: 1 }, t.ctx));
    assert.match(out, /\[sandbox\] refused \.vscode\/tasks\.json: \.vscode\/ stays read-only in the sandbox/);
    assert.equal(existsSync(path.join(t.ws, '.vscode')), false);

    const long = await bashTool.execute(
      { command: `echo started; ${marker} & ${marker}`, run_in_background: true },
      t.ctx,
    );
    const longId = /bash_\d+/.exec(textOf(long))?.[0] ?? '';
    await waitFor(async () => /^started$/m.test(textOf(await bashOutputTool.execute({ bash_id: longId }, t.ctx))));
    await waitFor(() => hostProcesses(marker) === 2);
    const killed = await killShellTool.execute({ shell_id: longId }, t.ctx);
    assert.equal(killed.isError, false, textOf(killed));
    await waitFor(() => hostProcesses(marker) === 0);
  } finally {
    t.done();
  }
});
