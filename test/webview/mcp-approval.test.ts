// The MCP approval card in the real webview: its answer carries the configuration and tool-list hashes
// the card showed, so the manager can refuse an answer to a card the server has since outdated; a
// fresh card (new hashes) for the same server can be answered again.
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { McpServerView } from '../../extension/protocol';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';

const env = useViewEnvironment();
let view: ViewHarness;

beforeEach(async () => {
  view = await env.open();
});
afterEach(async () => {
  assert.deepEqual(await view.violations(), []);
  assert.deepEqual(view.pageErrors, []);
  await view.close();
});

const server = (toolsHash: string): McpServerView => ({
  name: 'demo',
  scope: 'user',
  transport: 'stdio',
  state: 'needs_approval',
  commandLine: 'node server.js',
  envNames: [],
  headerNames: [],
  readsEnv: [],
  tools: [],
  withheld: ['surprise'],
  prompts: [],
  resources: [],
  resourceTemplates: [],
  restarts: 0,
  approval: {
    reason: 'tools_changed',
    added: [{ name: 'surprise', description: 'new', readOnly: false, destructive: false, openWorld: false }],
    changed: [],
    removed: [],
    listHash: toolsHash.slice(0, 12),
    configHash: 'c'.repeat(64),
    toolsHash,
  },
});

describe('MCP approval card', () => {
  it('sends back the hashes it showed, and a fresh card can be answered again', async () => {
    await deliver(view, { type: 'mcpServers', servers: [server('a'.repeat(64))], problems: [] });
    const card = view.page.getByRole('group', { name: 'MCP server: demo' });
    await card.getByRole('button', { name: 'Approve server' }).click();
    assert.deepEqual(await view.waitForPost('mcpDecision'), {
      type: 'mcpDecision',
      server: 'demo',
      decision: 'approve',
      configHash: 'c'.repeat(64),
      toolsHash: 'a'.repeat(64),
    });

    // The server changed again before the answer counted: the manager shows a card with new hashes.
    await deliver(view, { type: 'mcpServers', servers: [server('b'.repeat(64))], problems: [] });
    await card.getByRole('button', { name: 'Approve server' }).click();
    assert.deepEqual(await view.waitForPost('mcpDecision', (m) => m.toolsHash === 'b'.repeat(64)), {
      type: 'mcpDecision',
      server: 'demo',
      decision: 'approve',
      configHash: 'c'.repeat(64),
      toolsHash: 'b'.repeat(64),
    });
  });
});
