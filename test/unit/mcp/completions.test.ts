// The composer's MCP picker: resources (and resource templates' fixed part) after `@`, prompts only
// at the start of a message, only from
// connected servers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { McpServerView } from '../../../extension/protocol';
import { mcpCompletions } from '../../../webview/mcp-completions';

const server = (name: string, state: McpServerView['state']): McpServerView => ({
  name,
  scope: 'user',
  transport: 'stdio',
  state,
  envNames: [],
  headerNames: [],
  readsEnv: [],
  tools: [],
  withheld: [],
  prompts: [{ name: 'greet', description: 'A greeting' }],
  resources: [{ uri: 'note://readme', name: 'readme' }],
  resourceTemplates: [],
  restarts: 0,
});

test('completions for @ and /mcp__ from connected servers', () => {
  const servers = [server('demo', 'connected'), server('off', 'stopped')];
  const at = mcpCompletions('see @de', 7, servers);
  assert.deepEqual(at, { start: 4, items: [{ insert: '@demo:note://readme', detail: 'readme' }] });
  assert.deepEqual(
    mcpCompletions('/mcp__', 6, servers)?.items.map((i) => i.insert),
    ['/mcp__demo__greet'],
  );
  assert.equal(mcpCompletions('x /mcp__', 8, servers), undefined, 'a prompt only starts a message');
  assert.equal(mcpCompletions('mail a@b', 8, servers), undefined);
  assert.equal(mcpCompletions('@off', 4, servers), undefined, 'not from a server that is not connected');
});

test('a resource template completes to its fixed part, for the user to finish', () => {
  const withTemplate = {
    ...server('demo', 'connected'),
    resourceTemplates: [{ uriTemplate: 'demo://resource/dynamic/text/{resourceId}', name: 'Dynamic Text' }],
  };
  assert.deepEqual(mcpCompletions('@demo:demo://', 13, [withTemplate])?.items, [
    {
      insert: '@demo:demo://resource/dynamic/text/',
      detail: 'Dynamic Text (demo://resource/dynamic/text/{resourceId})',
    },
  ]);
});
