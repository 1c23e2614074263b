// A definition's `model` as Claude Code's agent files write it (`sonnet`, `opus`, `haiku`, `opusplan`):
// read as a configured model of that family, never as an unknown provider named "sonnet".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { subagentModelRef } from '../../../extension/core/agent/subagent-model';
import type { ModelChoice } from '../../../extension/protocol';

const choice = (ref: string, more: Partial<ModelChoice> = {}): ModelChoice => ({
  ref,
  label: ref,
  hasKey: true,
  ...more,
});
const choices =
  (...c: ModelChoice[]) =>
  async () =>
    c;

test('an alias picks a model of its family, the chat provider first; opusplan runs Opus', async () => {
  const list = choices(
    choice('openrouter/anthropic/claude-sonnet-4.5'),
    choice('anthropic/claude-opus-4-1'),
    choice('anthropic/claude-sonnet-4-5'),
  );
  assert.deepEqual(await subagentModelRef('sonnet', 'anthropic/claude-opus-4-1', list), {
    ref: 'anthropic/claude-sonnet-4-5',
  });
  assert.deepEqual(await subagentModelRef('Sonnet', 'openai/gpt-5', list), {
    ref: 'openrouter/anthropic/claude-sonnet-4.5',
  });
  assert.deepEqual(await subagentModelRef('opusplan', 'openai/gpt-5', list), { ref: 'anthropic/claude-opus-4-1' });
});

test('no model of the family with a key: the chat model, and a note that says so', async () => {
  const list = choices(
    choice('anthropic/claude-haiku-4-5', { hasKey: false }),
    choice('vscode-lm/claude-haiku', { unavailable: 'no VS Code language model installed' }),
    choice('openai/gpt-5'),
  );
  const r = await subagentModelRef('haiku', 'openai/gpt-5', list);
  assert.equal(r.ref, 'openai/gpt-5');
  assert.match(r.note ?? '', /no haiku model is configured.*model: haiku.*chat's model/);
});

test('a Sextant reference passes unchanged, without asking for the model list', async () => {
  let asked = false;
  const r = await subagentModelRef('anthropic/claude-sonnet-4-5', 'openai/gpt-5', async () => {
    asked = true;
    return [];
  });
  assert.deepEqual(r, { ref: 'anthropic/claude-sonnet-4-5' });
  assert.equal(asked, false);
});

test('a bare Claude model id: that model where configured, else its family; inherit is the chat model', async () => {
  const list = choices(
    choice('openrouter/anthropic/claude-3-5-haiku-20241022'),
    choice('anthropic/claude-haiku-4-5'),
    choice('anthropic/claude-sonnet-4-5'),
  );
  assert.deepEqual(await subagentModelRef('claude-3-5-haiku-20241022', 'anthropic/claude-sonnet-4-5', list), {
    ref: 'openrouter/anthropic/claude-3-5-haiku-20241022',
  });
  assert.deepEqual(await subagentModelRef('claude-3-haiku-20240307', 'anthropic/claude-sonnet-4-5', list), {
    ref: 'anthropic/claude-haiku-4-5',
  });
  assert.deepEqual(await subagentModelRef('inherit', 'openai/gpt-5', list), { ref: 'openai/gpt-5' });
  const unknown = await subagentModelRef('claude-instant-1', 'openai/gpt-5', list);
  assert.equal(unknown.ref, 'openai/gpt-5');
  assert.match(unknown.note ?? '', /claude-instant-1 is not configured/);
});
