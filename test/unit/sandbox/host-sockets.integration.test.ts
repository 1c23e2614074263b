// The host's unix sockets, for real: a network namespace does not cover sockets in the file system,
// so a boxed command could reach a Docker daemon, the session bus or an agent by path. Here a server
// listens on a unix socket in a folder standing for $XDG_RUNTIME_DIR (and one named by DOCKER_HOST),
// outside /tmp (the box's /tmp is its own anyway): the boxed connect must fail, the refusal must name
// the rule, and the variables that point at sockets and agents must not reach the command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import * as path from 'node:path';
import { bashTool } from '../../../extension/core/tools/bash';
import { createToolSessionState, disposeToolSession } from '../../../extension/core/tools/registry';
import { createSandbox } from '../../../extension/platform/sandbox/create-sandbox';
import { createNodePorts, makeContext, textOf } from '../../fixtures/node-ports';
import { bubblewrapSkip } from '../../fixtures/box-test';

const skip = bubblewrapSkip('host sockets integration');

/** A server on a unix socket that answers every connection with a word, so a reached socket shows. */
async function listen(socket: string): Promise<Server> {
  const server = createServer((c) => c.end('HOST-SOCKET-REACHED\n'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, resolve);
  });
  return server;
}

test('host unix sockets: the runtime folder and DOCKER_HOST are empty in the box; socket variables are dropped', {
  skip,
}, async () => {
  // Short names: a socket path must fit in 108 bytes wherever the clone lives.
  const base = path.join(process.cwd(), 'test-results', `sk-${process.pid}`);
  const ws = path.join(base, 'ws');
  const home = path.join(base, 'h');
  const runtime = path.join(base, 'run');
  const docker = path.join(base, 'd');
  for (const d of [ws, home, runtime, docker]) mkdirSync(d, { recursive: true });
  const real = (p: string) => realpathSync(p);
  const busSocket = path.join(real(runtime), 'bus');
  const dockerSocket = path.join(real(docker), 'docker.sock');
  const servers = [await listen(busSocket), await listen(dockerSocket)];
  const sandbox = createSandbox({
    settings: () => ({ mode: 'box', allowedHosts: [], extraWriteRoots: [] }),
    workspaceFolders: () => [real(ws)],
    home: real(home),
    stateRoot: path.join(real(base), 'state'),
    hostEnv: { XDG_RUNTIME_DIR: real(runtime), DOCKER_HOST: `unix://${dockerSocket}` },
  });
  const ports = createNodePorts({ root: real(ws) });
  ports.approval = { request: async () => ({ decision: 'deny' }) };
  ports.sandbox = sandbox;
  ports.childEnv = () => ({
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: real(home),
    LANG: 'C',
    DBUS_SESSION_BUS_ADDRESS: `unix:path=${busSocket}`,
    DOCKER_HOST: `unix://${dockerSocket}`,
    SSH_AUTH_SOCK: busSocket,
    VSCODE_GIT_IPC_HANDLE: busSocket,
    GIT_ASKPASS: '/usr/bin/true',
    DISPLAY: ':0',
    WAYLAND_DISPLAY: 'wayland-0',
  });
  const session = createToolSessionState('sockets');
  const ctx = makeContext(ports, { session, callId: 'call-1' });
  const connect = (socket: string) =>
    `node -e "require('net').connect(process.argv[1]).on('data',d=>process.stdout.write(String(d)))` +
    `.on('error',e=>{console.log(e.code+' '+e.message);process.exit(1)})" '${socket}'`;
  try {
    // The servers are there on the host: the same connect outside the box reaches them.
    const bus = await bashTool.execute({ command: connect(busSocket) }, ctx);
    assert.doesNotMatch(textOf(bus), /HOST-SOCKET-REACHED/);
    assert.match(textOf(bus), /ENOENT/);
    assert.match(textOf(bus), /\[sandbox\] refused .*run\/bus: .*is empty in the sandbox: it holds the host's sockets/);
    const dock = await bashTool.execute({ command: connect(dockerSocket) }, ctx);
    assert.doesNotMatch(textOf(dock), /HOST-SOCKET-REACHED/);

    const env = await bashTool.execute(
      {
        command:
          'for v in DBUS_SESSION_BUS_ADDRESS DOCKER_HOST SSH_AUTH_SOCK VSCODE_GIT_IPC_HANDLE GIT_ASKPASS DISPLAY ' +
          'WAYLAND_DISPLAY; do echo "$v=${!v-unset}"; done; ls -A /run | wc -l',
      },
      ctx,
    );
    const text = textOf(env);
    for (const v of ['DBUS_SESSION_BUS_ADDRESS', 'DOCKER_HOST', 'SSH_AUTH_SOCK', 'VSCODE_GIT_IPC_HANDLE'])
      assert.match(text, new RegExp(`^${v}=unset$`, 'm'), v);
    for (const v of ['GIT_ASKPASS', 'DISPLAY', 'WAYLAND_DISPLAY'])
      assert.match(text, new RegExp(`^${v}=unset$`, 'm'), v);
    assert.match(text, /^0$/m, "/run is empty in the box (the host's docker.sock, dbus, nscd …)");
  } finally {
    disposeToolSession(session);
    sandbox.dispose();
    for (const s of servers) s.close();
    rmSync(base, { recursive: true, force: true });
  }
});
