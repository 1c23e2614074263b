// The agent loop with the real tools on a real temporary workspace, through the real SDKs against
// the fake LLM server, for both wire formats.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { runTurn, type TurnEvent, type TurnOutcome } from '../../../extension/core/agent/turn';
import { builtinTools, createToolRegistry, createToolSessionState } from '../../../extension/core/tools/registry';
import * as openai from '../../../extension/core/providers/openai';
import * as anthropic from '../../../extension/core/providers/anthropic';
import type { ModelMessage, Provider } from '../../../extension/core/providers/types';
import { startFakeLlm, type FakeReply, type RecordedRequest } from '../../fixtures/fake-llm';
import { createNodePorts, makeTempWorkspace } from '../../fixtures/node-ports';

const fakePromise = startFakeLlm();
after(async () => (await fakePromise).close());

async function providerFor(kind: 'openai' | 'anthropic'): Promise<Provider> {
  const fake = await fakePromise;
  const mod = kind === 'openai' ? openai : anthropic;
  return mod.createProvider(
    { name: 'fake', kind, baseUrl: kind === 'openai' ? `${fake.baseUrl}/v1` : fake.baseUrl },
    'sk-test',
  );
}

async function drive(kind: 'openai' | 'anthropic', root: string, prompt: string, maxSteps = 10) {
  const ports = createNodePorts({ root });
  const events: TurnEvent[] = [];
  const history: ModelMessage[] = [];
  const turn = runTurn([{ role: 'user', content: prompt }], {
    sessionId: 's',
    provider: await providerFor(kind),
    model: 'fake-model',
    system: 'agent',
    tools: createToolRegistry(builtinTools()),
    toolSession: createToolSessionState('s'),
    ports,
    maxSteps,
    supportsImages: false,
    signal: new AbortController().signal,
    now: () => Date.now(),
  });
  let outcome: TurnOutcome;
  for (;;) {
    const next = await turn.next();
    if (next.done) {
      outcome = next.value;
      break;
    }
    events.push(next.value);
    if (next.value.type === 'history') history.push(...next.value.messages);
  }
  return { events, history, outcome };
}

/** The text of every tool result the model was sent in a request, in either wire format. */
function toolResultsIn(req: RecordedRequest): string {
  return JSON.stringify(req.body);
}

for (const kind of ['openai', 'anthropic'] as const) {
  test(`${kind}: a multi-step session reads (two files in parallel), edits, and runs a command`, async () => {
    const fake = await fakePromise;
    fake.reset();
    const root = await makeTempWorkspace({
      'src/app.js': 'const greeting = "hello";\nconsole.log(greeting);\n',
      'README.md': '# demo\n',
    });
    const steps: FakeReply[] = [
      {
        toolCalls: [
          { name: 'read_file', arguments: { file_path: 'src/app.js' } },
          { name: 'read_file', arguments: { file_path: 'README.md' } },
        ],
      },
      {
        text: 'Changing the greeting.',
        toolCalls: [
          {
            name: 'edit_file',
            arguments: { file_path: 'src/app.js', old_string: '"hello"', new_string: '"hello, sextant"' },
          },
        ],
      },
      { toolCalls: [{ name: 'bash', arguments: { command: 'node src/app.js' } }] },
      { text: 'Done: it now prints hello, sextant.' },
    ];
    fake.enqueue(...steps);
    const { events, outcome } = await drive(kind, root, 'change the greeting and run it');
    assert.deepEqual(outcome, { kind: 'done' });
    assert.equal(fake.requests.length, 4);
    assert.equal(
      await fs.readFile(path.join(root, 'src/app.js'), 'utf8'),
      'const greeting = "hello, sextant";\nconsole.log(greeting);\n',
    );
    // What the model saw: both file contents after step 1, the command output after step 3.
    assert.match(toolResultsIn(fake.requests[1]), /const greeting = \\"hello\\"/);
    assert.match(toolResultsIn(fake.requests[1]), /# demo/);
    assert.match(toolResultsIn(fake.requests[3]), /hello, sextant/);
    const finished = events.flatMap((e) =>
      e.type === 'tool_updated' && ['ok', 'error'].includes(e.call.status) ? [`${e.call.name}:${e.call.status}`] : [],
    );
    assert.deepEqual(finished, ['read_file:ok', 'read_file:ok', 'edit_file:ok', 'bash:ok']);
    assert.ok(
      events.some((e) => e.type === 'tool_progress' && e.output.includes('hello, sextant')),
      'bash output streamed to the card',
    );
  });

  test(`${kind}: a malformed tool call goes back to the model, which corrects it on the next step`, async () => {
    const fake = await fakePromise;
    fake.reset();
    const root = await makeTempWorkspace({ 'notes.txt': 'alpha\n' });
    fake.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { file_path: 'notes.txt' } }] },
      { toolCalls: [{ name: 'edit_file', arguments: '{"file_path": "notes.txt", "new_string": "beta"' }] },
      { toolCalls: [{ name: 'edit_file', arguments: { file_path: 'notes.txt', new_string: 'beta' } }] },
      {
        toolCalls: [
          { name: 'edit_file', arguments: { file_path: 'notes.txt', old_string: 'alpha', new_string: 'beta' } },
        ],
      },
      { text: 'fixed' },
    );
    const { history, outcome } = await drive(kind, root, 'replace alpha');
    assert.deepEqual(outcome, { kind: 'done' });
    const results = history.filter((m): m is Extract<ModelMessage, { role: 'tool' }> => m.role === 'tool');
    assert.equal(results.length, 4);
    assert.equal(results[1].isError, true, 'invalid JSON is an error result');
    assert.equal(results[2].isError, true, 'a missing field is an error result');
    assert.match(JSON.stringify(results[2].content), /old_string/, 'the error names the field to fix');
    assert.equal(results[3].isError, false);
    assert.equal(await fs.readFile(path.join(root, 'notes.txt'), 'utf8'), 'beta\n');
  });

  test(`${kind}: maxSteps bounds a model that never stops calling tools`, async () => {
    const fake = await fakePromise;
    fake.reset();
    const root = await makeTempWorkspace({ 'a.txt': 'x\n' });
    fake.onRequest(() => ({ toolCalls: [{ name: 'ls', arguments: {} }] }));
    try {
      const { events, outcome } = await drive(kind, root, 'loop forever', 3);
      assert.deepEqual(outcome, { kind: 'max_steps', steps: 3 });
      assert.equal(fake.requests.length, 3);
      assert.ok(events.some((e) => e.type === 'notice' && /maxSteps/.test(e.text)));
    } finally {
      fake.onRequest(undefined);
    }
  });
}
