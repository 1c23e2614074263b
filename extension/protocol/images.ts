// Images the user attaches to a message (paste, drop, the attach button). The webview shrinks and
// re-encodes them before sending; this schema bounds what may cross the channel, and the host checks
// the bytes again (core/extensions/images/chat-images.ts): the webview is never trusted.
import * as z from 'zod';

/** At most this many images per message. */
export const MAX_CHAT_IMAGES = 5;
/**
 * Bytes of one image after re-encoding. Anthropic refuses an image over 5 MB of base64, which is
 * 3.75 MB of bytes; the webview's re-encode (longest side ≤ MAX_CHAT_IMAGE_SIDE) lands far below it.
 */
export const MAX_CHAT_IMAGE_BYTES = 3_750_000;
/** The longest side the webview scales an image down to (what the vision APIs resize to anyway). */
export const MAX_CHAT_IMAGE_SIDE = 1568;

export const ChatImageMediaTypeSchema = z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export const ChatImageSchema = z.object({
  /** The file's name as the user had it (shown on the thumbnail), or "pasted image". */
  name: z.string().min(1).max(200),
  mediaType: ChatImageMediaTypeSchema,
  /** The encoded image, base64 (standard alphabet, padded): checked against the media type by the host. */
  dataBase64: z
    .string()
    .min(4)
    .max(Math.ceil(MAX_CHAT_IMAGE_BYTES / 3) * 4)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'not base64'),
});
export type ChatImage = z.infer<typeof ChatImageSchema>;

export const ChatImagesSchema = z.array(ChatImageSchema).max(MAX_CHAT_IMAGES);

/**
 * A stored image as the chat, History, exports and the saved model history name it: the bytes live in
 * the store's image folder (`images/<sha256>`, content-addressed), never in the database or the journal.
 */
export const ImageRefSchema = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  mediaType: ChatImageMediaTypeSchema,
  /** Size of the stored bytes. */
  bytes: z.number().int().min(0),
  width: z.number().int().min(0).optional(),
  height: z.number().int().min(0).optional(),
});
export type ImageRef = z.infer<typeof ImageRefSchema>;

/** What the view shows where a stored image's file is missing or damaged (nothing else is lost). */
export const IMAGE_NOT_AVAILABLE = 'image not available';

/** The chat's line for an image that went with a message (names and sizes are all the chat keeps). */
export function imageLabel(name: string, bytes: number, width?: number, height?: number): string {
  const size = bytes >= 1000 ? `${Math.round(bytes / 1000)} KB` : `${bytes} B`;
  return `${name} (${width && height ? `${width}×${height}, ` : ''}${size})`;
}
