// MCP tool search: many MCP tools go behind `tool_search` (names and one-line descriptions only, sorted,
// the same bytes every time); tool_search returns full definitions by name or query; a deferred tool is
// then called by its own name through the same registry (and policy); the list sent never changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mcpTool } from '../../../extension/core/mcp/mcp-tool';
import {
  definitionTokens,
  registryWithToolSearch,
  shouldDefer,
  TOOL_SEARCH,
} from '../../../extension/core/mcp/tool-search';
import { builtinTools } from '../../../extension/core/tools/registry';
import type { AnyTool, ToolContext } from '../../../extension/core/tools/types';

function manyTools(n: number, order: 'up' | 'down' = 'up'): AnyTool[] {
  const ids = Array.from({ length: n }, (_, i) => i);
  if (order === 'down') ids.reverse();
  return ids.map((i) =>
    mcpTool(
      `srv${i % 4}`,
      {
        name: `tool_${String(i).padStart(3, '0')}`,
        description: `Does thing ${i} with tickets.\nLonger explanation of every option ${'x'.repeat(200)}`,
        inputSchema: { type: 'object', properties: { id: { type: 'string', description: 'The ticket id' } } },
      },
      async (args) => ({ forModel: `ran ${i} with ${JSON.stringify(args)}`, forUi: 'ok', isError: false }),
    ),
  );
}

const ctx = {
  signal: new AbortController().signal,
  progress: () => {},
  ports: { log: { info() {}, warn() {}, error() {} } },
} as unknown as ToolContext;

test('"auto" defers past 10 % of the window, "on" always, "off" never', () => {
  const tools = manyTools(100);
  const tokens = definitionTokens(tools);
  assert.equal(shouldDefer('auto', tools, tokens * 20), false);
  assert.equal(shouldDefer('auto', tools, tokens * 5), true);
  assert.equal(shouldDefer('on', manyTools(1), 1_000_000), true);
  assert.equal(shouldDefer('off', tools, 1), false);
  assert.equal(shouldDefer('on', [], 1), false);
});

test('only names and one-line descriptions are sent, sorted: the same bytes whatever order the servers list', () => {
  const a = registryWithToolSearch(builtinTools(), manyTools(100, 'up')).specs();
  const b = registryWithToolSearch(builtinTools(), manyTools(100, 'down')).specs();
  assert.equal(JSON.stringify(a), JSON.stringify(b));
  assert.equal(a.at(-1)?.name, TOOL_SEARCH);
  assert.equal(a.filter((s) => s.name.startsWith('mcp__')).length, 0);
  const catalog = a.at(-1)?.description ?? '';
  assert.match(catalog, /- mcp__srv0__tool_000: Does thing 0 with tickets\.\n- mcp__srv0__tool_004:/);
  assert.doesNotMatch(catalog, /Longer explanation/);
  const full = JSON.stringify(manyTools(100).map((t) => t.description)).length;
  assert.ok(catalog.length * 5 <= full, `catalog ${catalog.length} vs full ${full}`);
});

test('tool_search loads full definitions by name and by query; the tool is then called by its name', async () => {
  const registry = registryWithToolSearch(builtinTools(), manyTools(100));
  const before = JSON.stringify(registry.specs());
  const byName = registry.prepare({
    id: '1',
    name: TOOL_SEARCH,
    argumentsJson: JSON.stringify({ names: ['mcp__srv1__tool_005', 'mcp__nope__x'] }),
  });
  const loaded = await registry.execute(byName, ctx);
  assert.equal(loaded.isError, false);
  assert.match(String(loaded.forModel), /"name": "mcp__srv1__tool_005"[\s\S]*Longer explanation[\s\S]*"input_schema"/);
  assert.match(String(loaded.forModel), /Not deferred tools here: mcp__nope__x/);
  const query = await registry.execute(
    registry.prepare({ id: '2', name: TOOL_SEARCH, argumentsJson: JSON.stringify({ query: 'thing 42' }) }),
    ctx,
  );
  assert.match(String(query.forModel), /mcp__srv2__tool_042/);
  const call = registry.prepare({ id: '3', name: 'mcp__srv1__tool_005', argumentsJson: '{"id":"T-1"}' });
  assert.ok(call.ok);
  // Judged like any MCP tool: it may change things, so it asks by default.
  assert.equal(call.ok && call.tool.kind, 'execute');
  const ran = await registry.execute(call, ctx);
  assert.match(String(ran.forModel), /ran 5 with \{"id":"T-1"\}/);
  assert.equal(JSON.stringify(registry.specs()), before, 'the list sent is unchanged by loading');
});

test('no deferred tools: the plain registry, no tool_search', () => {
  const specs = registryWithToolSearch(builtinTools(), []).specs();
  assert.equal(
    specs.some((s) => s.name === TOOL_SEARCH),
    false,
  );
});
