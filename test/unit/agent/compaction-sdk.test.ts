// Compaction through the real SDKs against the fake LLM server, both provider kinds: the session
// crosses a small context window, the fake model writes the brief from the transcript it is sent,
// and answers the last question only if the brief it receives carries the fact from turn 2.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { ChatController } from '../../../extension/core/agent/controller';
import { BRIEF_HEADER } from '../../../extension/core/agent/compaction';
import { ProviderRegistry, mergeProviderConfigs } from '../../../extension/core/providers/registry';
import * as openai from '../../../extension/core/providers/openai';
import * as anthropic from '../../../extension/core/providers/anthropic';
import { latestCompaction } from '../../../extension/protocol';
import { lastUserText, startFakeLlm, type RecordedRequest } from '../../fixtures/fake-llm';
import { MemoryPersistence } from '../../fixtures/memory-persistence';
import { sdkChatServices } from './chat-services';

const fakePromise = startFakeLlm();
after(async () => (await fakePromise).close());

/** The text of the first user turn of a request body (OpenAI or Anthropic shape). */
function firstUserText(body: unknown): string {
  const messages = (body as { messages?: Array<{ role?: string; content?: unknown }> }).messages ?? [];
  const m = messages.find((x) => x.role === 'user');
  if (!m) return '';
  if (typeof m.content === 'string') return m.content;
  return Array.isArray(m.content)
    ? m.content.map((b: { type?: string; text?: string }) => (b.type === 'text' ? (b.text ?? '') : '')).join('\n')
    : '';
}

const isSummary = (r: RecordedRequest) => JSON.stringify(r.body).includes('You write the working brief');

for (const kind of ['openai', 'anthropic'] as const) {
  test(`${kind}: a session crossing the window is compacted; the turn-2 fact is answered from the brief`, async () => {
    const fake = await fakePromise;
    fake.reset();
    fake.onRequest((req) => {
      if (req.api !== kind) return undefined;
      if (isSummary(req)) {
        const facts = lastUserText(req.body)
          .split('\n')
          .filter((l) => /port \d+/.test(l));
        return { text: `## Goal\n- staging\n## Facts the user gave\n${facts.map((f) => `- ${f}`).join('\n')}` };
      }
      const first = firstUserText(req.body);
      if (/which port/i.test(lastUserText(req.body))) {
        const m = /heron-7[^\n]*?port (\d+)/.exec(first);
        return { text: first.startsWith(BRIEF_HEADER) && m ? `Port ${m[1]}.` : 'I do not know.' };
      }
      return { text: `Here is a long answer. ${'lorem ipsum dolor sit amet '.repeat(90)}` };
    });
    const baseUrl = kind === 'openai' ? `${fake.baseUrl}/v1` : fake.baseUrl;
    const { configs } = mergeProviderConfigs([
      { name: 'fake', kind, baseUrl, models: ['fake-model'], apiKeyEnv: 'FAKE_KEY', contextWindow: 3_000 },
    ]);
    const registry = new ProviderRegistry({
      configs,
      secrets: { get: async () => undefined, set: async () => {}, delete: async () => {} },
      env: { FAKE_KEY: 'sk-test-123' },
      loadKind: async (k) => (k === 'openai' ? openai : anthropic),
    });
    const persistence = new MemoryPersistence();
    const controller = new ChatController(
      sdkChatServices({
        persistence,
        resolveModel: (ref) => registry.resolve(ref),
        defaultModel: () => 'fake/fake-model',
        post: () => {},
      }),
    );
    const asks = [
      'Help me set up staging.',
      'Remember: the staging database heron-7 listens on port 6543.',
      'What should the config look like?',
      'And the CI job?',
      'And the secrets?',
      'Which port does the staging database use?',
    ];
    for (const [i, text] of asks.entries()) await controller.send(`r${i}`, text, 'chat');
    const summaries = fake.requests.filter(isSummary);
    assert.ok(summaries.length >= 1, 'the window was crossed and a brief was written');
    const snap = await controller.snapshot();
    const answer = snap.messages.at(-1)!.parts.find((p) => p.type === 'text');
    assert.equal(answer?.type === 'text' && answer.text, 'Port 6543.');
    assert.match(latestCompaction(snap)?.brief ?? '', /heron-7/);
    // The originals are all still stored: 6 requests × (user + assistant).
    assert.equal(persistence.getSession(controller.sessionId)!.modelMessages.length, 12);
    await controller.dispose();
    fake.onRequest(undefined);
  });
}
