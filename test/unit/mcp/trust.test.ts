// Trust before start, against our stdio test server as a real child process: a workspace server
// never starts (its marker file proves it) before the workspace is trusted and the user approved it;
// an approval is bound to the configuration's hash; user servers start on first use; a changed tool
// list is withheld from the model until approved; a stdio server gets only the environment its
// configuration names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createManager, none, shown, source, started, stdioServer, tempDir, until } from './harness';

const names = (tools: Array<{ name: string }>) => tools.map((t) => t.name).sort();

test('a workspace server is never started before approval, nor in an untrusted workspace', async () => {
  const dir = tempDir();
  const { manager, trust } = createManager();
  trust.value = false;
  manager.setSources({ workspace: source({ demo: await stdioServer(dir) }), user: none });
  await manager.prepare();
  assert.equal(manager.views()[0].state, 'untrusted');
  assert.deepEqual(manager.tools('agent'), []);

  trust.value = true;
  await manager.prepare();
  const view = manager.views()[0];
  assert.equal(view.state, 'needs_approval');
  assert.equal(view.approval?.reason, 'new');
  assert.match(view.commandLine ?? '', /stdio-server-cli|mcp-stdio-server/);
  assert.deepEqual(view.envNames, ['MARKER_DIR', 'NOTES_DIR']);
  assert.deepEqual(started(dir), [], 'no process before approval');

  await manager.decide('demo', 'deny', shown(manager, 'demo'));
  await manager.prepare();
  assert.equal(manager.views()[0].state, 'denied');
  assert.deepEqual(started(dir), [], 'no process after a denial');

  await manager.reapprove('demo');
  await manager.decide('demo', 'approve', shown(manager, 'demo'));
  await until(() => manager.views()[0].state === 'connected', 'connected');
  assert.equal(started(dir).length, 1, 'started once approved');
  assert.ok(names(manager.tools('agent')).includes('mcp__demo__echo'));
  await manager.dispose();
});

test('an approved server whose configuration changes asks again and is stopped', async () => {
  const dir = tempDir();
  const { manager } = createManager();
  const config = await stdioServer(dir);
  manager.setSources({ workspace: source({ demo: config }), user: none });
  await manager.decide('demo', 'approve', shown(manager, 'demo'));
  await until(() => manager.views()[0].state === 'connected', 'connected');
  const pid = started(dir)[0].pid;

  manager.setSources({
    workspace: source({ demo: { ...config, args: [...(config.args ?? []), '--extra'] } }),
    user: none,
  });
  const view = manager.views()[0];
  assert.equal(view.state, 'needs_approval');
  assert.equal(view.approval?.reason, 'config_changed');
  assert.deepEqual(manager.tools('agent'), []);
  await until(() => {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  }, 'the old process to exit');
  await manager.prepare();
  assert.equal(started(dir).length, 1, 'the changed server did not start before a new approval');
  await manager.dispose();
});

test('a user server starts on first use, not when its configuration is read', async () => {
  const dir = tempDir();
  const { manager } = createManager();
  manager.setSources({ workspace: none, user: source({ mine: await stdioServer(dir) }) });
  assert.equal(manager.views()[0].state, 'stopped');
  assert.deepEqual(started(dir), []);
  await manager.prepare();
  assert.equal(manager.views()[0].state, 'connected');
  assert.equal(started(dir).length, 1);
  await manager.dispose();
});

test('a stdio server gets only what its configuration names, over a base without keys', async () => {
  const dir = tempDir();
  const env = { ...process.env, OPENAI_API_KEY: 'sk-secret', MY_TOKEN: 't', FOO: 'bar', PATH: process.env.PATH };
  const { manager } = createManager({}, env);
  manager.setSources({
    workspace: none,
    user: source({ mine: await stdioServer(dir, { GIVEN: '${FOO}', DEFAULTED: '${NOPE:-x}' }) }),
  });
  await manager.prepare();
  const seen = started(dir)[0].env;
  for (const name of ['GIVEN', 'DEFAULTED', 'MARKER_DIR', 'PATH']) assert.ok(seen.includes(name), name);
  for (const name of ['OPENAI_API_KEY', 'MY_TOKEN', 'FOO']) assert.ok(!seen.includes(name), name);
  await manager.dispose();
});

test('a changed tool list asks again with a diff; nothing of it reaches the model before approval', async () => {
  const dir = tempDir();
  const { manager } = createManager();
  manager.setSources({ workspace: none, user: source({ demo: await stdioServer(dir) }) });
  await manager.prepare();
  const before = names(manager.tools('agent'));
  assert.ok(!before.includes('mcp__demo__surprise'));
  const grow = manager.tools('agent').find((t) => t.name === 'mcp__demo__grow');
  assert.ok(grow);
  const ctx = { signal: new AbortController().signal, progress() {}, supportsImages: false } as never;
  await grow.execute({}, ctx);
  await until(() => manager.views()[0].state === 'needs_approval', 'the change to be seen');
  const view = manager.views()[0];
  assert.equal(view.approval?.reason, 'tools_changed');
  assert.deepEqual(
    view.approval?.added.map((t) => t.name),
    ['surprise'],
  );
  assert.equal(view.approval?.added[0].description, 'A tool that was not there before.');
  assert.deepEqual(names(manager.tools('agent')), before, 'the new tool is withheld');

  // A rug pull: echo's description changes. The changed echo is withheld too.
  await manager.decide('demo', 'approve', shown(manager, 'demo'));
  assert.ok(names(manager.tools('agent')).includes('mcp__demo__surprise'));
  const reword = manager.tools('agent').find((t) => t.name === 'mcp__demo__reword');
  await reword?.execute({}, ctx);
  await until(() => manager.views()[0].approval?.changed.length === 1, 'the reworded tool');
  assert.equal(manager.views()[0].approval?.changed[0].name, 'echo');
  assert.match(manager.views()[0].approval?.changed[0].description ?? '', /SSH keys/);
  assert.ok(!names(manager.tools('agent')).includes('mcp__demo__echo'), 'changed echo is withheld');
  const stale = await manager.callTool('demo', 'echo', { text: 'x' }, ctx);
  assert.equal(stale.isError, true, 'a call to the changed tool does not run');

  await manager.decide('demo', 'deny', shown(manager, 'demo'));
  assert.equal(manager.views()[0].state, 'disabled');
  assert.deepEqual(manager.tools('agent'), []);
  await manager.dispose();
});

test('Chat and Plan get only read-only tools; Research none', async () => {
  const dir = tempDir();
  const { manager } = createManager();
  manager.setSources({ workspace: none, user: source({ demo: await stdioServer(dir) }) });
  await manager.prepare();
  const chat = names(manager.tools('chat'));
  assert.ok(chat.includes('mcp__demo__echo'));
  assert.ok(!chat.includes('mcp__demo__write_note'));
  assert.deepEqual(names(manager.tools('plan')), chat);
  assert.deepEqual(manager.tools('research'), []);
  assert.ok(names(manager.tools('agent')).includes('mcp__demo__write_note'));
  await manager.dispose();
});
