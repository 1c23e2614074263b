// `.mcp.json` and sextant.mcp.servers: Claude Code's shape accepted as written, a file that is not JSON
// reported with its line and column and ignored whole (the user's own servers still work), one server
// we cannot read — or a key we do not know — reported and left out alone (its neighbours load), `${VAR}` and
// `${VAR:-default}` expanded, and any edit of a server changing the hash its approval is bound to.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMcpJson, parseUserServers } from '../../../extension/core/mcp/config';
import { expandVariables } from '../../../extension/core/mcp/expand';
import { resolveServer, serverSpec } from '../../../extension/core/mcp/server-spec';
import { mcpToolName } from '../../../extension/core/mcp/tool-name';
import { createManager, none, shown, source, stdioServer, tempDir } from './harness';

const CLAUDE_FILE = `{
  // comments are fine
  "mcpServers": {
    "github": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"],
                "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "\${GITHUB_TOKEN}" } },
    "stripe": { "type": "http", "url": "https://mcp.stripe.com",
                "headers": { "Authorization": "Bearer \${STRIPE_KEY}" } },
    "old": { "type": "sse", "url": "https://example.com/sse" }
  }
}`;

test("Claude Code's .mcp.json is read as written", () => {
  const r = parseMcpJson(CLAUDE_FILE);
  assert.deepEqual(r.problems, []);
  assert.deepEqual(Object.keys(r.servers), ['github', 'stripe', 'old']);
  const spec = serverSpec('github', 'workspace', r.servers.github);
  assert.deepEqual(spec.readsEnv, ['GITHUB_TOKEN']);
  const resolved = resolveServer(spec, { GITHUB_TOKEN: 'ghp_x' });
  assert.equal(resolved.kind === 'stdio' && resolved.env.GITHUB_PERSONAL_ACCESS_TOKEN, 'ghp_x');
});

test('a .mcp.json that is not JSON is reported with its position and ignored whole', () => {
  const broken = parseMcpJson('{\n  "mcpServers": {\n    "a": { "command": "x" },\n  }\n  oops\n}');
  assert.equal(Object.keys(broken.servers).length, 0);
  assert.match(broken.problems[0], /^\.mcp\.json:5:3: not valid JSON/);
  const notObject = parseMcpJson('{"mcpServers": ["x"]}');
  assert.equal(Object.keys(notObject.servers).length, 0);
  assert.match(notObject.problems[0], /the file was ignored/);
});

test('one server we cannot read is left out alone: its neighbours load', () => {
  const wrong = parseMcpJson(
    '{\n  "mcpServers": {\n    "good": { "command": "x" },\n    "bad": { "args": ["y"] }\n  }\n}',
  );
  assert.deepEqual(Object.keys(wrong.servers), ['good']);
  assert.equal(wrong.problems.length, 1);
  assert.match(wrong.problems[0], /^\.mcp\.json:4:\d+: "bad"/);
  assert.match(wrong.problems[0], /left out/);

  const name = parseMcpJson('{"mcpServers": {"has space": {"command": "x"}, "ok": {"command": "y"}}}');
  assert.deepEqual(Object.keys(name.servers), ['ok']);
  assert.match(name.problems[0], /letters, digits/);
  const user = parseUserServers({ s: { url: 'no type' }, t: { command: 'z' } });
  assert.deepEqual(Object.keys(user.servers), ['t']);
  assert.match(user.problems[0], /^sextant\.mcp\.servers: "s"/);
});

test('keys other clients write are ignored and named; a dotted name and "disabled": true are understood', () => {
  const file = `{
  "mcpServers": {
    "github.com": { "command": "npx", "args": ["gh-mcp"], "alwaysAllow": ["list"], "disabled": false },
    "remote": { "type": "http", "url": "https://example.com/mcp", "headersHelper": "get-headers.sh",
                "oauth": { "clientId": "x" } },
    "off": { "command": "old-server", "disabled": true }
  }
}`;
  const r = parseMcpJson(file);
  assert.deepEqual(Object.keys(r.servers), ['github.com', 'remote']);
  assert.deepEqual(r.servers['github.com'], { command: 'npx', args: ['gh-mcp'] }, 'unknown keys are dropped');
  assert.deepEqual(r.servers.remote, { type: 'http', url: 'https://example.com/mcp' });
  const said = r.problems.join('\n');
  for (const key of ['github.com.alwaysAllow', 'github.com.disabled', 'remote.headersHelper', 'remote.oauth'])
    assert.ok(said.includes(`"${key}" is not a setting Sextant knows; it was ignored`), said);
  assert.match(said, /^\.mcp\.json:3:\d+: "github\.com\.alwaysAllow"/m, 'each problem says where');
  assert.match(said, /"off" says "disabled": true; it was not loaded/);
  // A name that needed changing gets a hash, so it cannot fall under another server's rules.
  assert.match(mcpToolName('github.com', 'list'), /^mcp__github_com_[0-9a-f]{8}__list$/);
});

test('a dotted name beside the name it sanitises to: both load, under prefixes that never overlap', () => {
  const { manager } = createManager();
  manager.setSources({
    workspace: parseMcpJson('{"mcpServers": {"a.b": {"command": "x"}, "a_b": {"command": "y"}}}'),
    user: none,
  });
  assert.deepEqual(manager.names(), ['a.b', 'a_b']);
  const [dotted, plain] = [mcpToolName('a.b', 't'), mcpToolName('a_b', 't')];
  assert.notEqual(dotted, plain);
  assert.ok(!dotted.startsWith('mcp__a_b__'), `${dotted} would fall under mcp__a_b__* rules`);
});

test('a .mcp.json with an unknown key: its other servers still start and work', async () => {
  const dir = tempDir();
  const server = await stdioServer(dir);
  const text = JSON.stringify({
    mcpServers: { newer: { ...server, alwaysAllow: ['echo'] }, plain: server },
  });
  const workspace = parseMcpJson(text);
  const { manager } = createManager();
  manager.setSources({ workspace, user: none });
  assert.match(manager.problems().join('\n'), /"newer\.alwaysAllow" is not a setting Sextant knows/);
  // Each still waits for its own approval; approved, both run.
  assert.deepEqual(
    manager.views().map((v) => v.state),
    ['needs_approval', 'needs_approval'],
  );
  await manager.decide('plain', 'approve', shown(manager, 'plain'));
  await manager.decide('newer', 'approve', shown(manager, 'newer'));
  await manager.prepare();
  assert.deepEqual(
    manager.views().map((v) => [v.name, v.state]),
    [
      ['newer', 'connected'],
      ['plain', 'connected'],
    ],
  );
  await manager.dispose();
});

test('a bad .mcp.json breaks nothing else: the user servers still start and work', async () => {
  const dir = tempDir();
  const { manager } = createManager();
  const bad = parseMcpJson('{ "mcpServers": [ }');
  manager.setSources({ workspace: bad, user: source({ mine: await stdioServer(dir) }) });
  assert.match(manager.problems()[0], /\.mcp\.json:1:\d+/);
  await manager.prepare();
  assert.equal(manager.views().length, 1);
  assert.equal(manager.views()[0].state, 'connected');
  await manager.dispose();
  manager.setSources({ workspace: none, user: none });
});

test('${VAR} and ${VAR:-default}', () => {
  const env = { A: 'a', EMPTY: '' };
  assert.deepEqual(expandVariables('${A}-${B:-b}-${C}-${EMPTY:-e}', env), {
    value: 'a-b--e',
    used: ['A', 'B', 'C', 'EMPTY'],
    missing: ['C'],
  });
  assert.equal(expandVariables('$A ${', env).value, '$A ${');
  // Set to "" is set: not reported as missing (a default still applies, as in the shell's `:-`).
  assert.deepEqual(expandVariables('[${EMPTY}]', env), { value: '[]', used: ['EMPTY'], missing: [] });
});

test('any edit of a server changes the hash its approval is bound to', () => {
  const base = { command: 'node', args: ['s.js'], env: { K: 'v' } };
  const h = serverSpec('s', 'workspace', base).configHash;
  assert.equal(serverSpec('s', 'workspace', { env: { K: 'v' }, args: ['s.js'], command: 'node' }).configHash, h);
  for (const changed of [
    { ...base, command: 'nodejs' },
    { ...base, args: ['s.js', '--x'] },
    { ...base, env: { K: 'w' } },
    { ...base, env: { K: 'v', L: '' } },
  ])
    assert.notEqual(serverSpec('s', 'workspace', changed).configHash, h);
  assert.notEqual(serverSpec('s', 'user', base).configHash, h);
});

test('tool names: mcp__<server>__<tool>, safe characters, at most 64', () => {
  assert.equal(mcpToolName('github', 'create_issue'), 'mcp__github__create_issue');
  assert.equal(mcpToolName('a', 'b.c d'), 'mcp__a__b_c_d');
  const long = mcpToolName('server', 'x'.repeat(80));
  assert.equal(long.length, 64);
  assert.notEqual(long, mcpToolName('server', `${'x'.repeat(79)}y`));
});
