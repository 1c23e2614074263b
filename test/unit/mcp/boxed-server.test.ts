// A stdio MCP server runs in the same OS box as commands (bubblewrap here): it starts, lists its tools
// and answers — its protocol on stdout is untouched by the box — while a write outside the workspace
// fails inside the box and nothing appears on the host. Skipped with the reason where no box works.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { bashWord, boxedSpawner } from '../../../extension/core/mcp/boxed-spawn';
import { spawnServer } from '../../../extension/core/mcp/spawn';
import { createSandbox } from '../../../extension/platform/sandbox/create-sandbox';
import { detectBackend } from '../../../extension/platform/sandbox/detect';
import { createNodePorts, makeContext, textOf } from '../../fixtures/node-ports';
import { createManager, source, stdioServer, stdioServerFile } from './harness';

const detected = detectBackend();
const skip =
  detected.ok && detected.backend === 'bubblewrap'
    ? false
    : `no bubblewrap box here: ${detected.ok ? detected.backend : detected.reason}`;
if (skip) console.log(`# boxed MCP server test skipped: ${skip}`);

test('bashWord keeps every argument one word, whatever it holds', () => {
  assert.equal(bashWord('plain-arg_1.js'), 'plain-arg_1.js');
  assert.equal(bashWord("it's $(touch x) `y`; z"), `'it'\\''s $(touch x) \`y\`; z'`);
  assert.equal(bashWord(''), "''");
});

test('a stdio MCP server runs boxed: its tools answer, a write outside the workspace is refused', {
  skip,
}, async () => {
  const base = path.join(process.cwd(), 'test-results', `mcp-box-${process.pid}`);
  const ws = path.join(base, 'ws');
  // Not under /tmp (the box's /tmp is its own, so a write there would land in the chat's temp, wherever
  // the checkout is): /var/tmp, which every user may write and the box keeps read-only.
  const outside = existsSync('/var/tmp') ? mkdtempSync('/var/tmp/sextant-mcp-outside-') : path.join(base, 'outside');
  mkdirSync(ws, { recursive: true });
  mkdirSync(outside, { recursive: true });
  const real = { ws: realpathSync(ws), outside: realpathSync(outside) };
  const sandbox = createSandbox({
    settings: () => ({ mode: 'box', allowedHosts: [], extraWriteRoots: [] }),
    workspaceFolders: () => [real.ws],
    home: path.join(realpathSync(base), 'home'),
    stateRoot: path.join(realpathSync(base), 'state'),
  });
  const boxed: string[] = [];
  const t = createManager({
    spawn: boxedSpawner({
      sandbox: () => sandbox,
      unboxed: (r) => {
        boxed.push(`unboxed ${r.command}`);
        return spawnServer(r);
      },
      cwd: () => real.ws,
    }),
  });
  try {
    // Markers in the workspace (writable in the box); notes outside it (read-only in the box). The server's
    // file is copied into the workspace: the checkout may be under /tmp, which the box does not show.
    const server = await stdioServer(real.ws, { NOTES_DIR: real.outside });
    const inWorkspace = path.join(real.ws, 'server.cjs');
    copyFileSync(server.args?.[0] ?? '', inWorkspace);
    server.args = [inWorkspace];
    t.manager.setSources({ workspace: { servers: {}, problems: [] }, user: source({ demo: server }) });
    await t.manager.prepare();
    assert.deepEqual(boxed, [], 'the server was started without the box');
    const tools = t.manager.tools('agent');
    const echo = tools.find((x) => x.name === 'mcp__demo__echo');
    const write = tools.find((x) => x.name === 'mcp__demo__write_note');
    assert.ok(echo && write, `tools: ${tools.map((x) => x.name).join(', ')}`);
    const ctx = makeContext(createNodePorts({ root: real.ws }));
    assert.equal(textOf(await echo.execute({ text: 'from the box' }, ctx)), 'echo: from the box');
    const refused = await write.execute({ name: 'escape.txt', text: 'x' }, ctx);
    assert.equal(refused.isError, true, textOf(refused));
    assert.ok(!existsSync(path.join(real.outside, 'escape.txt')), 'the boxed server wrote outside the workspace');
    // The server did start (its marker is in the workspace, which the box may write).
    assert.match(readFileSync(path.join(real.ws, 'started'), 'utf8'), /"pid"/);
    // A long-lived box leaves no stand-ins (empty folders named AGENTS.md, .npmrc, …) in the workspace.
    for (const name of ['AGENTS.md', 'CLAUDE.md', '.npmrc', '.envrc', '.vscode'])
      assert.ok(!existsSync(path.join(real.ws, name)), `${name} appeared in the workspace while the server runs`);
  } finally {
    await t.manager.dispose();
    sandbox.dispose();
    rmSync(base, { recursive: true, force: true });
    rmSync(real.outside, { recursive: true, force: true });
  }
});

test("a stdio MCP server installed in the host's /tmp: the start fails saying the box does not show it", {
  skip,
}, async () => {
  const base = path.join(process.cwd(), 'test-results', `mcp-tmp-${process.pid}`);
  const ws = path.join(base, 'ws');
  mkdirSync(ws, { recursive: true });
  // /tmp itself, not os.tmpdir(): this is about the host's /tmp, which the box replaces.
  const installed = realpathSync(mkdtempSync('/tmp/sextant-mcp-server-'));
  const file = path.join(installed, 'server.cjs');
  copyFileSync(await stdioServerFile(), file);
  const sandbox = createSandbox({
    settings: () => ({ mode: 'box', allowedHosts: [], extraWriteRoots: [] }),
    workspaceFolders: () => [realpathSync(ws)],
    home: path.join(realpathSync(base), 'home'),
    stateRoot: path.join(realpathSync(base), 'state'),
  });
  const spawner = boxedSpawner({
    sandbox: () => sandbox,
    unboxed: () => assert.fail('the server must not start without the box'),
    cwd: () => realpathSync(ws),
  });
  try {
    await assert.rejects(
      async () => spawner({ command: process.execPath, args: [file], env: {} }),
      (e: Error) =>
        e.message.includes(`${file} is in the host's /tmp, which the sandbox does not show`) &&
        e.message.includes(`add ${installed} to sextant.sandbox.extraWriteRoots`),
    );
  } finally {
    sandbox.dispose();
    rmSync(base, { recursive: true, force: true });
    rmSync(installed, { recursive: true, force: true });
  }
});
