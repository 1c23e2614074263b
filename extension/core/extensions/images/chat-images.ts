// The host's own check of the images a message carries. The protocol schema bounds their count and
// size; here the bytes are decoded and must be an image of the type claimed (magic bytes), within the
// byte cap, or the whole message is refused with a sentence saying which image and why.
import {
  type AttachmentMeta,
  type ChatImage,
  ChatImagesSchema,
  imageLabel,
  MAX_CHAT_IMAGE_BYTES,
  MAX_CHAT_IMAGES,
  type Mode,
  ModeSchema,
} from '../../../protocol';
import { createHash } from 'node:crypto';
import type { ImageStorage, Logger } from '../../ports';
import type { ContentBlock } from '../../providers/types';
import { imageRefOf, sniffImage } from '../../tools/util/images';

export type ImageBlock = Extract<ContentBlock, { type: 'image' }>;

/** A message's images once checked: image parts for the model, names and sizes for the chat. */
export interface CheckedImageSet {
  blocks: ImageBlock[];
  metas: AttachmentMeta[];
}

export type CheckedImages = ({ ok: true } & CheckedImageSet) | { ok: false; message: string };

const mb = (n: number) => `${(n / 1_000_000).toFixed(2)} MB`;

/** Validates untrusted images (from the webview or a stored queue); nothing is sent unless all pass. */
export function checkChatImages(raw: unknown): CheckedImages {
  const parsed = ChatImagesSchema.safeParse(raw);
  if (!parsed.success) {
    const count = Array.isArray(raw) ? raw.length : 0;
    return {
      ok: false,
      message:
        count > MAX_CHAT_IMAGES
          ? `Not sent: at most ${MAX_CHAT_IMAGES} images per message (${count} attached).`
          : `Not sent: an attached image is not valid (${parsed.error.issues[0]?.message ?? 'bad shape'}).`,
    };
  }
  const blocks: ImageBlock[] = [];
  const metas: AttachmentMeta[] = [];
  for (const image of parsed.data) {
    const checked = checkOne(image);
    if (typeof checked === 'string') return { ok: false, message: `Not sent: ${image.name} ${checked}` };
    blocks.push(checked.block);
    metas.push(checked.meta);
  }
  return { ok: true, blocks, metas };
}

function checkOne(image: ChatImage): { block: ImageBlock; meta: AttachmentMeta } | string {
  const bytes = Buffer.from(image.dataBase64, 'base64');
  if (bytes.length > MAX_CHAT_IMAGE_BYTES)
    return `is ${mb(bytes.length)}, over the ${mb(MAX_CHAT_IMAGE_BYTES)} cap for an image.`;
  const info = sniffImage(bytes);
  if (!info) return 'is not an image Sextant can send (PNG, JPEG, GIF or WebP).';
  if (info.mediaType !== image.mediaType) return `claims to be ${image.mediaType} but its bytes are ${info.mediaType}.`;
  return {
    block: { type: 'image', mediaType: info.mediaType, dataBase64: image.dataBase64 },
    meta: {
      kind: 'image',
      label: imageLabel(image.name, bytes.length, info.width, info.height),
      chars: 0,
      // The chat names the image by its content; the bytes go to the store's image folder (request-runner.ts).
      image: imageRefOf(createHash('sha256').update(bytes).digest('hex'), info.mediaType, bytes),
    },
  };
}

/** Why a message with images cannot go to this model (undefined when it can). */
export function imagesRefusal(count: number, acceptsImages: boolean, mode: string, model: string): string | undefined {
  if (count === 0) return undefined;
  if (mode === 'research') return 'Not sent: Research mode does not take images. Switch to Chat or Agent to send them.';
  if (!acceptsImages)
    return (
      `Not sent: ${model} does not accept images. Pick a vision model, remove the images, ` +
      'or set "images": true for this model in sextant.providers if it does accept them.'
    );
  return undefined;
}

/**
 * A message's images, admitted or refused before anything is sent: checked (bytes, caps), then the
 * model the request would run on is asked whether it takes images. `undefined` set: there were none.
 */
export async function admitImages(
  raw: readonly unknown[] | undefined,
  mode: string,
  accepted: (mode: Mode) => Promise<{ accepts: boolean; model: string }>,
): Promise<{ ok: true; set?: { blocks: ImageBlock[]; metas: AttachmentMeta[] } } | { ok: false; message: string }> {
  if (!raw?.length) return { ok: true };
  const checked = checkChatImages(raw);
  if (!checked.ok) return checked;
  const parsedMode = ModeSchema.safeParse(mode);
  if (!parsedMode.success) return { ok: false, message: 'Not sent: unknown mode.' };
  const model = await accepted(parsedMode.data);
  const why = imagesRefusal(checked.blocks.length, model.accepts, mode, model.model);
  return why ? { ok: false, message: why } : { ok: true, set: { blocks: checked.blocks, metas: checked.metas } };
}

/**
 * Writes a message's images to the store's image folder before the message naming them is journaled. A
 * file that cannot be written shows "image not available" in the chat later; the model history keeps
 * those bytes inline then (the store's externalizeImages falls back), so the model still gets the image.
 */
export function storeChatImages(store: ImageStorage | undefined, blocks: readonly ImageBlock[], log: Logger): void {
  if (!store) return;
  for (const block of blocks) {
    try {
      store.put(Buffer.from(block.dataBase64, 'base64'));
    } catch (err) {
      log.warn(`could not store an attached image: ${(err as Error).message}`);
    }
  }
}
