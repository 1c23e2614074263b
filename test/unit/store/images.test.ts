// Images in the store: the bytes go to content-addressed files under images/ (never into the journal or
// the database), the saved model history and the chat keep references, and reading a session loads the
// bytes back into the model history's image parts. Same image twice = one file; a missing or damaged
// file gives a placeholder and loses nothing else; purging the last session naming an image deletes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { JournalRecord } from '../../../extension/core/ports';
import type { ModelMessage } from '../../../extension/core/providers/types';
import { created, events, open, RequestBuilder, tempDir } from './helpers';

/** A valid PNG header (8-byte signature, IHDR with 640×480) followed by incompressible bytes. */
function png(payloadBytes: number): Buffer {
  const head = Buffer.alloc(24);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(head, 0);
  head.writeUInt32BE(13, 8);
  head.write('IHDR', 12, 'ascii');
  head.writeUInt32BE(640, 16);
  head.writeUInt32BE(480, 20);
  return Buffer.concat([head, randomBytes(payloadBytes)]);
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A sent message with one image: its `started` event (the chat's reference) and its model history. */
function sentWithImage(sessionId: string, requestId: string, at: number, image: Buffer): JournalRecord[] {
  const r = new RequestBuilder(requestId, at);
  const ref = { sha256: sha(image), mediaType: 'image/png' as const, bytes: image.length, width: 640, height: 480 };
  return [
    events(sessionId, at, [
      r.env({
        type: 'started',
        userMessageId: `${requestId}-u`,
        assistantMessageId: `${requestId}-a`,
        text: 'What is in this picture?',
        mode: 'agent',
        model: 'fake/model',
        attachments: [{ kind: 'image', label: 'shot.png (640×480, 1 MB)', chars: 0, image: ref }],
      }),
      r.env({ type: 'text_delta', text: 'A chart.' }),
      r.env({ type: 'complete' }),
    ]),
    {
      kind: 'model_messages',
      sessionId,
      at: at + 1,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture?' },
            { type: 'image', mediaType: 'image/png', dataBase64: image.toString('base64') },
          ],
        },
        { role: 'assistant', text: 'A chart.' },
      ],
    },
  ];
}

function imageBlocks(messages: readonly ModelMessage[] | undefined) {
  return (messages ?? []).flatMap((m) =>
    m.role === 'user' && typeof m.content !== 'string' ? m.content.filter((b) => b.type !== 'text') : [],
  );
}

const size = (...p: string[]) => statSync(join(...p)).size;

function filesUnder(dir: string, sub: string): string[] {
  try {
    return readdirSync(join(dir, sub));
  } catch {
    return [];
  }
}

test('an image round-trips through save and reload as a file; the database and journal hold no bytes', async () => {
  const { dir, cleanup } = tempDir('images');
  try {
    const image = png(600_000);
    const b64 = image.toString('base64');
    let store = await open(dir);
    store.append(created('s1', 100, 'With an image'));
    for (const r of sentWithImage('s1', 'r1', 200, image)) store.append(r);
    assert.deepEqual(filesUnder(dir, 'images'), [sha(image)], 'one file, named by its SHA-256');
    assert.deepEqual(readFileSync(join(dir, 'images', sha(image))), image);
    // The journal line holds the reference, not the bytes.
    for (const f of filesUnder(dir, 'journal'))
      assert.ok(!readFileSync(join(dir, 'journal', f), 'utf8').includes(b64.slice(1000, 1100)), `journal ${f}`);
    const live = store.getSession('s1');
    assert.deepEqual(imageBlocks(live?.modelMessages), [{ type: 'image', mediaType: 'image/png', dataBase64: b64 }]);
    await store.close();
    const db = readFileSync(join(dir, 'sextant.db'));
    assert.ok(!db.includes(Buffer.from(b64.slice(1000, 1100))), 'no base64 of the image in sextant.db');
    assert.ok(!db.includes(image.subarray(1000, 1100)), 'nor its raw bytes');
    // The same session where no image file can be written (images/ is a file): the bytes stay inline.
    const inline = tempDir('images-inline');
    try {
      writeFileSync(join(inline.dir, 'images'), 'in the way');
      const other = await open(inline.dir);
      other.append(created('s1', 100, 'With an image'));
      for (const r of sentWithImage('s1', 'r1', 200, image)) other.append(r);
      assert.equal(imageBlocks(other.getSession('s1')?.modelMessages).length, 1, 'nothing lost when it cannot write');
      await other.close();
      // Inline, a model message over 32 KB went to blobs/ as JSON text (and into the journal, and cold files).
      const textBytes = (d: string) =>
        ['journal', 'blobs'].reduce((n, sub) => n + filesUnder(d, sub).reduce((m, f) => m + size(d, sub, f), 0), 0);
      const withFiles = textBytes(dir);
      const withBytes = textBytes(inline.dir);
      assert.ok(
        withBytes - withFiles >= b64.length,
        `journal+blobs ${withFiles} B with image files, ${withBytes} inline`,
      );
    } finally {
      inline.cleanup();
    }
    store = await open(dir);
    const back = store.getSession('s1');
    assert.deepEqual(
      imageBlocks(back?.modelMessages),
      [{ type: 'image', mediaType: 'image/png', dataBase64: b64 }],
      'the request built from the reopened session carries the real image part',
    );
    const chip = back?.messages[0].parts.find((p) => p.type === 'attachments');
    assert.equal(chip?.type === 'attachments' && chip.attachments[0].image?.sha256, sha(image));
    assert.deepEqual(store.images?.read(sha(image)), image);
    // JSON export keeps the reference; HTML embeds the image; Markdown says it is not included.
    const json = store.exportSession('s1', 'json') ?? '';
    assert.match(json, /"type": ?"image_ref"/);
    assert.ok(!json.includes(b64.slice(1000, 1100)));
    const html = store.exportSession('s1', 'html') ?? '';
    assert.ok(html.includes(`src="data:image/png;base64,${b64}"`), 'HTML embeds the image as a data: URI');
    assert.match(store.exportSession('s1', 'markdown') ?? '', /image: shot\.png .* not included in a Markdown export/);
    await store.close();
  } finally {
    cleanup();
  }
});

test('the same image twice is one file; a missing file becomes a placeholder and nothing else is lost', async () => {
  const { dir, cleanup } = tempDir('images-dedupe');
  try {
    const image = png(50_000);
    const store = await open(dir);
    store.append(created('a', 100, 'A'));
    store.append(created('b', 100, 'B'));
    for (const r of sentWithImage('a', 'ra', 200, image)) store.append(r);
    for (const r of sentWithImage('b', 'rb', 300, image)) store.append(r);
    for (const r of sentWithImage('a', 'ra2', 400, image)) store.append(r);
    assert.deepEqual(filesUnder(dir, 'images'), [sha(image)]);
    await store.flush();
    // A damaged file (its content no longer matches its name) is as good as missing.
    writeFileSync(join(dir, 'images', sha(image)), 'not the image');
    const back = store.getSession('a');
    assert.equal(back?.messages.length, 4, 'every message is still there');
    assert.equal(imageBlocks(back?.modelMessages).length, 0);
    const user = back?.modelMessages[0];
    const texts = user?.role === 'user' && typeof user.content !== 'string' ? user.content : [];
    assert.equal(texts[0]?.type === 'text' && texts[0].text, 'What is in this picture?');
    assert.match(texts[1]?.type === 'text' ? texts[1].text : '', /^\[image not available: image\/png, 640×480/);
    assert.match(store.exportSession('a', 'html') ?? '', /\[image not available: shot\.png/);
    await store.close();
  } finally {
    cleanup();
  }
});

test('an image is deleted when the last session naming it is purged, not before', async () => {
  const { dir, cleanup } = tempDir('images-purge');
  try {
    const DAY = 86_400_000;
    let now = 1_000 * DAY;
    const shared = png(10_000);
    const own = png(10_000);
    const store = await open(dir, { now: () => now, purgeDeletedAfterDays: 30 });
    store.append(created('a', now, 'A'));
    store.append(created('b', now, 'B'));
    for (const r of sentWithImage('a', 'ra', now, shared)) store.append(r);
    for (const r of sentWithImage('a', 'ra2', now, own)) store.append(r);
    for (const r of sentWithImage('b', 'rb', now, shared)) store.append(r);
    store.append({ kind: 'session_deleted', sessionId: 'a', at: now });
    await store.flush();
    let r = await store.reclaim();
    assert.equal(r.purgedSessions, 0);
    assert.equal(filesUnder(dir, 'images').length, 2, 'a deleted (restorable) session keeps its images');
    now += 31 * DAY;
    r = await store.reclaim();
    assert.equal(r.purgedSessions, 1);
    assert.deepEqual(filesUnder(dir, 'images'), [sha(shared)], "only the purged session's own image goes");
    assert.equal(imageBlocks(store.getSession('b')?.modelMessages).length, 1);
    store.append({ kind: 'session_deleted', sessionId: 'b', at: now });
    now += 31 * DAY;
    await store.reclaim();
    assert.deepEqual(filesUnder(dir, 'images'), []);
    assert.ok(!existsSync(join(dir, 'images', sha(shared))));
    await store.close();
  } finally {
    cleanup();
  }
});

test("a tool card's screenshot reference survives a reload and keeps its file from the orphan scan", async () => {
  const { dir, cleanup } = tempDir('images-card');
  try {
    const shot = png(20_000);
    const ref = { sha256: sha(shot), mediaType: 'image/png' as const, bytes: shot.length, width: 640, height: 480 };
    let store = await open(dir, { now: () => Date.now() + 2 * 3_600_000 });
    assert.equal(store.images?.put(shot), sha(shot));
    const r = new RequestBuilder('r1', 100);
    const call = { callId: 'c1', name: 'browser_screenshot', kind: 'read' as const, subject: 'page' };
    store.append(created('s', 100, 'Shot'));
    store.append(
      events('s', 100, [
        r.env({
          type: 'started',
          userMessageId: 'u',
          assistantMessageId: 'a',
          text: 'look',
          mode: 'agent',
          model: 'fake/model',
        }),
        r.env({ type: 'tool_started', call: { ...call, status: 'running' } }),
        r.env({ type: 'tool_updated', call: { ...call, status: 'ok', preview: 'Screenshot', images: [ref] } }),
        r.env({ type: 'complete' }),
      ]),
    );
    await store.close();
    store = await open(dir, { now: () => Date.now() + 2 * 3_600_000 });
    const part = store.getSession('s')?.messages[1].parts.find((p) => p.type === 'tool');
    assert.deepEqual(part?.type === 'tool' && part.call.images, [ref]);
    // An hour later the orphan scan runs: the file is named by a session, so it stays.
    await store.reclaim();
    assert.deepEqual(filesUnder(dir, 'images'), [sha(shot)]);
    await store.close();
  } finally {
    cleanup();
  }
});
