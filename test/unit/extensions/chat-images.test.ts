// The host's check of images from the webview: only real images of the type claimed, within the caps,
// pass; anything else (a script renamed .png, a lie about the type, too many, too big, not base64,
// extra fields) refuses the whole message with a sentence naming the image and the reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { admitImages, checkChatImages, imagesRefusal } from '../../../extension/core/extensions/images/chat-images';
import { InboundSchema, MAX_CHAT_IMAGE_BYTES, MAX_CHAT_IMAGES } from '../../../extension/protocol';

const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const png = (name = 'shot.png') => ({ name, mediaType: 'image/png' as const, dataBase64: PNG_1x1 });
const b64 = (bytes: Buffer) => bytes.toString('base64');

test('a real PNG passes: an image block for the model and a name-and-size line for the chat', () => {
  const r = checkChatImages([png()]);
  assert.ok(r.ok);
  assert.equal(r.blocks.length, 1);
  assert.deepEqual(r.blocks[0], { type: 'image', mediaType: 'image/png', dataBase64: PNG_1x1 });
  assert.equal(r.metas[0].kind, 'image');
  assert.equal(r.metas[0].label, 'shot.png (1×1, 70 B)');
});

test('bytes that are not an image are refused, naming the file', () => {
  const script = b64(Buffer.from('<script>alert(1)</script> pretending to be a png'));
  const r = checkChatImages([{ name: 'evil.png', mediaType: 'image/png', dataBase64: script }]);
  assert.equal(r.ok, false);
  assert.match(!r.ok ? r.message : '', /^Not sent: evil\.png is not an image Sextant can send/);
});

test('a media type that lies about the bytes is refused', () => {
  const r = checkChatImages([{ name: 'x.jpg', mediaType: 'image/jpeg', dataBase64: PNG_1x1 }]);
  assert.match(!r.ok ? r.message : '', /claims to be image\/jpeg but its bytes are image\/png/);
});

test('more than the cap of images is refused with the count', () => {
  const many = Array.from({ length: MAX_CHAT_IMAGES + 1 }, (_, i) => png(`p${i}.png`));
  const r = checkChatImages(many);
  assert.match(!r.ok ? r.message : '', new RegExp(`at most ${MAX_CHAT_IMAGES} images per message \\(6 attached\\)`));
});

test('an image over the byte cap is refused by the protocol schema and by the host check', () => {
  const big = Buffer.alloc(MAX_CHAT_IMAGE_BYTES + 3);
  Buffer.from(PNG_1x1, 'base64').copy(big);
  const msg = { type: 'send', requestId: 'r', text: 'hi', mode: 'agent', images: [{ ...png(), dataBase64: b64(big) }] };
  assert.equal(InboundSchema.safeParse(msg).success, false, 'the channel refuses it');
  const r = checkChatImages([{ ...png(), dataBase64: b64(big) }]);
  assert.equal(r.ok, false);
});

test('not base64, an unknown media type, an empty or huge name are refused at the channel', () => {
  const send = (image: unknown) =>
    InboundSchema.safeParse({ type: 'send', requestId: 'r', text: 'hi', mode: 'agent', images: [image] }).success;
  assert.equal(send(png()), true, 'the good one passes');
  assert.equal(send({ ...png(), dataBase64: 'not base64!' }), false);
  assert.equal(send({ ...png(), dataBase64: `${PNG_1x1}"><img onerror=x>` }), false);
  assert.equal(send({ ...png(), mediaType: 'image/svg+xml' }), false, 'SVG (scriptable) is not an image type here');
  assert.equal(send({ ...png(), mediaType: 'text/html' }), false);
  assert.equal(send({ ...png(), name: '' }), false);
  assert.equal(send({ ...png(), name: 'x'.repeat(201) }), false);
  assert.equal(send('a string'), false);
  const queue = InboundSchema.safeParse({
    type: 'queue',
    text: 'hi',
    mode: 'agent',
    images: Array.from({ length: MAX_CHAT_IMAGES + 1 }, () => png()),
  });
  assert.equal(queue.success, false, 'queue: the count cap holds on every message type that carries images');
});

test('a text-only model and Research mode refuse images; a vision model takes them', async () => {
  assert.equal(imagesRefusal(0, false, 'agent', 'm'), undefined, 'no images, nothing to refuse');
  assert.match(imagesRefusal(1, false, 'agent', 'openai/gpt-x') ?? '', /openai\/gpt-x does not accept images/);
  assert.match(imagesRefusal(1, true, 'research', 'm') ?? '', /Research mode does not take images/);
  const asked: string[] = [];
  const accepted = async (mode: string) => {
    asked.push(mode);
    return { accepts: false, model: 'local/llama' };
  };
  const refused = await admitImages([png()], 'chat', accepted);
  assert.equal(refused.ok, false);
  assert.deepEqual(asked, ['chat']);
  const bad = await admitImages([{ ...png(), dataBase64: b64(Buffer.from('GIF-ish? no')) }], 'chat', accepted);
  assert.equal(bad.ok, false);
  assert.deepEqual(asked, ['chat'], 'bad bytes are refused before the model is asked');
  const none = await admitImages(undefined, 'chat', accepted);
  assert.deepEqual(none, { ok: true });
  const ok = await admitImages([png()], 'agent', async () => ({ accepts: true, model: 'anthropic/claude' }));
  assert.ok(ok.ok && ok.set?.blocks.length === 1);
});
