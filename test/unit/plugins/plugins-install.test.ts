// Claude Code plugins installed unchanged, through the real loaders: a marketplace in a local git
// repository lists two plugins; installing one makes its command (`/lint-kit:check`), agent, skill, hook
// and MCP server appear; disabling removes every part; a malformed plugin.json is reported at its line
// and column and nothing of that plugin loads while the other plugins do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { discoverAgents } from '../../../extension/core/extensions/agent-definitions';
import { HookSettings } from '../../../extension/core/extensions/hooks/hook-settings';
import { HookTrust } from '../../../extension/core/extensions/hooks/hook-trust';
import { ProjectContext } from '../../../extension/core/extensions/project-context';
import { projectFilesOver } from '../../../extension/core/extensions/project-files';
import { discoverSkills } from '../../../extension/core/extensions/skills';
import { NodeWorkspace } from '../../fixtures/node-ports';
import { createManager, memoryStore, none } from '../mcp/harness';
import { commitAll, gitUrl, world, write, type World } from './fixture';

function loaders(w: World) {
  const files = projectFilesOver(new NodeWorkspace({ roots: [w.workspace] }), w.home, () => w.manager.folders());
  const project = new ProjectContext(files);
  const hooks = new HookSettings(
    new HookTrust(memoryStore()),
    () => true,
    () => w.workspace,
  );
  const mcp = createManager();
  const feed = () => {
    hooks.setPlugins(w.manager.hooks());
    mcp.manager.setSources({ workspace: none, user: none, plugins: w.manager.servers() });
  };
  w.manager.onDidChange(feed);
  feed();
  return {
    files,
    hooks,
    mcp,
    commands: async () => (await project.commands.list()).map((c) => c.name),
    agents: async () => (await discoverAgents(files)).agents.filter((a) => a.source !== 'built-in'),
    skills: async () => (await discoverSkills(files)).map((s) => s.name),
    servers: () => mcp.manager.views().map((v) => v.name),
  };
}

test('a marketplace in a git repository lists two plugins; installing one brings all its parts', async () => {
  const w = await world();
  const added = await w.manager.addMarketplace(gitUrl(w.repo));
  assert.equal(added.name, 'team-tools');
  assert.equal(added.kind, 'git');
  const listed = w.manager.available();
  assert.deepEqual(listed.problems, []);
  assert.deepEqual(listed.plugins.map((p) => p.id).sort(), ['docs-kit@team-tools', 'lint-kit@team-tools']);

  const l = loaders(w);
  assert.deepEqual(await l.commands(), [], 'nothing before an install');
  const parts = await w.manager.install('lint-kit@team-tools', 'user');
  assert.deepEqual(parts.counts, { commands: 1, agents: 1, skills: 1, hooks: 1, servers: 1 });

  assert.deepEqual(await l.commands(), ['lint-kit:check']);
  const project = new ProjectContext(l.files);
  const check = await project.commands.find('lint-kit:check');
  assert.equal(check?.description, 'Check a file for lint');
  assert.equal(check?.source, 'plugin lint-kit');
  assert.equal(await check?.expand('src/a.ts'), 'Check src/a.ts for lint problems.');
  const agents = await l.agents();
  assert.deepEqual(
    agents.map((a) => [a.name, a.source]),
    [['linter', 'plugin lint-kit/agents/linter.md']],
  );
  assert.deepEqual(agents[0].tools, ['read_file', 'grep']);
  assert.deepEqual(await l.skills(), ['lint-kit:style-guide']);

  const view = l.hooks.view().workspace;
  assert.equal(view?.hooks.length, 1);
  assert.equal(view?.hooks[0].source, 'plugin lint-kit (hooks/hooks.json)');
  // `${CLAUDE_PLUGIN_ROOT}` is the installed copy, in Sextant's storage (a path with spaces, quoted).
  assert.match(
    view?.hooks[0].command ?? '',
    /global storage\/plugins\/installed\/team-tools\/lint-kit\/scripts\/on-bash\.sh"$/,
  );
  assert.deepEqual(l.servers(), ['plugin_lint-kit_notes']);
  const server = l.mcp.manager.views()[0];
  assert.match(server.commandLine ?? '', /installed\/team-tools\/lint-kit\/server\/notes-server\.cjs/);

  // The other plugin of the marketplace is there to install, not installed.
  await w.manager.install('docs-kit@team-tools', 'workspace');
  assert.deepEqual(await l.commands(), ['docs-kit:outline', 'docs-kit:publish', 'lint-kit:check']);
  await l.mcp.manager.dispose();
});

test('disabling a plugin removes its command, agent, skill, hook and server; enabling brings them back', async () => {
  const w = await world();
  await w.manager.addMarketplace(gitUrl(w.repo));
  const l = loaders(w);
  await w.manager.install('lint-kit@team-tools', 'user');
  assert.equal((await l.commands()).length, 1);

  await w.manager.setEnabled('lint-kit@team-tools', 'user', false);
  assert.deepEqual(await l.commands(), []);
  assert.deepEqual(await l.agents(), []);
  assert.deepEqual(await l.skills(), []);
  assert.equal(l.hooks.view().workspace, undefined, 'no hook left to approve or run');
  assert.deepEqual(l.hooks.inForce(), []);
  assert.deepEqual(l.servers(), []);

  await w.manager.setEnabled('lint-kit@team-tools', 'user', true);
  assert.deepEqual(await l.commands(), ['lint-kit:check']);
  assert.deepEqual(l.servers(), ['plugin_lint-kit_notes']);

  await w.manager.remove('lint-kit@team-tools', 'user');
  assert.deepEqual(await l.commands(), []);
  assert.deepEqual(w.manager.installed(), []);
  await l.mcp.manager.dispose();
});

test('a malformed plugin.json is reported at its line and column, and nothing of that plugin loads', async () => {
  const w = await world();
  // A third plugin whose manifest lacks a comma on line 3.
  write(
    join(w.repo, 'plugins/broken-kit/.claude-plugin/plugin.json'),
    '{\n  "name": "broken-kit"\n  "version": "1.0.0"\n}\n',
  );
  write(join(w.repo, 'plugins/broken-kit/commands/oops.md'), 'Oops.\n');
  const market = join(w.repo, '.claude-plugin/marketplace.json');
  const m = JSON.parse(readFileSync(market, 'utf8'));
  m.plugins.push({ name: 'broken-kit', source: './plugins/broken-kit' });
  writeFileSync(market, JSON.stringify(m, null, 2));
  commitAll(w.repo, 'broken plugin');
  await w.manager.addMarketplace(gitUrl(w.repo));
  const l = loaders(w);
  await w.manager.install('docs-kit@team-tools', 'user');

  await assert.rejects(w.manager.install('broken-kit@team-tools', 'user'), (err: Error) => {
    assert.match(err.message, /broken-kit\/\.claude-plugin\/plugin\.json:3:3: not valid JSON/);
    assert.match(err.message, /nothing of this plugin was loaded/);
    return true;
  });
  assert.deepEqual(await l.commands(), ['docs-kit:outline', 'docs-kit:publish'], 'the other plugin still loads');

  // An installed plugin whose manifest breaks later (edited in place) loads nothing either.
  await w.manager.install('lint-kit@team-tools', 'user');
  assert.ok((await l.commands()).includes('lint-kit:check'));
  const installed = w.manager.installed().find((p) => p.id === 'lint-kit@team-tools');
  assert.ok(installed);
  writeFileSync(
    join(installed.record.dir, '.claude-plugin/plugin.json'),
    '{\n  "name": "lint-kit",\n  "version": 1,\n}',
  );
  w.manager.reload();
  const problems = w.manager.problems();
  assert.equal(problems.length, 1);
  assert.match(problems[0], /^plugin lint-kit@team-tools: lint-kit\/\.claude-plugin\/plugin\.json:3:14: "version"/);
  assert.deepEqual(await l.commands(), ['docs-kit:outline', 'docs-kit:publish']);
  assert.deepEqual(await l.agents(), []);
  assert.deepEqual(await l.skills(), []);
  assert.equal(l.hooks.view().workspace, undefined);
  assert.deepEqual(l.servers(), []);
  await l.mcp.manager.dispose();
});
