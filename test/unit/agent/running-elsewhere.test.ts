// Two windows on one globalStorage (two stores on one folder, each its own journal writer): while window A
// runs a session, window B — showing the same session — does not run it a second time. Its send and its
// Retry are refused with why (the text back in the composer, the host told so it can offer the session
// read-only or a new chat) and nothing reaches the model; once A's run ends, B's send goes.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { ChatController } from '../../../extension/core/agent/controller';
import { ProviderRegistry, mergeProviderConfigs } from '../../../extension/core/providers/registry';
import * as openai from '../../../extension/core/providers/openai';
import type { Outbound } from '../../../extension/protocol';
import type { SessionStore } from '../../../extension/core/store';
import { startFakeLlm } from '../../fixtures/fake-llm';
import { sdkChatServices } from './chat-services';
import { open, tempDir } from '../store/helpers';

const fakePromise = startFakeLlm();
after(async () => (await fakePromise).close());

function windowOn(store: SessionStore, baseUrl: string) {
  const { configs } = mergeProviderConfigs([
    { name: 'fake', kind: 'openai', baseUrl, models: ['fake-model'], apiKeyEnv: 'FAKE_KEY' },
  ]);
  const registry = new ProviderRegistry({
    configs,
    secrets: { get: async () => undefined, set: async () => {}, delete: async () => {} },
    env: { FAKE_KEY: 'sk-test-123' },
    loadKind: async () => openai,
  });
  const posted: Outbound[] = [];
  const offered: Array<[string, string]> = [];
  const controller = new ChatController(
    sdkChatServices({
      resolveModel: (ref) => registry.resolve(ref),
      defaultModel: () => 'fake/fake-model',
      post: (m) => posted.push(m),
      persistence: store,
      onRunningElsewhere: (id, message) => offered.push([id, message]),
    }),
  );
  return { controller, posted, offered };
}

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 2_000 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(check(), `waited for ${what}`);
}

test('a session another window runs now is refused here (send and Retry), and runs once the other ends', async () => {
  const fake = await fakePromise;
  fake.reset();
  const { dir, cleanup } = tempDir('running-elsewhere');
  try {
    const storeA = await open(dir);
    const storeB = await open(dir);
    const a = windowOn(storeA, `${fake.baseUrl}/v1`);
    const b = windowOn(storeB, `${fake.baseUrl}/v1`);

    fake.enqueue({ text: 'Working on it', hang: true });
    const running = a.controller.send('a1', 'Refactor the parser', 'chat');
    await fake.waitForRequests(1);
    const id = a.controller.sessionId;
    await until('window B to see the run', () => storeB.runningElsewhere(id));
    assert.equal(a.controller.runningElsewhere(), undefined, 'its own window runs it');

    // Window B opens the same session from History and sends in it.
    assert.equal(await b.controller.resume(id), true);
    await b.controller.send('b1', 'Also rename the lexer', 'chat');
    const refused = b.posted.filter((m) => m.type === 'sendRefused');
    assert.equal(refused.length, 1);
    const r = refused[0];
    assert.ok(r?.type === 'sendRefused');
    assert.match(r.message, /“Refactor the parser” is running in another VS Code window right now/);
    assert.match(r.message, /Open it read-only .* or start a new chat/);
    assert.equal(r.text, 'Also rename the lexer', 'the text goes back to the composer');
    assert.deepEqual(b.offered, [[id, r.message]], 'the host is told, to offer read-only or a new chat');
    assert.equal(b.controller.lastEnd(), undefined, 'nothing queued goes next');
    await b.controller.retry('b2');
    assert.equal(b.posted.filter((m) => m.type === 'sendRefused').length, 2, 'Retry is refused too');
    assert.equal(b.controller.runningElsewhere(), r.message);
    assert.equal(fake.requests.length, 1, 'nothing of B reached the model');
    assert.ok(!b.posted.some((m) => m.type === 'events'), 'no request started in B');

    // A's run ends: B may run the session now.
    await a.controller.stop();
    await running;
    assert.equal(b.controller.runningElsewhere(), undefined);
    fake.enqueue({ text: 'Renamed.' });
    await b.controller.send('b3', 'Also rename the lexer', 'chat');
    assert.equal(fake.requests.length, 2);
    assert.equal(b.controller.lastEnd(), 'complete');
    await Promise.all([a.controller.dispose(), b.controller.dispose()]);
    await Promise.all([storeA.close(), storeB.close()]);
  } finally {
    cleanup();
  }
});
