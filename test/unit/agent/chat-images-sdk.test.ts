// Images the user attached, through the chat controller and both real SDKs against the fake LLM
// server: a vision model's request carries them as image parts after the text (Anthropic: image
// blocks; OpenAI: image_url data URLs), and the chat keeps only their names and sizes. A text-only
// model is found out before anything is sent (admitImages), so no request reaches the server.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as openai from '../../../extension/core/providers/openai';
import * as anthropic from '../../../extension/core/providers/anthropic';
import type { Provider } from '../../../extension/core/providers/types';
import { admitImages } from '../../../extension/core/extensions/images/chat-images';
import { startFakeLlm } from '../../fixtures/fake-llm';
import { createHarness } from './harness';

const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const image = { name: 'diagram.png', mediaType: 'image/png' as const, dataBase64: PNG_1x1 };

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

for (const kind of ['anthropic', 'openai'] as const) {
  test(`${kind}, a vision model: the pasted image reaches the request as an image part`, async () => {
    const fake = await fakePromise;
    fake.reset();
    fake.enqueue({ text: 'A box with an arrow.' });
    const h = createHarness({ provider: await providerFor(kind), images: true });
    const admitted = await admitImages([image], 'agent', (m) => h.controller.imagesAccepted(m));
    assert.ok(admitted.ok && admitted.set, 'a vision model admits the image');
    await h.controller.send('r1', 'What is in this diagram?', 'agent', { images: admitted.set });
    assert.equal(fake.requests.length, 1);
    const body = fake.requests[0].body as { messages: Array<{ role: string; content: unknown }> };
    const user = body.messages.filter((m) => m.role === 'user').at(-1);
    const parts = (Array.isArray(user?.content) ? user.content : []) as Array<Record<string, unknown>>;
    assert.equal(parts[0]?.type, 'text');
    assert.match(String(parts[0]?.text), /What is in this diagram\?/);
    if (kind === 'anthropic') {
      assert.equal(parts[1]?.type, 'image');
      assert.deepEqual(parts[1]?.source, { type: 'base64', media_type: 'image/png', data: PNG_1x1 });
    } else {
      assert.deepEqual(parts[1], { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_1x1}` } });
    }
    // The chat shows the image by name and size: its bytes are not in the chat's messages.
    const snapshot = await h.controller.snapshot();
    const shown = snapshot.messages.find((m) => m.role === 'user');
    const chip = shown?.parts.find((p) => p.type === 'attachments');
    assert.ok(chip && chip.type === 'attachments');
    assert.equal(chip.attachments[0]?.kind, 'image');
    assert.equal(chip.attachments[0]?.label, 'diagram.png (1×1, 70 B)');
    assert.doesNotMatch(JSON.stringify(snapshot.messages), new RegExp(PNG_1x1.slice(0, 40)));
  });

  test(`${kind}, a text-only model: the image is refused with a message and nothing is sent`, async () => {
    const fake = await fakePromise;
    fake.reset();
    const h = createHarness({ provider: await providerFor(kind), images: false });
    const admitted = await admitImages([image], 'agent', (m) => h.controller.imagesAccepted(m));
    assert.equal(admitted.ok, false);
    assert.match(!admitted.ok ? admitted.message : '', /^Not sent: scripted\/m does not accept images/);
    assert.equal(fake.requests.length, 0, 'no request reached the model');
  });
}
