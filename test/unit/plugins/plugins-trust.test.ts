// A plugin's hooks and MCP servers keep today's trust, through the real hook engine (hooks as real
// processes) and the real MCP manager (our test server on the real SDK): neither runs before the user
// approves it on the workspace's card, and an update that changes the plugin asks again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HookEngine } from '../../../extension/core/extensions/hooks/hook-engine';
import { boxedHookRunner } from '../../../extension/core/extensions/hooks/hook-process';
import { HookSettings } from '../../../extension/core/extensions/hooks/hook-settings';
import { HookTrust } from '../../../extension/core/extensions/hooks/hook-trust';
import { defaultChildEnv } from '../../../extension/core/security/child-env';
import { createManager, memoryStore, none, shown, started, until } from '../mcp/harness';
import { commitAll, gitUrl, HOOK_COMMAND, world, type World } from './fixture';

function wire(w: World) {
  const settings = new HookSettings(
    new HookTrust(memoryStore()),
    () => true,
    () => w.workspace,
  );
  const engine = new HookEngine({
    hooks: () => settings.inForce(),
    run: boxedHookRunner(() => undefined),
    env: () => ({ ...defaultChildEnv(), PLUGIN_HOOK_MARKER: w.hookMarker }),
    cwd: () => w.workspace,
  });
  const mcp = createManager();
  const feed = () => {
    settings.setPlugins(w.manager.hooks());
    mcp.manager.setSources({ workspace: none, user: none, plugins: w.manager.servers() });
  };
  w.manager.onDidChange(feed);
  feed();
  const bash = () =>
    engine.fire(
      'PreToolUse',
      { tool_name: 'Bash', tool_input: { command: 'ls' } },
      {
        sessionId: 's',
        signal: new AbortController().signal,
        matchOn: 'bash',
        toolCall: { tool: 'bash', input: { command: 'ls' } },
      },
    );
  const runs = () => (existsSync(w.hookMarker) ? readFileSync(w.hookMarker, 'utf8').trim().split('\n').length : 0);
  return { settings, engine, mcp, bash, runs };
}

const ID = 'lint-kit@team-tools';

test("a plugin's hook does not run and its server does not start before approval", async () => {
  const w = await world();
  await w.manager.addMarketplace(gitUrl(w.repo));
  await w.manager.install(ID, 'user');
  const t = wire(w);

  const card = t.settings.view().workspace;
  assert.equal(card?.state, 'pending');
  assert.equal(card?.hooks[0].source, 'plugin lint-kit (hooks/hooks.json)');
  await t.bash();
  assert.equal(t.runs(), 0, 'the hook did not run before approval');

  const server = 'plugin_lint-kit_notes';
  await t.mcp.manager.prepare();
  assert.equal(t.mcp.manager.views()[0].state, 'needs_approval');
  assert.deepEqual(started(w.markerDir), [], 'no server process before approval');
  assert.deepEqual(t.mcp.manager.tools('agent'), []);

  // Approved on their cards, bound to the hashes the cards showed.
  assert.ok(await t.settings.decide(card?.hash ?? '', true));
  await t.bash();
  assert.equal(t.runs(), 1, 'the approved hook ran (through ${CLAUDE_PLUGIN_ROOT}, from a path with spaces)');
  await t.mcp.manager.decide(server, 'approve', shown(t.mcp.manager, server));
  await until(() => t.mcp.manager.views()[0].state === 'connected', 'connected');
  assert.equal(started(w.markerDir).length, 1);
  assert.ok(t.mcp.manager.tools('agent').some((x) => x.name === 'mcp__plugin_lint-kit_notes__echo'));
  await t.mcp.manager.dispose();
});

test('an update that changes a hook asks again (so does one changing what the hook or server runs)', async () => {
  const w = await world();
  await w.manager.addMarketplace(gitUrl(w.repo));
  await w.manager.install(ID, 'user');
  const t = wire(w);
  const server = 'plugin_lint-kit_notes';
  assert.ok(await t.settings.decide(t.settings.view().workspace?.hash ?? '', true));
  await t.mcp.manager.decide(server, 'approve', shown(t.mcp.manager, server));
  await until(() => t.mcp.manager.views()[0].state === 'connected', 'connected');
  await t.bash();
  assert.equal(t.runs(), 1);

  // An update with nothing new keeps both approvals.
  await w.manager.update(ID, 'user');
  assert.equal(t.settings.view().workspace?.state, 'approved');
  assert.equal(t.mcp.manager.views()[0].state, 'connected');

  // The marketplace's repository changes the hook (now also on Write): the update asks again.
  const hooksFile = join(w.repo, 'plugins/lint-kit/hooks/hooks.json');
  const hooks = JSON.parse(readFileSync(hooksFile, 'utf8'));
  hooks.hooks.PreToolUse[0].matcher = 'Bash|Write';
  writeFileSync(hooksFile, JSON.stringify(hooks, null, 2));
  commitAll(w.repo, 'lint-kit 1.1: the hook also watches Write');
  await w.manager.update(ID, 'user');
  const card = t.settings.view().workspace;
  assert.equal(card?.state, 'pending');
  assert.equal(card?.changed, true, 'shown as changed since the approval');
  assert.equal(card?.hooks[0].matcher, 'Bash|Write');
  assert.equal(card?.hooks[0].command.endsWith(HOOK_COMMAND.replace('${CLAUDE_PLUGIN_ROOT}', '').slice(1)), true);
  await t.bash();
  assert.equal(t.runs(), 1, 'the changed hook did not run');
  // Any change to the plugin's files changes its servers' hash too: the server stopped and asks again.
  const view = t.mcp.manager.views()[0];
  assert.equal(view.state, 'needs_approval');
  assert.equal(view.approval?.reason, 'config_changed');

  assert.ok(await t.settings.decide(card?.hash ?? '', true));
  await t.bash();
  assert.equal(t.runs(), 2);

  // Only the script the hook runs changes (hooks.json as it was): that asks again as well.
  writeFileSync(
    join(w.repo, 'plugins/lint-kit/scripts/on-bash.sh'),
    '#!/bin/bash\necho "ran v2" >> "$PLUGIN_HOOK_MARKER"\n',
  );
  commitAll(w.repo, 'lint-kit 1.2: a new script');
  await w.manager.update(ID, 'user');
  assert.equal(t.settings.view().workspace?.state, 'pending');
  await t.bash();
  assert.equal(t.runs(), 2, 'the changed script did not run');
  await t.mcp.manager.dispose();
});
