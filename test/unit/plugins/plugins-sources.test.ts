// Where plugins come from and what a workspace may suggest: a source as typed (folder, git URL, GitHub
// `owner/repo`), an unreachable repository's clear error, a plugin folder added directly, a marketplace
// entry standing for a missing plugin.json, `${CLAUDE_PLUGIN_ROOT}` quoted for the shell, and a
// workspace's `.claude/settings.json` suggesting (never installing) marketplaces and plugins.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { classifySource } from '../../../extension/core/plugins/git';
import { parseMarketplace } from '../../../extension/core/plugins/marketplace';
import { expandRootInShell } from '../../../extension/core/plugins/plugin-root';
import { pluginSuggestions } from '../../../extension/core/plugins/suggestions';
import { gitUrl, world, write } from './fixture';

test('a source as typed: a folder, a git URL, or GitHub owner/repo', () => {
  const none = () => false;
  assert.deepEqual(classifySource('acme/tools', none), { kind: 'git', url: 'https://github.com/acme/tools.git' });
  assert.deepEqual(classifySource('https://git.example.com/t.git', none), {
    kind: 'git',
    url: 'https://git.example.com/t.git',
  });
  assert.deepEqual(classifySource('git@github.com:acme/tools.git', none), {
    kind: 'git',
    url: 'git@github.com:acme/tools.git',
  });
  assert.deepEqual(classifySource('./market', none), { kind: 'folder', path: './market' });
  assert.deepEqual(classifySource('/abs/market', none), { kind: 'folder', path: '/abs/market' });
  // A relative folder that exists is a folder, even when it looks like owner/repo.
  assert.deepEqual(
    classifySource('acme/tools', () => true),
    { kind: 'folder', path: 'acme/tools' },
  );
});

test('an unreachable repository is a clear error naming it, and nothing is added', async () => {
  const w = await world();
  const url = gitUrl(join(w.base, 'no such repo'));
  await assert.rejects(w.manager.addMarketplace(url), (err: Error) => {
    assert.match(err.message, /^could not clone file:\/\/.*no such repo: /);
    return true;
  });
  assert.deepEqual(w.manager.marketplaces.list(), []);
});

test('a marketplace.json with a wrong field is reported at its line and column', () => {
  const text = '{\n  "name": "team",\n  "owner": {"name": "T"},\n  "plugins": [{"name": "x", "source": 3}]\n}\n';
  const read = parseMarketplace(text, 'team/.claude-plugin/marketplace.json');
  assert.equal(read.ok, false);
  assert.match(read.ok ? '' : read.problem, /^team\/\.claude-plugin\/marketplace\.json:4:39: "plugins\[0\]\.source"/);
});

test('a plugin folder added directly is a marketplace of its one plugin; a local one is read in place', async () => {
  const w = await world();
  const plugin = join(w.repo, 'plugins/docs-kit');
  const added = await w.manager.addMarketplace(plugin);
  assert.equal(added.name, 'docs-kit');
  assert.equal(added.kind, 'folder');
  await w.manager.install('docs-kit@docs-kit', 'user');
  assert.deepEqual(
    w.manager.folders().map((f) => f.name),
    ['docs-kit'],
  );
  // A folder marketplace whose entry has no plugin.json: the entry's fields stand for it (strict: false).
  const market = join(w.base, 'local market');
  write(
    join(market, '.claude-plugin/marketplace.json'),
    JSON.stringify({
      name: 'local-market',
      owner: 'me',
      plugins: [{ name: 'bare', source: './bare', strict: false, commands: ['./cmds/hello.md'] }],
    }),
  );
  write(join(market, 'bare/cmds/hello.md'), 'Say hello.\n');
  mkdirSync(join(market, 'bare/agents'), { recursive: true });
  await w.manager.addMarketplace(market);
  const parts = await w.manager.install('bare@local-market', 'workspace');
  assert.equal(parts.name, 'bare');
  assert.deepEqual(parts.counts, { commands: 1, agents: 0, skills: 0, hooks: 0, servers: 0 });
});

test('a plugin source outside its marketplace folder is refused', async () => {
  const w = await world();
  const market = join(w.base, 'sneaky');
  write(
    join(market, '.claude-plugin/marketplace.json'),
    JSON.stringify({ name: 'sneaky', owner: 'x', plugins: [{ name: 'out', source: './../repo/plugins/lint-kit' }] }),
  );
  await w.manager.addMarketplace(market);
  await assert.rejects(w.manager.install('out@sneaky', 'user'), /outside its marketplace's folder/);
});

test('${CLAUDE_PLUGIN_ROOT} in a hook command is quoted for where it stands', () => {
  const root = "/tmp/a b/it's";
  assert.equal(expandRootInShell('"${CLAUDE_PLUGIN_ROOT}/x.sh" --y', root), '"/tmp/a b/it\'s/x.sh" --y');
  assert.equal(expandRootInShell('node $CLAUDE_PLUGIN_ROOT/s.js', root), "node '/tmp/a b/it'\\''s'/s.js");
  assert.equal(expandRootInShell("echo '${CLAUDE_PLUGIN_ROOT}'", root), "echo '${CLAUDE_PLUGIN_ROOT}'");
  const out = execFileSync('bash', ['-c', expandRootInShell('printf %s "${CLAUDE_PLUGIN_ROOT}"', '/p/$HOME `x`')]);
  assert.equal(out.toString(), '/p/$HOME `x`', 'no expansion inside the root');
});

test("a workspace's .claude/settings.json only suggests what the user does not have yet", () => {
  const text = JSON.stringify({
    extraKnownMarketplaces: {
      'team-tools': { source: { source: 'github', repo: 'acme/team-tools' } },
      mine: { source: { source: 'git', url: 'https://git.example.com/mine.git' } },
      known: { source: { source: 'directory', path: './market' } },
    },
    enabledPlugins: { 'lint-kit@team-tools': true, 'off@team-tools': false, 'docs-kit@mine': true },
  });
  assert.deepEqual(pluginSuggestions(text, { marketplaces: ['known'], installed: ['docs-kit@mine'] }), {
    marketplaces: [
      { name: 'team-tools', source: 'https://github.com/acme/team-tools.git' },
      { name: 'mine', source: 'https://git.example.com/mine.git' },
    ],
    plugins: ['lint-kit@team-tools'],
  });
  assert.deepEqual(pluginSuggestions('{ not json', { marketplaces: [], installed: [] }), {
    marketplaces: [],
    plugins: [],
  });
});
