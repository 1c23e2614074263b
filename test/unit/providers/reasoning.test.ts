// The model picker's reasoning option on the wire, through the real SDKs against the fake LLM server:
// Anthropic extended thinking (budget, max_tokens, no temperature) and OpenAI-style reasoning_effort;
// Anthropic's thinking streamed as thinking deltas and its signed (and redacted) blocks sent back in
// order before the tool_use of the same turn; a tool loop answered by the user closed with a note so
// thinking can start; thinking left off when a still-open tool loop ran without it.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createProvider as createAnthropic, THINKING_BUDGET } from '../../../extension/core/providers/anthropic';
import { createProvider as createOpenAi } from '../../../extension/core/providers/openai';
import { runTurn, type TurnEvent } from '../../../extension/core/agent/turn';
import { createToolRegistry } from '../../../extension/core/tools/registry';
import type { ModelMessage, Provider, ReasoningEffort } from '../../../extension/core/providers/types';
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm';
import { readTool } from '../agent/harness';
import { collect, request } from './harness';

let fake: FakeLlm;
before(async () => {
  fake = await startFakeLlm();
});
after(() => fake.close());
beforeEach(() => fake.reset());

const anthropic = () => createAnthropic({ name: 'claude', kind: 'anthropic', baseUrl: fake.baseUrl }, 'sk-ant-test');
const openai = () => createOpenAi({ name: 'oai', kind: 'openai', baseUrl: `${fake.baseUrl}/v1` }, 'sk-test');

function body(n = 0): Record<string, unknown> {
  return fake.requests[n]?.body as Record<string, unknown>;
}

describe('reasoning on the wire', () => {
  for (const [effort, budget] of Object.entries(THINKING_BUDGET) as Array<[ReasoningEffort, number]>) {
    test(`anthropic ${effort}: thinking enabled with its budget, max_tokens leaves the answer its room`, async () => {
      fake.enqueue({ text: 'ok' });
      const got = await collect(
        anthropic().stream(
          request('hi', { reasoning: effort, maxTokens: 1000, temperature: 0.2 }),
          new AbortController().signal,
        ),
      );
      assert.equal(got.error, undefined);
      assert.deepEqual(body().thinking, { type: 'enabled', budget_tokens: budget });
      assert.equal(body().max_tokens, 1000 + budget);
      // The API refuses a temperature with thinking on.
      assert.equal('temperature' in body(), false);
      assert.ok(budget >= 1024);
    });
  }

  test('anthropic off: no thinking field, the plain max_tokens and the temperature asked for', async () => {
    fake.enqueue({ text: 'ok' });
    await collect(
      anthropic().stream(request('hi', { maxTokens: 1000, temperature: 0.2 }), new AbortController().signal),
    );
    assert.equal('thinking' in body(), false);
    assert.equal(body().max_tokens, 1000);
    assert.equal(body().temperature, 0.2);
  });

  test('openai-compatible: reasoning_effort as chosen, and nothing when off', async () => {
    fake.enqueue({ text: 'a' }, { text: 'b' });
    await collect(openai().stream(request('hi', { reasoning: 'high' }), new AbortController().signal));
    await collect(openai().stream(request('hi'), new AbortController().signal));
    assert.equal(body(0).reasoning_effort, 'high');
    assert.equal('reasoning_effort' in body(1), false);
  });
});

const ports = {
  workspace: {} as never,
  search: { ripgrepPath: () => undefined },
  terminal: {},
  approval: { request: async () => ({ decision: 'approve' as const }) },
  ask: { ask: async () => [] },
  log: { info() {}, warn() {}, error() {} },
};

async function drive(provider: Provider, history: ModelMessage[], reasoning?: ReasoningEffort) {
  const events: TurnEvent[] = [];
  const turn = runTurn(history, {
    sessionId: 's',
    provider,
    model: 'claude-sonnet-4-5',
    system: 'SYS',
    tools: createToolRegistry([readTool([], 0)]),
    toolSession: { sessionId: 's', readFiles: new Map(), todos: [], extras: new Map() },
    ports,
    maxSteps: 5,
    supportsImages: false,
    signal: new AbortController().signal,
    now: () => 0,
    ...(reasoning ? { reasoning } : {}),
  });
  for await (const ev of turn) events.push(ev);
  return events;
}

describe('anthropic thinking through the turn loop', () => {
  test('thinking streams as thinking deltas; the signed and redacted blocks go back before tool_use', async () => {
    fake.enqueue(
      {
        thinking: ['I should read ', 'the file first.'],
        thinkingSignature: 'sig-abc',
        redactedThinking: 'ENCRYPTED',
        toolCalls: [{ id: 'toolu_1', name: 'peek', arguments: { path: 'a.md' } }],
      },
      { thinking: 'Now answer.', thinkingSignature: 'sig-def', text: 'It is fine.' },
    );
    const events = await drive(anthropic(), [{ role: 'user', content: 'check a.md' }], 'medium');
    const thinking = events.flatMap((e) => (e.type === 'thinking_delta' ? [e.text] : [])).join('');
    assert.equal(thinking, 'I should read the file first.Now answer.');
    assert.equal(fake.requests.length, 2);
    // Both requests of the tool loop carry the same thinking configuration.
    for (const n of [0, 1])
      assert.deepEqual(body(n).thinking, { type: 'enabled', budget_tokens: THINKING_BUDGET.medium });
    const messages = body(1).messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    const assistant = messages[1];
    assert.equal(assistant?.role, 'assistant');
    assert.deepEqual(
      assistant?.content.map((b) => b.type),
      ['thinking', 'redacted_thinking', 'tool_use'],
    );
    assert.equal(assistant?.content[0]?.thinking, 'I should read the file first.');
    assert.equal(assistant?.content[0]?.signature, 'sig-abc');
    assert.equal(assistant?.content[1]?.data, 'ENCRYPTED');
    assert.equal(assistant?.content[2]?.id, 'toolu_1');
    // Thinking blocks never carry a cache breakpoint.
    assert.ok(assistant?.content.slice(0, 2).every((b) => !('cache_control' in b)));
    // The history keeps every block for later turns.
    const kept = events.flatMap((e) => (e.type === 'history' ? e.messages : [])).find((m) => m.role === 'assistant');
    assert.deepEqual(kept?.role === 'assistant' ? kept.thinkingBlocks : undefined, [
      { type: 'thinking', text: 'I should read the file first.', signature: 'sig-abc' },
      { type: 'redacted', data: 'ENCRYPTED' },
    ]);
  });

  test('a plan made without thinking, then approved: a note closes the loop and the execution thinks', async () => {
    const history: ModelMessage[] = [
      { role: 'user', content: 'plan it' },
      { role: 'assistant', text: '', toolCalls: [{ id: 'toolu_p', name: 'submit_plan', argumentsJson: '{}' }] },
      {
        role: 'tool',
        toolCallId: 'toolu_p',
        toolName: 'submit_plan',
        isError: false,
        content: [{ type: 'text', text: 'Plan submitted.' }],
      },
      { role: 'user', content: 'Carry out the approved plan.' },
    ];
    fake.enqueue(
      { thinking: 'Step one first.', toolCalls: [{ id: 'toolu_x', name: 'peek', arguments: { path: 'a' } }] },
      { thinking: 'Done now.', text: 'Done.' },
    );
    await drive(anthropic(), history, 'high');
    for (const n of [0, 1])
      assert.deepEqual(body(n).thinking, { type: 'enabled', budget_tokens: THINKING_BUDGET.high });
    const roles = (n: number) =>
      (body(n).messages as Array<{ role: string; content: Array<{ type: string; text?: string }> }>).map((m) =>
        m.content.map((b) => `${m.role}:${b.type}`).join(','),
      );
    assert.deepEqual(roles(0), ['user:text', 'assistant:tool_use', 'user:tool_result', 'assistant:text', 'user:text']);
    // The second step's request starts with the same messages (the prompt cache keeps working).
    assert.deepEqual(roles(1).slice(0, 5), roles(0));
    assert.deepEqual(roles(1).slice(5), ['assistant:thinking,assistant:tool_use', 'user:tool_result']);
    const note = (body(0).messages as Array<{ content: Array<{ text?: string }> }>)[3]?.content[0]?.text;
    assert.equal(note, '(Tool results received.)');
    // Without thinking nothing is inserted.
    fake.enqueue({ text: 'ok' });
    await drive(anthropic(), history);
    assert.equal(roles(2).length, 3, 'tool result and the user text share one user turn');
  });

  test('a tool loop still open whose assistant message has no thinking block goes without thinking', async () => {
    const open: ModelMessage[] = [
      { role: 'user', content: 'read a' },
      { role: 'assistant', text: '', toolCalls: [{ id: 'toolu_q', name: 'peek', argumentsJson: '{"path":"a"}' }] },
      { role: 'tool', toolCallId: 'toolu_q', toolName: 'peek', isError: false, content: [{ type: 'text', text: 'A' }] },
    ];
    fake.enqueue({ text: 'A it is.' });
    await collect(anthropic().stream(request('', { messages: open, reasoning: 'low' }), new AbortController().signal));
    assert.equal('thinking' in body(), false);
    assert.equal(body().max_tokens, 8192);
  });
});
