// A slash command's `model` as Claude Code's command files write it (`haiku`, `claude-3-5-haiku-…`,
// `inherit`): the request runs on a configured model of that family, read as a sub-agent's model is —
// never sent as an unknown provider named "haiku", which failed the request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ScriptedProvider } from '../../fixtures/scripted-provider';
import type { ProviderEvent } from '../../../extension/core/providers/types';
import { createHarness, textOf } from './harness';

const say = (text: string): ProviderEvent[] => [
  { type: 'text', text },
  { type: 'done', stopReason: 'end' },
];

for (const written of ['haiku', 'claude-3-5-haiku-20241022', 'HAIKU']) {
  test(`a command's "model: ${written}" runs on the configured Haiku model, and the answer names it`, async () => {
    const haiku = new ScriptedProvider([say('From Haiku.')]);
    const chat = new ScriptedProvider([]);
    const h = createHarness({ provider: chat, models: { 'anthropic/claude-haiku-4-5': { provider: haiku } } });
    await h.controller.send('r1', 'Summarise', 'chat', { model: written });
    assert.equal(haiku.requests.length, 1);
    assert.equal(chat.requests.length, 0);
    assert.match(textOf(h.envelopes('r1')), /From Haiku\./);
    const started = h.envelopes('r1')[0]?.event;
    assert.equal(started?.type === 'started' ? started.model : undefined, 'anthropic/claude-haiku-4-5');
  });
}

test('"model: inherit" runs on the chat model; an alias with no such model configured says so, uses it', async () => {
  const chat = new ScriptedProvider([say('Chat model.'), say('Chat model again.')]);
  const h = createHarness({ provider: chat });
  await h.controller.send('r1', 'Summarise', 'chat', { model: 'inherit' });
  await h.controller.send('r2', 'Summarise', 'chat', { model: 'opus' });
  assert.equal(chat.requests.length, 2);
  const notices = h.envelopes('r2').flatMap((e) => (e.event.type === 'notice' ? [e.event.text] : []));
  assert.ok(
    notices.some((n) => /no opus model is configured/.test(n)),
    notices.join('\n'),
  );
});
