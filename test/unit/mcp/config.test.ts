// `.mcp.json` and sextant.mcp.servers: Claude Code's shape accepted as written, a bad file reported
// with its line and column and ignored whole (the user's own servers still work), `${VAR}` and
// `${VAR:-default}` expanded, and any edit of a server changing the hash its approval is bound to.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMcpJson, parseUserServers } from '../../../extension/core/mcp/config';
import { expandVariables } from '../../../extension/core/mcp/expand';
import { resolveServer, serverSpec } from '../../../extension/core/mcp/server-spec';
import { mcpToolName } from '../../../extension/core/mcp/tool-name';
import { createManager, none, source, stdioServer, tempDir } from './harness';

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

test('a bad .mcp.json is reported with its position and ignored whole', () => {
  const broken = parseMcpJson('{\n  "mcpServers": {\n    "a": { "command": "x" },\n  }\n  oops\n}');
  assert.equal(Object.keys(broken.servers).length, 0);
  assert.match(broken.problems[0], /^\.mcp\.json:5:3: not valid JSON/);

  const wrong = parseMcpJson(
    '{\n  "mcpServers": {\n    "good": { "command": "x" },\n    "bad": { "args": ["y"] }\n  }\n}',
  );
  assert.equal(Object.keys(wrong.servers).length, 0, 'the good server is not started either');
  assert.match(wrong.problems[0], /^\.mcp\.json:4:\d+: "mcpServers\.bad"/);
  assert.match(wrong.problems[0], /ignored/);

  const name = parseMcpJson('{"mcpServers": {"has space": {"command": "x"}}}');
  assert.match(name.problems[0], /letters, digits/);
  const user = parseUserServers({ s: { url: 'no type' } });
  assert.match(user.problems[0], /^sextant\.mcp\.servers: "s"/);
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
