// VS Code's language-model tools of other extensions, through core's port (a fake registry here): named
// `lm__<tool>`, offered in Agent mode only, asking by default, ruled by `lm__<tool>` and `lm__*` like MCP
// tools by `mcp__…`; invoked through the port with the call's arguments; the editor's own tools left out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPolicy, decide, suggestRule } from '../../../extension/core/permissions';
import { LanguageModelTools } from '../../../extension/core/lm-tools/source';
import { lmToolName } from '../../../extension/core/lm-tools/tool-name';
import type { LanguageModelToolsPort, LmToolInfo } from '../../../extension/core/lm-tools/port';
import { createToolRegistry } from '../../../extension/core/tools/registry';
import type { ToolContext } from '../../../extension/core/tools/types';

function fakePort(list: LmToolInfo[]): LanguageModelToolsPort & { calls: Array<[string, unknown]> } {
  const calls: Array<[string, unknown]> = [];
  return {
    calls,
    list: () => list,
    invoke: async (name, input) => {
      calls.push([name, input]);
      if (name === 'broken') throw new Error('it broke');
      return `weather in ${String(input.city)}: sunny`;
    },
  };
}

const WEATHER: LmToolInfo = {
  name: 'weather_lookup',
  description: 'Looks up the weather',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  tags: ['demo'],
};

const ctx = {
  signal: new AbortController().signal,
  progress: () => {},
  ports: { log: { info() {}, warn() {}, error() {} } },
} as unknown as ToolContext;

test('names: lm__<tool>, safe characters and at most 64, a hash where it had to change', () => {
  assert.equal(lmToolName('weather_lookup'), 'lm__weather_lookup');
  const odd = lmToolName('my.ext/tool with spaces');
  assert.match(odd, /^lm__my_ext_tool_with_spaces_[0-9a-f]{8}$/);
  assert.ok(lmToolName('x'.repeat(100)).length <= 64);
  assert.notEqual(lmToolName('a.b'), lmToolName('a/b'));
});

test("offered in Agent only, the editor's own tools left out, sorted; invoked with the arguments", async () => {
  const port = fakePort([
    WEATHER,
    { name: 'copilot_readFile', description: 'x', tags: [] },
    { name: 'vscode_editFile_internal', description: 'x', tags: [] },
    { name: 'another', description: 'y', tags: [] },
  ]);
  let enabled = true;
  const source = new LanguageModelTools(port, () => enabled);
  assert.deepEqual(source.tools('plan'), []);
  const tools = source.tools('agent');
  assert.deepEqual(
    tools.map((t) => t.name),
    ['lm__another', 'lm__weather_lookup'],
  );
  const weather = tools[1];
  assert.equal(weather.kind, 'execute');
  assert.deepEqual(weather.jsonSchema?.required, ['city']);
  const registry = createToolRegistry(tools);
  const call = registry.prepare({ id: '1', name: 'lm__weather_lookup', argumentsJson: '{"city":"Oslo"}' });
  const result = await registry.execute(call, ctx);
  assert.equal(result.forModel, 'weather in Oslo: sunny');
  assert.deepEqual(port.calls, [['weather_lookup', { city: 'Oslo' }]]);
  const key = source.toolsKey();
  enabled = false;
  assert.deepEqual(source.tools('agent'), []);
  assert.notEqual(source.toolsKey(), key);
});

test('a tool that throws: an error result for the model, nothing thrown', async () => {
  const [broken] = new LanguageModelTools(fakePort([{ name: 'broken', description: '', tags: [] }]), () => true).tools(
    'agent',
  );
  const r = await broken.execute({}, ctx);
  assert.equal(r.isError, true);
  assert.match(String(r.forModel), /The tool broken failed: it broke/);
});

test('rules: each asks by default; lm__<tool> and lm__* allow or deny like mcp__ rules', () => {
  const policy = (user: { allow?: string[]; deny?: string[] }) =>
    createPolicy({ user, workspaceFolders: ['/ws'], home: '/home/u', tools: [] });
  const call = (tool: string) => ({ tool, kind: 'execute' as const, input: { city: 'Oslo' } });
  const none = policy({});
  assert.deepEqual(none.problems, []);
  assert.equal(decide(call('lm__weather_lookup'), none).decision, 'ask');
  assert.equal(suggestRule(call('lm__weather_lookup'), none), 'lm__weather_lookup');
  const one = policy({ allow: ['lm__weather_lookup'] });
  assert.deepEqual(one.problems, []);
  assert.equal(decide(call('lm__weather_lookup'), one).decision, 'allow');
  assert.equal(decide(call('lm__other'), one).decision, 'ask');
  const all = policy({ allow: ['lm__*'], deny: ['lm__dangerous'] });
  assert.deepEqual(all.problems, []);
  assert.equal(decide(call('lm__weather_lookup'), all).decision, 'allow');
  assert.equal(decide(call('lm__dangerous'), all).decision, 'deny');
  // lm__* covers language-model tools only, never an MCP tool.
  assert.equal(decide(call('mcp__x__y'), all).decision, 'ask');
});
