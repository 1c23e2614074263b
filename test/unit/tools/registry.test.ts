import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import {
  builtinTools,
  createToolRegistry,
  parseToolInput,
  toolsForMode,
  type ToolCallInput,
  type ToolRegistry,
} from '../../../extension/core/tools/registry';
import { defineTool, type ToolContext } from '../../../extension/core/tools/types';
import { createNodePorts, makeContext, makeTempWorkspace, textOf } from '../../fixtures/node-ports';

const names = (tools: Array<{ name: string }>) => tools.map((t) => t.name).sort();

/** Prepares and runs one call, the way the agent loop does. */
function runCall(reg: ToolRegistry, call: ToolCallInput, ctx: ToolContext) {
  return reg.execute(reg.prepare(call), ctx);
}

test('specs are JSON Schema objects both providers accept', () => {
  const reg = createToolRegistry(builtinTools());
  const specs = reg.specs();
  assert.equal(specs.length, 21);
  for (const s of specs) {
    assert.equal(s.inputSchema.type, 'object', s.name);
    assert.equal('$schema' in s.inputSchema, false);
    assert.ok(s.description.length > 40, s.name);
    assert.match(s.name, /^[a-z_]+$/);
  }
  const read = specs.find((s) => s.name === 'read_file')!;
  assert.deepEqual(read.inputSchema.required, ['file_path']);
  const grep = specs.find((s) => s.name === 'grep')!;
  assert.ok('-i' in (grep.inputSchema.properties as object));
});

test('tools per mode: chat none, plan read-only + submit_plan, research none, agent all, untrusted none', () => {
  assert.deepEqual(toolsForMode('chat', { trusted: true }), []);
  assert.deepEqual(names(toolsForMode('plan', { trusted: true })), [
    'definition',
    'glob',
    'grep',
    'hover',
    'ls',
    'problems',
    'read_file',
    'references',
    'submit_plan',
    'symbols',
  ]);
  assert.deepEqual(toolsForMode('research', { trusted: true }), []);
  assert.equal(toolsForMode('agent', { trusted: true }).length, 21);
  assert.ok(names(toolsForMode('agent', { trusted: true })).includes('web_search'));
  assert.ok(!names(toolsForMode('agent', { trusted: true })).includes('submit_plan'));
  assert.deepEqual(toolsForMode('agent', { trusted: false }), []);
  assert.ok(toolsForMode('plan', { trusted: true }).every((t) => t.kind === 'read'));
});

test('invalid arguments come back as an error result that says what to fix', async () => {
  const root = await makeTempWorkspace({ 'a.txt': 'x\n' });
  const reg = createToolRegistry(builtinTools());
  const ctx = makeContext(createNodePorts({ root }));
  const missing = await runCall(reg, { id: '1', name: 'read_file', argumentsJson: '{"path": "a.txt"}' }, ctx);
  assert.equal(missing.isError, true);
  assert.match(textOf(missing), /Invalid arguments for read_file:\n- file_path: required but missing/);
  assert.match(textOf(missing), /Unknown argument ignored: path/);
  assert.match(textOf(missing), /Expected: \{"file_path": string, "offset"\?: integer/);
  const wrongType = await runCall(
    reg,
    { id: '2', name: 'read_file', argumentsJson: '{"file_path": "a.txt", "offset": "ten"}' },
    ctx,
  );
  assert.match(textOf(wrongType), /- offset: Invalid input: expected number, received string/);
  const badJson = await runCall(reg, { id: '3', name: 'read_file', argumentsJson: '{"file_path": "a.txt"' }, ctx);
  assert.match(textOf(badJson), /not valid JSON/);
  const notObject = await runCall(reg, { id: '4', name: 'read_file', argumentsJson: '["a.txt"]' }, ctx);
  assert.match(textOf(notObject), /must be a JSON object/);
  const nested = await runCall(
    reg,
    {
      id: '5',
      name: 'ask_user',
      argumentsJson: JSON.stringify({ questions: [{ question: 'Which?', options: [{ label: 'only one' }] }] }),
    },
    ctx,
  );
  assert.match(textOf(nested), /- questions\[0\]\.options: /);
  const unknownTool = await runCall(reg, { id: '6', name: 'rm_rf', argumentsJson: '{}' }, ctx);
  assert.match(textOf(unknownTool), /no tool named "rm_rf".*Available tools: read_file/);
  const ok = await runCall(reg, { id: '7', name: 'read_file', argumentsJson: '{"file_path": "a.txt"}' }, ctx);
  assert.equal(ok.isError, false);
});

test('a tool that throws becomes an error result; parseToolInput gives the validated input', async () => {
  const boom = defineTool({
    name: 'boom',
    description: 'throws',
    kind: 'read',
    permission: { subject: 'text', text: () => '' },
    modes: ['agent'],
    input: z.object({ n: z.number().default(1) }),
    subject: (i) => String(i.n),
    execute: async () => {
      throw new Error('kaput');
    },
  });
  const root = await makeTempWorkspace({});
  const ports = createNodePorts({ root });
  const r = await runCall(createToolRegistry([boom]), { id: 'x', name: 'boom', argumentsJson: '' }, makeContext(ports));
  assert.deepEqual([r.isError, textOf(r)], [true, 'boom failed: kaput']);
  assert.match(ports.logs.join('\n'), /tool boom threw/);
  assert.deepEqual(parseToolInput(boom, '{}'), { ok: true, input: { n: 1 } });
});
