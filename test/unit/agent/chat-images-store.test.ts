// An image sent in a chat, through the controller and the real store: its file is written before the
// message is journaled, the chat names it by hash, and after a reload (a new controller on the reopened
// store, the session resumed from History) the next request carries the real image part again — with
// the history before the new message byte-identical to what the previous request sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedProvider } from '../../fixtures/scripted-provider';
import type { ProviderEvent, ProviderRequest } from '../../../extension/core/providers/types';
import { admitImages } from '../../../extension/core/extensions/images/chat-images';
import { createHarness } from './harness';
import { open, tempDir } from '../store/helpers';

const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const say = (text: string): ProviderEvent[] => [
  { type: 'text', text },
  { type: 'done', stopReason: 'end' },
];

const imagesIn = (req: ProviderRequest | undefined) =>
  (req?.messages ?? []).flatMap((m) =>
    m.role === 'user' && typeof m.content !== 'string' ? m.content.filter((b) => b.type === 'image') : [],
  );

test('a sent image is a file in the store and reaches the model again after a reload', async () => {
  const { dir, cleanup } = tempDir('chat-images');
  try {
    const store = await open(dir);
    const first = new ScriptedProvider([say('A single pixel.')]);
    const h = createHarness({ provider: first, images: true, store });
    const image = { name: 'pixel.png', mediaType: 'image/png' as const, dataBase64: PNG_1x1 };
    const admitted = await admitImages([image], 'agent', (m) => h.controller.imagesAccepted(m));
    assert.ok(admitted.ok && admitted.set);
    await h.controller.send('r1', 'What is this?', 'agent', { images: admitted.set });
    const sha = admitted.set.metas[0].image?.sha256;
    assert.ok(sha);
    assert.deepEqual(readdirSync(join(dir, 'images')), [sha]);
    const chip = (await h.controller.snapshot()).messages[0].parts.find((p) => p.type === 'attachments');
    assert.equal(chip?.type === 'attachments' && chip.attachments[0].image?.sha256, sha);
    assert.deepEqual(h.controller.storedImage(sha), { mediaType: 'image/png', dataBase64: PNG_1x1 });
    assert.equal(h.controller.storedImage('0'.repeat(64)), undefined);
    const id = h.controller.sessionId;
    await store.close();

    const again = await open(dir);
    try {
      const next = new ScriptedProvider([say('Still a pixel.'), say('Yes.')]);
      const h2 = createHarness({ provider: next, images: true, store: again, idPrefix: 'b' });
      assert.equal(await h2.controller.resume(id), true);
      await h2.controller.send('r2', 'And now?', 'agent');
      await h2.controller.send('r3', 'Sure?', 'agent');
      assert.deepEqual(imagesIn(next.requests[0]), [{ type: 'image', mediaType: 'image/png', dataBase64: PNG_1x1 }]);
      // The cached prefix: the second request starts with exactly what the first one sent.
      const sent = next.requests[0].messages;
      assert.deepEqual(next.requests[1].messages.slice(0, sent.length), sent);
    } finally {
      await again.close();
    }
  } finally {
    cleanup();
  }
});
