// Rules, nested rules and skills through the real controller, tools and OpenAI SDK against the fake LLM:
// what the model's requests actually carry.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as openai from '../../../extension/core/providers/openai';
import { builtinTools, createToolRegistry } from '../../../extension/core/tools/registry';
import { createSkillTool } from '../../../extension/core/extensions/skill-tool';
import { ProjectContext } from '../../../extension/core/extensions/project-context';
import { startFakeLlm } from '../../fixtures/fake-llm';
import { createNodePorts } from '../../fixtures/node-ports';
import { createHarness } from '../agent/harness';
import { projectOnDisk } from './helpers';

const fakePromise = startFakeLlm();
after(async () => (await fakePromise).close());

const systemOf = (body: unknown) => {
  const messages = (body as { messages: Array<{ role: string; content: unknown }> }).messages;
  return String(messages.find((m) => m.role === 'system')?.content ?? '');
};

test('rules in the prompt, subfolder rules with the first tool result below it, a skill by its tool', async () => {
  const fake = await fakePromise;
  const p = await projectOnDisk({
    'AGENTS.md': 'Always answer in British English.',
    'packages/ui/AGENTS.md': 'UI rule: every button needs an accessible name.',
    'packages/ui/button.ts': 'export const button = 1;\n',
    '.claude/skills/release/SKILL.md':
      '---\nname: release\ndescription: Cut a release\n---\nSTEP ONE: bump the version.',
  });
  const project = new ProjectContext(p.files);
  const ports = createNodePorts({ root: p.root });
  const tools = createToolRegistry([...builtinTools(), createSkillTool(project.files)]);
  const provider = openai.createProvider({ name: 'fake', kind: 'openai', baseUrl: `${fake.baseUrl}/v1` }, 'k');
  const h = createHarness({
    provider,
    project,
    workspace: ports.workspace,
    toolsFor: (mode) => (mode === 'agent' ? tools : undefined),
    systemPrompt: () => 'BASE PROMPT',
  });
  const first = fake.requests.length;
  fake.enqueue(
    { toolCalls: [{ name: 'read_file', arguments: { file_path: 'packages/ui/button.ts' } }] },
    { toolCalls: [{ name: 'skill', arguments: { name: 'release' } }] },
    { toolCalls: [{ name: 'read_file', arguments: { file_path: 'packages/ui/button.ts', offset: 1 } }] },
    { text: 'Done.' },
  );
  await h.controller.send('r1', 'Release the UI package', 'agent');
  const bodies = fake.requests.slice(first).map((r) => r.body);
  assert.equal(bodies.length, 4);
  const system = systemOf(bodies[0]);
  assert.ok(system.startsWith('BASE PROMPT\n\n# Rules from the user and the project'));
  assert.match(system, /<rules file="AGENTS.md">\nAlways answer in British English\.\n<\/rules>/);
  assert.match(system, /# Skills[\s\S]*- release: Cut a release/);
  assert.ok(!system.includes('STEP ONE'), 'skill bodies are not in the prompt');
  assert.ok(!system.includes('UI rule'), 'subfolder rules are not in the prompt');
  // The prompt is the same for every step: the cached prefix holds.
  for (const b of bodies) assert.equal(systemOf(b), system);
  const second = JSON.stringify(bodies[1]);
  assert.match(second, /UI rule: every button needs an accessible name\./);
  assert.match(JSON.stringify(bodies[2]), /STEP ONE: bump the version\./);
  // Given once per chat: the second read below packages/ui carries no rules again.
  assert.equal(JSON.stringify(bodies[3]).split('UI rule').length - 1, 1);

  // An edit to AGENTS.md reaches the next request.
  await fs.writeFile(path.join(p.root, 'AGENTS.md'), 'Answer in French.');
  fake.enqueue({ text: 'Oui.' });
  await h.controller.send('r2', 'Hello', 'agent');
  assert.match(systemOf(fake.requests.at(-1)?.body), /Answer in French\./);
});

test('chat mode gets the rules but no skills list (it has no tool to load one)', async () => {
  const fake = await fakePromise;
  const p = await projectOnDisk({
    'CLAUDE.md': 'Be brief.',
    '.sextant/skills/x/SKILL.md': '---\nname: x\ndescription: X skill\n---\nbody',
  });
  const provider = openai.createProvider({ name: 'fake', kind: 'openai', baseUrl: `${fake.baseUrl}/v1` }, 'k');
  const h = createHarness({ provider, project: new ProjectContext(p.files), systemPrompt: () => 'CHAT' });
  fake.enqueue({ text: 'Hi.' });
  await h.controller.send('c1', 'Hello', 'chat');
  const system = systemOf(fake.requests.at(-1)?.body);
  assert.match(system, /<rules file="CLAUDE.md">\nBe brief\.\n<\/rules>/);
  assert.ok(!system.includes('# Skills'));
});
