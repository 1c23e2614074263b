// What each provider kind puts on the wire for a conversation with images, tool calls, thinking and
// tool results (recorded by the fake server from the real SDKs' requests).
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createProvider as createOpenAi } from '../../../extension/core/providers/openai';
import type { ModelMessage, ProviderConfig, ProviderRequest } from '../../../extension/core/providers/types';
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm';
import { collect, KINDS } from './harness';

let fake: FakeLlm;
before(async () => {
  fake = await startFakeLlm();
});
after(() => fake.close());
beforeEach(() => fake.reset());

const PNG = 'iVBORw0KGgo=';

const history: ModelMessage[] = [
  {
    role: 'user',
    content: [
      { type: 'text', text: 'What is in this picture?' },
      { type: 'image', mediaType: 'image/png', dataBase64: PNG },
    ],
  },
  {
    role: 'assistant',
    text: 'Let me read the file.',
    thinking: 'The user wants the file.',
    thinkingSignature: 'sig-1',
    toolCalls: [
      { id: 'call_a', name: 'read_file', argumentsJson: '{"path":"a.png"}' },
      { id: 'call_b', name: 'ls', argumentsJson: '{"path":"."}' },
    ],
  },
  {
    role: 'tool',
    toolCallId: 'call_a',
    toolName: 'read_file',
    isError: false,
    content: [
      { type: 'text', text: 'binary image' },
      { type: 'image', mediaType: 'image/png', dataBase64: PNG },
    ],
  },
  {
    role: 'tool',
    toolCallId: 'call_b',
    toolName: 'ls',
    isError: true,
    content: [{ type: 'text', text: 'permission denied' }],
  },
];

const req: ProviderRequest = {
  model: 'fake-model',
  system: 'SYSTEM PROMPT',
  messages: history,
  tools: [
    {
      name: 'read_file',
      description: 'Reads a file',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
  ],
  maxTokens: 1000,
};

/** The value at `path` inside a request body (undefined when a step is missing); `length` works on arrays. */
function at(value: unknown, ...path: Array<string | number>): unknown {
  let cur = value;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[key];
  }
  return cur;
}

describe('anthropic wire format', () => {
  test('system and last message carry cache breakpoints; thinking, tool_use and tool_result round-trip', async () => {
    const kind = KINDS.find((k) => k.kind === 'anthropic');
    assert.ok(kind);
    await collect(kind.make(fake).stream(req, new AbortController().signal));
    const body = fake.requests[0]?.body;
    assert.deepEqual(at(body, 'system'), [
      { type: 'text', text: 'SYSTEM PROMPT', cache_control: { type: 'ephemeral' } },
    ]);
    assert.equal(at(body, 'max_tokens'), 1000);
    assert.deepEqual(at(body, 'tools', 0), {
      name: 'read_file',
      description: 'Reads a file',
      input_schema: req.tools?.[0]?.inputSchema,
    });
    assert.equal(at(body, 'messages', 'length'), 3, 'user, assistant, one user turn holding both tool results');
    assert.deepEqual(
      at(body, 'messages', 0, 'content', 1),
      {
        type: 'image',
        source: { type: 'base64', media_type: 'image/png', data: PNG },
        cache_control: { type: 'ephemeral' },
      },
      'the user turn before the last one is a breakpoint too (where the previous request ended)',
    );
    assert.deepEqual(at(body, 'messages', 1, 'content'), [
      { type: 'thinking', thinking: 'The user wants the file.', signature: 'sig-1' },
      { type: 'text', text: 'Let me read the file.' },
      { type: 'tool_use', id: 'call_a', name: 'read_file', input: { path: 'a.png' } },
      { type: 'tool_use', id: 'call_b', name: 'ls', input: { path: '.' } },
    ]);
    const results = at(body, 'messages', 2, 'content');
    assert.equal(at(results, 0, 'tool_use_id'), 'call_a');
    assert.equal(at(results, 0, 'content', 1, 'type'), 'image');
    assert.equal(at(results, 0, 'is_error'), undefined);
    assert.equal(at(results, 0, 'cache_control'), undefined);
    assert.equal(at(results, 1, 'is_error'), true);
    assert.deepEqual(
      at(results, 1, 'cache_control'),
      { type: 'ephemeral' },
      'the last block of the last message is a breakpoint',
    );
  });

  test('max_tokens defaults to 8192', async () => {
    const kind = KINDS.find((k) => k.kind === 'anthropic');
    assert.ok(kind);
    await collect(
      kind
        .make(fake)
        .stream({ model: 'm', system: '', messages: [{ role: 'user', content: 'hi' }] }, new AbortController().signal),
    );
    const body = fake.requests[0]?.body;
    assert.equal(at(body, 'max_tokens'), 8192);
    assert.equal(at(body, 'system'), undefined);
    assert.deepEqual(at(body, 'messages', 0, 'content'), [
      { type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } },
    ]);
  });
});

describe('openai wire format', () => {
  function provider(extra: Partial<ProviderConfig> = {}) {
    return createOpenAi({ name: 'fakeai', kind: 'openai', baseUrl: `${fake.baseUrl}/v1`, ...extra }, 'sk-test');
  }

  test('messages, tool calls, tool results and images map to chat-completions', async () => {
    await collect(provider().stream(req, new AbortController().signal));
    const body = fake.requests[0]?.body;
    assert.equal(at(body, 'max_tokens'), 1000);
    assert.deepEqual(at(body, 'tools', 0), {
      type: 'function',
      function: { name: 'read_file', description: 'Reads a file', parameters: req.tools?.[0]?.inputSchema },
    });
    const m = at(body, 'messages');
    assert.deepEqual(at(m, 0), { role: 'system', content: 'SYSTEM PROMPT' });
    assert.deepEqual(at(m, 1, 'content', 1), { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } });
    assert.equal(at(m, 2, 'role'), 'assistant');
    assert.equal(at(m, 2, 'content'), 'Let me read the file.');
    assert.deepEqual(at(m, 2, 'tool_calls', 1), {
      id: 'call_b',
      type: 'function',
      function: { name: 'ls', arguments: '{"path":"."}' },
    });
    assert.equal(at(m, 2, 'reasoning_content'), undefined, 'no reasoning replay unless the provider asks for it');
    assert.equal(at(m, 3, 'role'), 'tool');
    assert.equal(at(m, 3, 'tool_call_id'), 'call_a');
    assert.equal(at(m, 4, 'tool_call_id'), 'call_b');
    assert.match(String(at(m, 4, 'content')), /^Error: permission denied/);
    // Tool messages cannot hold images: they follow the run of tool results as a user message.
    assert.equal(at(m, 5, 'role'), 'user');
    assert.equal(at(m, 5, 'content', 1, 'type'), 'image_url');
    assert.equal(at(m, 'length'), 6);
  });

  test('provider quirks: reasoning replay, max_completion_tokens, extra body, headers', async () => {
    await collect(
      provider({
        reasoningReplay: 'reasoning_content',
        maxTokensParam: 'max_completion_tokens',
        extraBody: { reasoning_split: true },
        headers: { 'X-Title': 'Sextant' },
      }).stream(req, new AbortController().signal),
    );
    const r = fake.requests[0];
    const body = r?.body;
    assert.equal(at(body, 'messages', 2, 'reasoning_content'), 'The user wants the file.');
    assert.equal(at(body, 'max_completion_tokens'), 1000);
    assert.equal(at(body, 'max_tokens'), undefined);
    assert.equal(at(body, 'reasoning_split'), true);
    assert.equal(r?.headers['x-title'], 'Sextant');
  });

  test('reasoning_details replay (MiniMax)', async () => {
    await collect(provider({ reasoningReplay: 'reasoning_details' }).stream(req, new AbortController().signal));
    const body = fake.requests[0]?.body;
    assert.deepEqual(at(body, 'messages', 2, 'reasoning_details'), [
      { type: 'reasoning.text', text: 'The user wants the file.' },
    ]);
  });

  test('a keyless provider still works (placeholder key, no environment leakage)', async () => {
    const saved = process.env.OPENAI_ORG_ID;
    process.env.OPENAI_ORG_ID = 'org-should-not-leak';
    try {
      const p = createOpenAi(
        { name: 'local', kind: 'openai', baseUrl: `${fake.baseUrl}/v1`, keyless: true },
        undefined,
      );
      const r = await collect(
        p.stream({ model: 'm', system: '', messages: [{ role: 'user', content: 'hi' }] }, new AbortController().signal),
      );
      assert.equal(r.error, undefined);
      assert.equal(fake.requests[0]?.headers['openai-organization'], undefined);
    } finally {
      if (saved === undefined) delete process.env.OPENAI_ORG_ID;
      else process.env.OPENAI_ORG_ID = saved;
    }
  });
});
