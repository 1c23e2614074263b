// The vscode-lm provider kind through a fake LanguageModelsPort (what the VS Code adapter implements):
// the system prompt's place, tool calls and their ids both ways, usage from the model's tokenizer,
// abort, and every failure the API reports turned into a message the user can act on.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createVscodeLmProvider, NO_LM_MODEL_MESSAGE, toLmMessages } from '../../../extension/core/providers/vscode-lm';
import type {
  LanguageModelsPort,
  LmMessage,
  LmModelInfo,
  LmRequestOptions,
  LmResponsePart,
} from '../../../extension/core/ports';
import type { ModelMessage, ProviderConfig } from '../../../extension/core/providers/types';
import { runTurn } from '../../../extension/core/agent/turn';
import { createToolRegistry } from '../../../extension/core/tools/registry';
import { collect, request } from './harness';
import { readTool } from '../agent/harness';

const CONFIG: ProviderConfig = { name: 'vscode-lm', kind: 'vscode-lm', keyless: true };
const GPT: LmModelInfo = {
  id: 'copilot-gpt-4o',
  name: 'GPT-4o',
  vendor: 'copilot',
  family: 'gpt-4o',
  maxInputTokens: 64_000,
};

type Reply = LmResponsePart[] | Error | ((signal: AbortSignal) => AsyncIterable<LmResponsePart>);

interface Sent {
  modelId: string;
  messages: LmMessage[];
  options: LmRequestOptions;
}

/** A fake Language Model API: scripted replies, and a record of what was sent. */
function fakePort(models: LmModelInfo[], replies: Reply[]): LanguageModelsPort & { sent: Sent[]; counted: string[] } {
  const sent: Sent[] = [];
  const counted: string[] = [];
  return {
    sent,
    counted,
    list: async () => models,
    async send(modelId, messages, options, signal) {
      sent.push({ modelId, messages: structuredClone(messages), options: structuredClone(options) });
      const reply = replies.shift();
      if (!reply) throw new Error('fake port: no reply left');
      if (reply instanceof Error) throw reply;
      if (typeof reply === 'function') return reply(signal);
      return (async function* () {
        yield* reply;
      })();
    },
    async countTokens(_modelId, text) {
      counted.push(text);
      return Math.ceil(text.length / 4);
    },
  };
}

const lmError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('vscode-lm messages', () => {
  test('the system prompt is the first user message; tool calls keep their ids; results share a user message', () => {
    const history: ModelMessage[] = [
      { role: 'user', content: 'List the folder' },
      {
        role: 'assistant',
        text: 'Looking.',
        thinking: 'private',
        toolCalls: [
          { id: 'call_1', name: 'ls', argumentsJson: '{"path":"."}' },
          { id: 'call_2', name: 'read_file', argumentsJson: 'not json' },
        ],
      },
      { role: 'tool', toolCallId: 'call_1', toolName: 'ls', isError: false, content: [{ type: 'text', text: 'a.ts' }] },
      {
        role: 'tool',
        toolCallId: 'call_2',
        toolName: 'read_file',
        isError: true,
        content: [
          { type: 'text', text: 'bad input' },
          { type: 'image', mediaType: 'image/png', dataBase64: 'AA==' },
        ],
      },
      { role: 'assistant', text: 'Done.' },
    ];
    assert.deepEqual(toLmMessages('SYSTEM', history), [
      { role: 'user', parts: [{ type: 'text', text: 'SYSTEM' }] },
      { role: 'user', parts: [{ type: 'text', text: 'List the folder' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'text', text: 'Looking.' },
          { type: 'tool_call', callId: 'call_1', name: 'ls', input: { path: '.' } },
          { type: 'tool_call', callId: 'call_2', name: 'read_file', input: {} },
        ],
      },
      {
        role: 'user',
        parts: [
          { type: 'tool_result', callId: 'call_1', text: 'a.ts' },
          {
            type: 'tool_result',
            callId: 'call_2',
            text: 'Error: bad input\n[image (image/png) not sent to this model]',
          },
        ],
      },
      { role: 'assistant', parts: [{ type: 'text', text: 'Done.' }] },
    ]);
    assert.deepEqual(toLmMessages('', [{ role: 'user', content: 'hi' }]), [
      { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
    ]);
  });
});

describe('vscode-lm provider', () => {
  test('streams text and complete tool calls, counts tokens with the model, and sends the tools', async () => {
    const port = fakePort(
      [GPT],
      [
        [
          { type: 'text', text: 'Let me ' },
          { type: 'text', text: 'look.' },
          { type: 'tool_call', callId: 'tc-9', name: 'peek', input: { path: 'a.ts' } },
        ],
      ],
    );
    const provider = createVscodeLmProvider(CONFIG, port);
    const tools = [{ name: 'peek', description: 'reads', inputSchema: { type: 'object' } }];
    const got = await collect(
      provider.stream(request('hi', { model: 'copilot-gpt-4o', tools }), new AbortController().signal),
    );
    assert.equal(got.error, undefined);
    assert.equal(got.text, 'Let me look.');
    assert.deepEqual(
      got.events.filter((e) => e.type === 'tool_call'),
      [{ type: 'tool_call', call: { id: 'tc-9', name: 'peek', argumentsJson: '{"path":"a.ts"}' } }],
    );
    assert.deepEqual(got.events.at(-1), { type: 'done', stopReason: 'tool_calls' });
    const usage = got.events.find((e) => e.type === 'usage');
    assert.ok(usage?.type === 'usage' && usage.usage.inputTokens > 0 && usage.usage.outputTokens > 0);
    assert.equal(usage.usage.cachedTokens, 0);
    // The prompt counted includes the system prompt, the message and the tool specs.
    assert.match(port.counted[0] ?? '', /You are terse\.[\s\S]*hi[\s\S]*peek reads/);
    const sent = port.sent[0];
    assert.equal(sent?.modelId, 'copilot-gpt-4o');
    assert.deepEqual(sent?.messages[0], { role: 'user', parts: [{ type: 'text', text: 'You are terse.' }] });
    assert.deepEqual(sent?.options.tools, tools);
    assert.ok(sent?.options.justification);
  });

  test('a tool round trip through the turn loop: the result goes back under the call id the model gave', async () => {
    const port = fakePort(
      [GPT],
      [
        [{ type: 'tool_call', callId: 'copilot-call-1', name: 'peek', input: { path: 'x.md' } }],
        [{ type: 'text', text: 'It says hello.' }],
      ],
    );
    const provider = createVscodeLmProvider(CONFIG, port);
    const log: string[] = [];
    const turn = runTurn([{ role: 'user', content: 'read x.md' }], {
      sessionId: 's',
      provider,
      model: 'copilot-gpt-4o',
      system: 'SYS',
      tools: createToolRegistry([readTool(log, 0)]),
      toolSession: { sessionId: 's', readFiles: new Map(), todos: [], extras: new Map() },
      ports: {
        workspace: {} as never,
        search: { ripgrepPath: () => undefined },
        terminal: {},
        approval: { request: async () => ({ decision: 'approve' }) },
        ask: { ask: async () => [] },
        log: { info() {}, warn() {}, error() {} },
      },
      maxSteps: 5,
      supportsImages: false,
      signal: new AbortController().signal,
      now: () => 0,
    });
    const events = [];
    for await (const ev of turn) events.push(ev);
    assert.deepEqual(log, ['start x.md', 'end x.md']);
    const second = port.sent[1]?.messages ?? [];
    assert.deepEqual(second.at(-2), {
      role: 'assistant',
      parts: [{ type: 'tool_call', callId: 'copilot-call-1', name: 'peek', input: { path: 'x.md' } }],
    });
    const result = second.at(-1);
    assert.equal(result?.role, 'user');
    assert.equal(result?.parts[0]?.type, 'tool_result');
    assert.ok(result?.parts[0]?.type === 'tool_result' && result.parts[0].callId === 'copilot-call-1');
    assert.match(result?.parts[0]?.type === 'tool_result' ? result.parts[0].text : '', /contents of x\.md/);
    assert.ok(events.some((e) => e.type === 'text_delta' && e.text === 'It says hello.'));
    // No price for VS Code's models: the usage carries tokens and no made-up cost.
    const usage = events.filter((e) => e.type === 'usage').at(-1);
    assert.ok(usage?.type === 'usage' && usage.usage.inputTokens > 0 && usage.usage.costUsd === undefined);
  });

  test('no model installed: the error says so and what to install', async () => {
    const provider = createVscodeLmProvider(CONFIG, fakePort([], []));
    const got = await collect(
      provider.stream(request('hi', { model: 'copilot-gpt-4o' }), new AbortController().signal),
    );
    assert.equal(got.error?.code, 'bad_request');
    assert.equal(got.error?.message, NO_LM_MODEL_MESSAGE);
    assert.match(NO_LM_MODEL_MESSAGE, /GitHub Copilot Chat/);
  });

  test('an unknown model names the installed ones; a bare reference takes the first', async () => {
    const port = fakePort([GPT], [[{ type: 'text', text: 'ok' }]]);
    const provider = createVscodeLmProvider(CONFIG, port);
    const missing = await collect(provider.stream(request('hi', { model: 'gone' }), new AbortController().signal));
    assert.equal(missing.error?.code, 'bad_request');
    assert.match(missing.error?.message ?? '', /"gone" is installed\. Installed: vscode-lm\/copilot-gpt-4o/);
    const bare = await collect(provider.stream(request('hi', { model: '' }), new AbortController().signal));
    assert.equal(bare.text, 'ok');
    assert.equal(port.sent[0]?.modelId, 'copilot-gpt-4o');
  });

  test("the API's failures become errors the user can act on", async () => {
    const cases: Array<[Error, string, RegExp]> = [
      [lmError('NoPermissions', 'consent denied'), 'auth', /did not let Sextant use.*Manage Language Model Access/],
      [lmError('Blocked', 'quota exceeded'), 'rate_limit', /blocked for now.*quota exceeded/],
      [lmError('NotFound', 'model removed'), 'bad_request', /not available any more.*Pick another model/],
      [new Error('boom'), 'server', /GPT-4o \(copilot\) failed: boom/],
    ];
    for (const [err, code, message] of cases) {
      const provider = createVscodeLmProvider(CONFIG, fakePort([GPT], [err]));
      const got = await collect(provider.stream(request('hi', { model: GPT.id }), new AbortController().signal));
      assert.equal(got.error?.code, code, err.message);
      assert.match(got.error?.message ?? '', message);
      assert.equal(got.error?.afterFirstToken, false);
    }
  });

  test('a failure mid-stream is marked after the first token; Stop ends the stream as aborted', async () => {
    const midway = createVscodeLmProvider(
      CONFIG,
      fakePort(
        [GPT],
        [
          () =>
            (async function* () {
              yield { type: 'text' as const, text: 'partial' };
              throw lmError('Unknown', 'connection lost');
            })(),
        ],
      ),
    );
    const broken = await collect(midway.stream(request('hi', { model: GPT.id }), new AbortController().signal));
    assert.equal(broken.text, 'partial');
    assert.equal(broken.error?.code, 'server');
    assert.equal(broken.error?.afterFirstToken, true);

    const abort = new AbortController();
    const hanging = createVscodeLmProvider(
      CONFIG,
      fakePort(
        [GPT],
        [
          (signal) =>
            (async function* () {
              yield { type: 'text' as const, text: 'first' };
              // An extension that never ends its stream: only the abort signal gets the provider out.
              await new Promise<void>(() => undefined);
              yield { type: 'text' as const, text: String(signal.aborted) };
            })(),
        ],
      ),
    );
    const got = await collect(hanging.stream(request('hi', { model: GPT.id }), abort.signal), (e) => {
      if (e.type === 'text') abort.abort();
    });
    assert.equal(got.text, 'first');
    assert.equal(got.error?.code, 'aborted');
    const before = await collect(hanging.stream(request('hi', { model: GPT.id }), abort.signal));
    assert.equal(before.error?.code, 'aborted');
  });
});
