// Images in the composer, in real Chromium: a paste and a drop each become a thumbnail (an `img` in the
// "Attachments" list), re-encoded within the caps; one is removed with its button; Send posts the typed
// text with the images; a file that is not an image says so; a refused send gives the images back.
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_CHAT_IMAGE_SIDE } from '../../extension/protocol';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';
import { message, snapshot, snapshotMessage } from './fixtures';

const env = useViewEnvironment();
let view: ViewHarness;

beforeEach(async () => {
  view = await env.open();
  await deliver(view, snapshotMessage(snapshot()));
});
afterEach(async () => {
  assert.deepEqual(await view.violations(), []);
  assert.deepEqual(view.pageErrors, []);
  await view.close();
});

const composer = () => view.page.getByRole('textbox', { name: 'Message' });
const attachments = () => view.page.getByRole('list', { name: 'Attachments' });

/** Puts an image file (drawn on a canvas: w×h, PNG) on the composer by paste or by drop. */
async function give(how: 'paste' | 'drop', name: string, w: number, h: number): Promise<void> {
  await view.page.evaluate(
    async ({ how, name, w, h }) => {
      const canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      const g = canvas.getContext('2d');
      if (g) {
        g.fillStyle = '#c33';
        g.fillRect(0, 0, w, h);
      }
      const blob = await new Promise<Blob | null>((r) => canvas.toBlob(r, 'image/png'));
      const dt = new DataTransfer();
      dt.items.add(new File([blob ?? new Blob()], name, { type: 'image/png' }));
      const area = document.querySelector('textarea');
      const ev =
        how === 'paste'
          ? new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true })
          : new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true });
      area?.dispatchEvent(ev);
    },
    { how, name, w, h },
  );
}

describe('images in the composer', () => {
  it('paste and drop add thumbnails; remove drops one; Send posts the text and the images, re-encoded', async () => {
    await give('paste', 'wide.png', 3000, 1000);
    await attachments().getByRole('img', { name: 'wide.png' }).waitFor();
    await give('drop', 'small.png', 40, 30);
    await attachments().getByRole('img', { name: 'small.png' }).waitFor();
    await give('paste', 'gone.png', 20, 20);
    await attachments().getByRole('img', { name: 'gone.png' }).waitFor();
    await attachments().getByRole('button', { name: 'Remove gone.png' }).click();
    await attachments().getByRole('img', { name: 'gone.png' }).waitFor({ state: 'detached' });
    assert.equal(await attachments().getByRole('listitem').count(), 2);

    await composer().fill('What is wrong here?');
    await composer().press('Enter');
    const sent = await view.waitForPost('send');
    assert.equal(sent.text, 'What is wrong here?');
    assert.deepEqual(
      sent.images?.map((i) => [i.name, i.mediaType]),
      [
        ['wide.png', 'image/png'],
        ['small.png', 'image/png'],
      ],
    );
    // The 3000×1000 paste was scaled to the longest side's cap (the PNG header holds the size).
    const wide = Buffer.from(sent.images?.[0]?.dataBase64 ?? '', 'base64');
    assert.equal(wide.readUInt32BE(16), MAX_CHAT_IMAGE_SIDE);
    assert.equal(wide.readUInt32BE(20), Math.round(1000 * (MAX_CHAT_IMAGE_SIDE / 3000)));
    await attachments().waitFor({ state: 'detached' });
  });

  it('Attach image opens a file picker; a file that is not an image says so and adds nothing', async () => {
    const chooser = view.page.waitForEvent('filechooser');
    await view.page.getByRole('button', { name: 'Attach image' }).click();
    await (await chooser).setFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a png') });
    await view.page.getByText(/notes\.png could not be read as an image/).waitFor();
    assert.equal(await attachments().count(), 0);
  });

  it('draft images survive the view being re-created (view state); a sent draft leaves none behind', async () => {
    await give('paste', 'kept.png', 30, 20);
    await attachments().getByRole('img', { name: 'kept.png' }).waitFor();
    await composer().fill('later');
    await view.page.reload();
    await view.waitForPost('ready');
    await deliver(view, snapshotMessage(snapshot()));
    await attachments().getByRole('img', { name: 'kept.png' }).waitFor();
    assert.equal(await composer().inputValue(), 'later');
    await composer().press('Enter');
    const sent = await view.waitForPost('send');
    assert.deepEqual(
      sent.images?.map((i) => i.name),
      ['kept.png'],
    );
    await attachments().waitFor({ state: 'detached' });
    await view.page.reload();
    await view.waitForPost('ready');
    await deliver(view, snapshotMessage(snapshot()));
    await composer().waitFor();
    assert.equal(await attachments().count(), 0);
  });

  it('a refused send puts the text and the images back with the reason', async () => {
    await give('paste', 'shot.png', 10, 10);
    await attachments().getByRole('img', { name: 'shot.png' }).waitFor();
    await composer().fill('look');
    await composer().press('Enter');
    const sent = await view.waitForPost('send');
    await attachments().waitFor({ state: 'detached' });
    await deliver(view, {
      type: 'sendRefused',
      message: 'Not sent: local/llama does not accept images.',
      text: 'look',
      references: [],
      images: sent.images,
    });
    await view.page.getByText(/local\/llama does not accept images/).waitFor();
    await attachments().getByRole('img', { name: 'shot.png' }).waitFor();
    assert.equal(await composer().inputValue(), 'look');
  });
});

const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const ref = (c: string) => ({ sha256: c.repeat(64), mediaType: 'image/png' as const, bytes: 70, width: 1, height: 1 });

describe('stored images in the chat', () => {
  it("sent images and a tool card's screenshot are fetched once and drawn; a lost one says so", async () => {
    const user = message('user', 'What is this?');
    user.parts.push({
      type: 'attachments',
      attachments: [
        { kind: 'image', label: 'pixel.png (1×1, 70 B)', chars: 0, image: ref('a') },
        { kind: 'image', label: 'lost.png (1×1, 70 B)', chars: 0, image: ref('b') },
      ],
    });
    const answer = message('assistant', '', {
      parts: [
        {
          type: 'tool',
          call: {
            callId: 'c1',
            name: 'browser_screenshot',
            kind: 'read',
            subject: 'page',
            status: 'ok',
            images: [ref('a')],
          },
        },
      ],
    });
    await deliver(view, snapshotMessage(snapshot({ messages: [user, answer] })));
    await view.waitForPost('imageRequest', (m) => m.sha256 === 'a'.repeat(64));
    await view.waitForPost('imageRequest', (m) => m.sha256 === 'b'.repeat(64));
    await deliver(view, { type: 'imageData', sha256: 'a'.repeat(64), mediaType: 'image/png', dataBase64: PNG_1x1 });
    await deliver(view, { type: 'imageData', sha256: 'b'.repeat(64) });
    const you = view.page.getByRole('article', { name: 'You' });
    const shown = you.getByRole('img', { name: 'pixel.png (1×1, 70 B)' });
    await shown.waitFor();
    assert.equal(await shown.getAttribute('src'), `data:image/png;base64,${PNG_1x1}`);
    await you.getByRole('img', { name: 'image not available: lost.png (1×1, 70 B)' }).waitFor();
    const card = view.page.getByRole('group', { name: 'Tool: browser_screenshot' });
    await card.getByRole('img', { name: 'Screenshot 1 (1×1)' }).waitFor();
    // Each image was asked for once, though two messages show the first one.
    const asked = (await view.posts()).filter((p) => p.type === 'imageRequest').map((p) => p.sha256);
    assert.deepEqual(asked.sort(), ['a'.repeat(64), 'b'.repeat(64)]);
  });
});
