// A tool declares its permission facts once (defineTool); the registry refuses one that does not,
// and the policy and the gate cover a new file tool from its declaration alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { createPolicy, decide, suggestRule } from '../../../extension/core/permissions';
import { judgeCall } from '../../../extension/core/agent/permission-gate';
import { createToolRegistry, declaredToolFacts, toolsForMode } from '../../../extension/core/tools/registry';
import { defineTool, type AnyTool } from '../../../extension/core/tools/types';
import { createNodePorts } from '../../fixtures/node-ports';

const HOME = '/home/dev';
const WS = '/home/dev/proj';

const copyInput = z.object({ source: z.string(), destination: z.string() });

/** A file tool nobody told the policy about: its declaration is all there is. */
const copyFileTool = defineTool({
  name: 'copy_file',
  kind: 'write',
  permission: { subject: 'path', paths: (i) => [i.source, i.destination] },
  modes: ['agent'],
  description: 'Copies a file.',
  input: copyInput,
  subject: (i) => `${i.source} → ${i.destination}`,
  execute: async () => ({ forModel: 'copied', forUi: 'copied', isError: false }),
});

const peekInput = z.object({ file: z.string() });
const peekTool = defineTool({
  name: 'peek',
  kind: 'read',
  permission: { subject: 'path', paths: (i) => [i.file] },
  modes: ['agent', 'plan'],
  description: 'Reads the first line of a file.',
  input: peekInput,
  subject: (i) => i.file,
  execute: async () => ({ forModel: '', forUi: '', isError: false }),
});

test('a tool without permission facts cannot be declared or registered', () => {
  const bare = {
    name: 'copy_file',
    kind: 'write' as const,
    modes: ['agent' as const],
    description: 'Copies a file.',
    input: copyInput,
    subject: () => '',
    execute: async () => ({ forModel: '', forUi: '', isError: false }),
  };
  // @ts-expect-error — the type requires `permission`; this is what a plain-JS or MCP tool could send.
  assert.throws(() => defineTool(bare), /copy_file declares no permission facts/);
  assert.throws(() => createToolRegistry([bare as unknown as AnyTool]), /copy_file declares no permission facts/);
  const pathless = { ...bare, permission: { subject: 'path' } };
  assert.throws(() => createToolRegistry([pathless as unknown as AnyTool]), /declares permission.paths/);
  assert.doesNotThrow(() => createToolRegistry([copyFileTool as AnyTool]));
});

test('a new file tool declared once is covered by path rules, protected paths and refused reads', () => {
  const tools = [...declaredToolFacts(), copyFileTool, peekTool];
  const policy = createPolicy({
    user: { allow: ['edit(src/**)'], deny: ['edit(secret/**)'], defaultMode: 'allow' },
    workspaceFolders: [WS],
    home: HOME,
    tools,
  });
  assert.deepEqual(policy.problems, []);
  const copy = (source: string, destination: string) => ({ tool: 'copy_file', input: { source, destination } });
  // The edit group covers it, like write_file.
  assert.equal(decide(copy('src/a.ts', 'src/b.ts'), policy).rule, 'edit(src/**)');
  // Protected paths ask whatever the mode says — for either path it names.
  const hook = decide(copy('src/a.ts', '.git/hooks/pre-commit'), policy);
  assert.deepEqual([hook.decision, hook.source], ['ask', 'protected']);
  const deny = decide(copy('secret/key', 'src/b.ts'), policy);
  assert.deepEqual([deny.decision, deny.rule], ['deny', 'edit(secret/**)']);
  const outside = decide(copy('src/a.ts', '/etc/passwd'), policy);
  assert.deepEqual([outside.decision, outside.source], ['ask', 'confinement']);
  // A read tool is in the read group and refused secret locations.
  const key = decide({ tool: 'peek', input: { file: `${HOME}/.ssh/id_rsa` } }, policy);
  assert.deepEqual([key.decision, key.source], ['deny', 'confinement']);
  // "Always allow" names the group for a writer with one path; never for two.
  const ask = createPolicy({ workspaceFolders: [WS], home: HOME, tools });
  assert.equal(suggestRule({ tool: 'peek', input: { file: '/opt/x/y.txt' } }, ask), 'read(/opt/x/**)');
  assert.equal(suggestRule(copy('src/a.ts', 'lib/b.ts'), ask), undefined);
});

test('the gate resolves every path the declaration names to its real path', async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-decl-')));
  const ports = createNodePorts({ root });
  const policy = createPolicy({
    user: { defaultMode: 'allow' },
    workspaceFolders: [root],
    home: HOME,
    tools: [...declaredToolFacts(), copyFileTool],
  });
  const gate = { policy: () => policy, rememberRule: async () => {} };
  const inside = await judgeCall(
    gate,
    { tool: 'copy_file', kind: 'write', input: { source: 'a', destination: 'b' } },
    ports.workspace,
  );
  assert.equal(inside.decision, 'allow');
  const git = await judgeCall(
    gate,
    { tool: 'copy_file', kind: 'write', input: { source: 'a', destination: '.git/config' } },
    ports.workspace,
  );
  assert.deepEqual([git.decision, git.source], ['ask', 'protected']);
});

test('each tool names the modes that offer it', () => {
  const names = (mode: 'agent' | 'plan' | 'chat' | 'research') =>
    toolsForMode(mode, { trusted: true }).map((t) => t.name);
  const planReads = ['read_file', 'glob', 'grep', 'ls', 'submit_plan', 'problems', 'definition', 'references', 'hover'];
  assert.ok(names('plan').every((n) => [...planReads, 'symbols'].includes(n)));
  assert.deepEqual(names('chat'), []);
  for (const t of declaredToolFacts()) assert.ok('permission' in t && t.permission.subject, t.name);
});
