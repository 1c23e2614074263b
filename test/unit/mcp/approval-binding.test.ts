// Issue 35 item 6, through the real manager and our stdio test server as a real child process: an
// approval counts only for the configuration and tool list its card showed (a server that changes
// between the card and the click gets nothing approved, and a fresh card is shown); and a server's
// tool names never fall under another server's `mcp__<server>__*` rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPolicy, decide } from '../../../extension/core/permissions';
import { mcpServerKey, mcpServerPrefix, mcpToolName, serverNameClashes } from '../../../extension/core/mcp/tool-name';
import { createManager, none, shown, source, started, stdioServer, tempDir, until } from './harness';

const names = (tools: Array<{ name: string }>) => tools.map((t) => t.name).sort();
const ctx = { signal: new AbortController().signal, progress() {}, supportsImages: false } as never;

test('issue 35 item 6: an approval of a changed tool list approves only the list its card showed', async (t) => {
  const dir = tempDir();
  const { manager } = createManager();
  // Stopped also when an assertion fails, so a failure cannot leave servers running.
  t.after(() => manager.dispose());
  manager.setSources({ workspace: none, user: source({ demo: await stdioServer(dir) }) });
  await manager.prepare();
  await manager
    .tools('agent')
    .find((t) => t.name === 'mcp__demo__grow')
    ?.execute({}, ctx);
  await until(() => manager.views()[0].approval?.added.length === 1, 'the new tool to be seen');
  const card = shown(manager, 'demo');
  assert.ok(card.toolsHash, 'a changed-tools card carries the tool list hash');

  // Between the card and the click the server changes echo's description (a rug pull).
  await manager
    .tools('agent')
    .find((t) => t.name === 'mcp__demo__reword')
    ?.execute({}, ctx);
  await until(() => manager.views()[0].approval?.changed.length === 1, 'the reworded tool to be seen');

  assert.equal(await manager.decide('demo', 'approve', card), 'stale');
  const after = manager.views()[0];
  assert.equal(after.state, 'needs_approval', 'a fresh card is shown');
  assert.notEqual(after.approval?.toolsHash, card.toolsHash);
  const tools = names(manager.tools('agent'));
  assert.ok(!tools.includes('mcp__demo__surprise'), 'the tool on the stale card is not approved');
  assert.ok(!tools.includes('mcp__demo__echo'), 'the reworded tool the user never saw is not approved');

  // The fresh card's answer approves what it shows.
  assert.equal(await manager.decide('demo', 'approve', shown(manager, 'demo')), 'done');
  assert.ok(names(manager.tools('agent')).includes('mcp__demo__surprise'));
  assert.ok(names(manager.tools('agent')).includes('mcp__demo__echo'));
});

test('issue 35 item 6: a workspace server is approved only for the configuration its card showed', async (t) => {
  const dir = tempDir();
  const { manager } = createManager();
  // Stopped also when an assertion fails, so a failure cannot leave servers running.
  t.after(() => manager.dispose());
  const config = await stdioServer(dir);
  manager.setSources({ workspace: source({ demo: config }), user: none });
  const card = shown(manager, 'demo');
  assert.ok(card.configHash);

  // The .mcp.json changes between the card and the click.
  manager.setSources({
    workspace: source({ demo: { ...config, args: [...(config.args ?? []), '--extra'] } }),
    user: none,
  });
  assert.equal(await manager.decide('demo', 'approve', card), 'stale');
  await manager.prepare();
  assert.equal(manager.views()[0].state, 'needs_approval');
  assert.notEqual(shown(manager, 'demo').configHash, card.configHash);
  assert.deepEqual(started(dir), [], 'the changed server did not start on the stale answer');

  assert.equal(await manager.decide('demo', 'approve', shown(manager, 'demo')), 'done');
  await until(() => manager.views()[0].state === 'connected', 'connected');
  assert.equal(started(dir).length, 1);
});

test('issue 35 item 6: a denial holds even for a card drawn before a change (it never loosens)', async (t) => {
  const dir = tempDir();
  const { manager } = createManager();
  // Stopped also when an assertion fails, so a failure cannot leave servers running.
  t.after(() => manager.dispose());
  const config = await stdioServer(dir);
  manager.setSources({ workspace: source({ demo: config }), user: none });
  const card = shown(manager, 'demo');
  manager.setSources({ workspace: source({ demo: { ...config, args: ['--other'] } }), user: none });
  assert.equal(await manager.decide('demo', 'deny', card), 'done');
  await manager.prepare();
  assert.equal(manager.views()[0].state, 'denied');
  assert.deepEqual(started(dir), []);
});

test('issue 35 item 6: a server named `github.` is not covered by a rule for `github`', async (t) => {
  const dir = tempDir();
  const { manager } = createManager();
  // Stopped also when an assertion fails, so a failure cannot leave servers running.
  t.after(() => manager.dispose());
  const config = await stdioServer(dir);
  manager.setSources({ workspace: none, user: source({ github: config, 'github.': config }) });
  await manager.prepare();
  assert.deepEqual(manager.problems(), []);
  const dotted = names(manager.tools('agent')).filter((n) => !n.startsWith('mcp__github__'));
  assert.ok(dotted.length > 0, 'the tools of `github.` have a prefix of their own');
  const writeNote = dotted.find((n) => n.endsWith('__write_note'));
  assert.ok(writeNote);
  assert.ok(writeNote.startsWith(mcpServerPrefix('github.')));

  const policy = createPolicy({
    user: { allow: ['mcp__github__*'] },
    workspaceFolders: ['/ws'],
    home: '/home/u',
    tools: [],
  });
  const call = (tool: string) => ({ tool, kind: 'execute' as const, input: { name: 'n', text: 't' } });
  assert.equal(decide(call('mcp__github__write_note'), policy).decision, 'allow');
  assert.equal(decide(call(writeNote), policy).decision, 'ask', `${writeNote} must not fall under mcp__github__*`);
});

test('issue 35 item 6: two servers whose tool names would still collide are refused, with a clear error', async (t) => {
  const dir = tempDir();
  const { manager } = createManager();
  // Stopped also when an assertion fails, so a failure cannot leave servers running.
  t.after(() => manager.dispose());
  const config = await stdioServer(dir);
  // Rules ignore case, so GitHub and github would share mcp__github__*; and a name written like the
  // escaped form of another is the same prefix.
  manager.setSources({
    workspace: none,
    user: source({
      GitHub: config,
      github: config,
      'my.server': config,
      [mcpServerKey('my.server')]: config,
      ok: config,
    }),
  });
  assert.equal(manager.problems().length, 2, manager.problems().join('\n'));
  assert.match(manager.problems()[0], /"GitHub" and "github" would give their tools the same names/);
  assert.match(manager.problems()[1], /"my\.server" and "my_server_[0-9a-f]{8}".*Rename one of them/);
  assert.deepEqual(manager.names(), ['ok']);
  await manager.prepare();
  assert.equal(started(dir).length, 1, 'only the server without a clash started');
});

test('issue 35 item 6: no server prefix covers another server’s tools (names that needed sanitising)', () => {
  const servers = [
    'github',
    'github.',
    'github_',
    '_github',
    'github__x',
    'github_x',
    'git hub',
    'git.hub',
    'git_hub',
    'a__b',
    'a',
    'ünïcode',
    'x'.repeat(40),
    `${'x'.repeat(40)}y`,
    '...',
  ];
  assert.deepEqual(serverNameClashes(servers), []);
  for (const s of servers) {
    const tool = mcpToolName(s, 'some_tool_with_a_rather_long_name_that_is_cut_somewhere');
    assert.ok(tool.length <= 64, tool);
    assert.match(tool, /^[A-Za-z0-9_-]+$/);
    assert.ok(tool.startsWith(mcpServerPrefix(s)), `${tool} keeps its whole prefix`);
    for (const other of servers) {
      if (other === s) continue;
      const prefix = mcpServerPrefix(other).toLowerCase();
      assert.ok(!tool.toLowerCase().startsWith(prefix), `${prefix}* must not cover ${tool} (server ${s})`);
    }
  }
  // Names that need nothing keep Claude Code's form.
  assert.equal(mcpToolName('github', 'create_issue'), 'mcp__github__create_issue');
  assert.equal(mcpToolName('my-server_2', 'x'), 'mcp__my-server_2__x');
});
