// The engine → ACP mapping on its own: tool kinds and statuses, stop reasons (a budget's nearest), the
// permission options ("Always allow" only when a rule exists and the host can remember it), the replay
// of stored messages and the prompt's content blocks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatMessage, PendingApproval, ToolCallView } from '../../../extension/protocol';
import type { PromptOutcome } from '../../../extension/engine/engine';
import { permissionOptions, replayOf, stopReasonOf, updatesOf } from '../../../extension/cli/acp-updates';
import { promptText } from '../../../extension/cli/acp-prompt';

const call = (status: ToolCallView['status']): ToolCallView => ({
  callId: 'c1',
  name: 'write_file',
  kind: 'write',
  subject: 'a.md',
  status,
});

test('tool events become tool_call / tool_call_update with ACP kinds and statuses', () => {
  const [started] = updatesOf({ type: 'tool_started', call: call('running') });
  assert.deepEqual(started && started.sessionUpdate === 'tool_call' && [started.kind, started.status, started.title], [
    'edit',
    'in_progress',
    'write_file a.md',
  ]);
  const statuses = (['ok', 'error', 'denied', 'aborted', 'awaiting_approval'] as const).map((s) => {
    const [u] = updatesOf({ type: 'tool_updated', call: call(s) });
    return u?.sessionUpdate === 'tool_call_update' ? u.status : undefined;
  });
  assert.deepEqual(statuses, ['completed', 'failed', 'failed', 'failed', 'pending']);
  assert.deepEqual(updatesOf({ type: 'usage', usage: { inputTokens: 1, outputTokens: 1 } } as never), []);
});

test('stop reasons: aborted → cancelled, a budget → max_tokens (steps → max_turn_requests), else end_turn', () => {
  const o = (end: PromptOutcome['end']): PromptOutcome => ({
    requestId: 'r',
    sessionId: 's',
    end,
    text: '',
    refused: [],
  });
  assert.equal(stopReasonOf(o('aborted'), false), 'cancelled');
  assert.equal(stopReasonOf(o('budget'), false), 'max_tokens');
  assert.equal(stopReasonOf(o('budget'), true), 'max_turn_requests');
  assert.equal(stopReasonOf(o('complete'), false), 'end_turn');
  assert.equal(stopReasonOf(o('error'), false), 'end_turn');
});

test('permission options: allow once and reject; always only with a rule the host can remember', () => {
  const a: PendingApproval = { callId: 'c', tool: 'bash', kind: 'execute', subject: 'npm test', detail: 'npm test' };
  const kinds = (x: PendingApproval, remembers: boolean) => permissionOptions(x, remembers).map((p) => p.kind);
  assert.deepEqual(kinds(a, true), ['allow_once', 'reject_once']);
  const ruled = { ...a, alwaysRule: 'Bash(npm test)' };
  assert.deepEqual(kinds(ruled, false), ['allow_once', 'reject_once']);
  assert.deepEqual(kinds(ruled, true), ['allow_once', 'allow_always', 'reject_once']);
});

test('replay: user text as user chunks, answers as agent chunks, tool cards as a call and its result', () => {
  const messages = [
    { id: 'u', role: 'user', mode: 'agent', parts: [{ type: 'text', text: 'hi' }], status: 'complete', createdAt: 1 },
    {
      id: 'a',
      role: 'assistant',
      mode: 'agent',
      parts: [
        { type: 'thinking', text: 'hmm' },
        { type: 'tool', call: call('ok') },
        { type: 'text', text: 'done' },
      ],
      status: 'complete',
      createdAt: 2,
    },
  ] as unknown as ChatMessage[];
  assert.deepEqual(
    replayOf(messages).map((u) => u.sessionUpdate),
    ['user_message_chunk', 'agent_thought_chunk', 'tool_call', 'tool_call_update', 'agent_message_chunk'],
  );
});

test('prompt blocks: text, then embedded context named by its URI, then resource links', () => {
  assert.equal(
    promptText([
      { type: 'text', text: 'explain' },
      { type: 'resource', resource: { uri: 'file:///a.ts', text: 'x = 1' } },
      { type: 'resource_link', uri: 'file:///b.ts', name: 'b.ts' },
    ]),
    'explain\n\n<context uri="file:///a.ts">\nx = 1\n</context>\n\n@file:///b.ts',
  );
});
