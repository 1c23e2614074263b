// Images in the chat input, in the real editor: a PNG pasted into the composer shows as a thumbnail in
// "Attachments". With the e2e's text-only model the send is refused with a message and the text and
// image stay in the composer, and no request reaches the model; once the provider says its model takes
// images (`"images": true` in sextant.providers), the same message reaches the fake model's request as an
// image part (OpenAI's image_url with a data URL) and the sent message names the image and shows it as a
// thumbnail read back from the store's image file.
import assert from 'node:assert/strict';
import type { E2E } from '../harness/e2e';
import { poll, waitUntil, type Workbench } from '../harness/workbench';

const CHANGED = 'providers: settings changed';
const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Pastes a small PNG file into the composer as the clipboard would. */
async function pasteImage(wb: Workbench, name: string): Promise<void> {
  await wb.inWebview('textbox', 'Message').evaluate(
    (area, { name, data }) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], name, { type: 'image/png' }));
      area.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    },
    { name, data: PNG_1x1 },
  );
}

export function imageScenarios(e2e: E2E): void {
  e2e.scenario(
    'Images: a pasted image is refused with a message by a text-only model (kept in the composer) and reaches ' +
      'a vision model as an image part',
    async ({ wb, fake }) => {
      await wb.openSextantView();
      await wb.runPaletteCommand('Sextant: New Chat');
      await waitUntil('the Chat mode radio', () => wb.inWebview('radio', 'Chat').check({ timeout: 15_000 }));
      const thumbnail = wb.inWebview('list', 'Attachments').getByRole('img', { name: 'red-dot.png' });
      await pasteImage(wb, 'red-dot.png');
      await poll('the pasted image as a thumbnail', async () => (await thumbnail.count()) === 1);

      const before = fake.requests.length;
      await wb.typeMessage('What colour is this dot?');
      const refusal = wb
        .webviewFrame()
        .getByRole('alert')
        .filter({ hasText: /fake-model does not accept images/ });
      await poll('the refusal', async () => (await refusal.count()) > 0);
      await poll('the image back in the composer', async () => (await thumbnail.count()) === 1);
      assert.equal(await wb.inWebview('textbox', 'Message').inputValue(), 'What colour is this dot?');
      assert.equal(fake.requests.length, before, 'nothing was sent to the text-only model');

      const original = wb.readUserSettings();
      const providers = original['sextant.providers'] as Array<Record<string, unknown>>;
      await wb.setUserSettings({ 'sextant.providers': [{ ...providers[0], images: true }] }, CHANGED);
      try {
        await wb.openSextantView();
        fake.enqueue({ text: 'The dot is red.' });
        await wb.clickInWebview('button', 'Send');
        await poll('the request to the vision model', async () => fake.requests.length > before, 30_000);
        const body = fake.requests[before]?.body as { messages: Array<{ role: string; content: unknown }> };
        const user = body.messages.filter((m) => m.role === 'user').at(-1);
        const parts = (Array.isArray(user?.content) ? user.content : []) as Array<Record<string, unknown>>;
        assert.deepEqual(
          parts.map((p) => p.type),
          ['text', 'image_url'],
          'the text, then the image',
        );
        const url = String((parts[1]?.image_url as { url?: string } | undefined)?.url);
        assert.match(url, /^data:image\/png;base64,iVBORw0KGgo/, 'the pasted PNG, re-encoded, as a data URL');
        await poll('the answer', async () => (await wb.articles('Sextant').last().innerText()).includes('red'));
        await poll('the sent message naming the image', async () =>
          (await wb.articles('You').last().innerText()).includes('red-dot.png'),
        );
        // Its thumbnail: the bytes read back from the image store's file (imageRequest → imageData).
        const sent = wb
          .articles('You')
          .last()
          .getByRole('img', { name: /^red-dot\.png/ });
        await poll('the sent image as a thumbnail', async () => (await sent.count()) === 1);
        assert.match(String(await sent.getAttribute('src')), /^data:image\/png;base64,iVBORw0KGgo/);
        assert.equal(await thumbnail.count(), 0, 'the composer is empty after the send');
      } finally {
        await wb.setUserSettings({ 'sextant.providers': providers }, CHANGED);
        await wb.openSextantView();
        await wb.runPaletteCommand('Sextant: New Chat');
      }
    },
    { timeoutMs: 150_000 },
  );
}
