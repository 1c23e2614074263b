// The saved model history names images, it does not hold them. On the way into the journal an image
// block's bytes go to the image folder (image-files.ts) and the block becomes `image_ref` {sha256,
// media type, size, dimensions}; when a session is read back for a request the bytes are loaded again,
// so the model gets the same image part it got live (byte-identical: the prompt's cached prefix holds).
// A missing or damaged file becomes a text placeholder and nothing else of the session is lost.
import { type Envelope, IMAGE_NOT_AVAILABLE, type ImageRef } from '../../protocol';
import type { ImageStorage, JournalRecord } from '../ports';
import type { ContentBlock, ModelMessage } from '../providers/types';
import { storeImagePart } from '../tools/util/images';

/** How an image block is kept in the journal, the database and cold files. */
export interface StoredImageBlock {
  type: 'image_ref';
  image: ImageRef;
}

type AnyBlock = ContentBlock | StoredImageBlock;

const isStoredImage = (b: unknown): b is StoredImageBlock =>
  typeof b === 'object' && b !== null && (b as { type?: unknown }).type === 'image_ref';

/** Stores one image block's bytes; the block itself when that cannot be done (kept inline, nothing lost). */
function stored(block: ContentBlock, images: ImageStorage): AnyBlock {
  if (block.type !== 'image') return block;
  const image = storeImagePart(images, block);
  return image ? { type: 'image_ref', image } : block;
}

function storedMessages(messages: readonly ModelMessage[], images: ImageStorage): ModelMessage[] {
  return messages.map((m) => {
    if ((m.role !== 'user' && m.role !== 'tool') || typeof m.content === 'string') return m;
    if (!m.content.some((b) => b.type === 'image')) return m;
    // The stored form differs from what providers take: it is turned back by resolveImages on read.
    return { ...m, content: m.content.map((b) => stored(b, images)) as ContentBlock[] } as ModelMessage;
  });
}

/** The record as the journal keeps it: model history images moved to files, replaced by references. */
export function externalizeImages(record: JournalRecord, images: ImageStorage | undefined): JournalRecord {
  if (!images) return record;
  if (record.kind === 'model_messages') return { ...record, messages: storedMessages(record.messages, images) };
  if (record.kind === 'conversation_replaced')
    return { ...record, modelMessages: storedMessages(record.modelMessages, images) };
  return record;
}

/** The hashes of the images a record names (model history references, sent messages' image chips). */
export function imageHashesIn(record: JournalRecord): string[] {
  const out = new Set<string>();
  const fromMessages = (messages: readonly ModelMessage[]) => {
    for (const m of messages) {
      if ((m.role !== 'user' && m.role !== 'tool') || typeof m.content === 'string') continue;
      for (const b of m.content as readonly AnyBlock[]) if (isStoredImage(b)) out.add(b.image.sha256);
    }
  };
  const fromEnvelopes = (envelopes: readonly Envelope[]) => {
    for (const e of envelopes) {
      const ev = e.event;
      if (ev.type === 'started') for (const a of ev.attachments ?? []) if (a.image) out.add(a.image.sha256);
      if (ev.type === 'tool_updated' || ev.type === 'tool_started')
        for (const i of ev.call.images ?? []) out.add(i.sha256);
    }
  };
  if (record.kind === 'model_messages') fromMessages(record.messages);
  else if (record.kind === 'conversation_replaced') {
    fromMessages(record.modelMessages);
    for (const m of record.messages)
      for (const p of m.parts) {
        if (p.type === 'attachments') for (const a of p.attachments) if (a.image) out.add(a.image.sha256);
        if (p.type === 'tool') for (const i of p.call.images ?? []) out.add(i.sha256);
      }
  } else if (record.kind === 'events') fromEnvelopes(record.envelopes);
  return [...out];
}

const size = (n: number) => (n >= 1000 ? `${Math.round(n / 1000)} KB` : `${n} B`);

/** The text the model gets in place of an image whose file is gone or damaged. */
export function imagePlaceholder(ref: ImageRef): string {
  const dims = ref.width && ref.height ? `${ref.width}×${ref.height}, ` : '';
  const what = `${ref.mediaType}, ${dims}${size(ref.bytes)}`;
  return `[${IMAGE_NOT_AVAILABLE}: ${what} — its stored file is missing or damaged]`;
}

/** The model history with every image reference loaded back into an image part (or a placeholder). */
export function resolveImages(messages: readonly ModelMessage[], images: ImageStorage | undefined): ModelMessage[] {
  return messages.map((m) => {
    if ((m.role !== 'user' && m.role !== 'tool') || typeof m.content === 'string') return m;
    const blocks = m.content as readonly AnyBlock[];
    if (!blocks.some(isStoredImage)) return m;
    const content: ContentBlock[] = blocks.map((b) => {
      if (!isStoredImage(b)) return b;
      const bytes = images?.read(b.image.sha256);
      return bytes
        ? { type: 'image', mediaType: b.image.mediaType, dataBase64: Buffer.from(bytes).toString('base64') }
        : { type: 'text', text: imagePlaceholder(b.image) };
    });
    return { ...m, content } as ModelMessage;
  });
}
