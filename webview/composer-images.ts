// Images in the composer: pasted, dropped or picked with "Attach image". Each is decoded by the browser
// and re-encoded on a canvas (longest side ≤ MAX_CHAT_IMAGE_SIDE; PNG kept when it fits, JPEG
// otherwise) so what crosses the channel is bounded; the host checks the bytes again anyway.
import { html, nothing, type TemplateResult } from 'lit';
import { type ChatImage, MAX_CHAT_IMAGE_BYTES, MAX_CHAT_IMAGE_SIDE, MAX_CHAT_IMAGES } from '../extension/protocol';

/** Either a re-encoded image or the sentence saying why the file cannot be attached. */
export type Encoded = { ok: true; image: ChatImage } | { ok: false; message: string };

const base64 = (bytes: Uint8Array): string => {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
};

async function blobOf(canvas: HTMLCanvasElement, type: string, quality?: number): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, type, quality));
}

/** Decodes `file` and re-encodes it within the side and byte caps. */
export async function encodeImage(file: Blob, name: string): Promise<Encoded> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return { ok: false, message: `${name} could not be read as an image (PNG, JPEG, GIF or WebP).` };
  }
  const scale = Math.min(1, MAX_CHAT_IMAGE_SIDE / Math.max(bitmap.width, bitmap.height, 1));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  const g = canvas.getContext('2d');
  if (!g) return { ok: false, message: `${name} could not be drawn to be resized.` };
  g.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  // A screenshot stays PNG (sharp text) when it fits; a photo, or a PNG too big, becomes JPEG.
  const tries: Array<[string, number | undefined]> =
    file.type === 'image/jpeg'
      ? [['image/jpeg', 0.85]]
      : [
          ['image/png', undefined],
          ['image/jpeg', 0.85],
        ];
  tries.push(['image/jpeg', 0.6]);
  for (const [type, quality] of tries) {
    const blob = await blobOf(canvas, type, quality);
    if (!blob || blob.size > MAX_CHAT_IMAGE_BYTES) continue;
    const bytes = new Uint8Array(await blob.arrayBuffer());
    return { ok: true, image: { name, mediaType: type as ChatImage['mediaType'], dataBase64: base64(bytes) } };
  }
  return { ok: false, message: `${name} is too large to attach even after shrinking it.` };
}

/**
 * Base64 characters of draft images the view state keeps (VS Code holds it for a re-created view): a
 * draft over it keeps its first images that fit; the rest are lost if the view is re-created.
 */
export const VIEW_STATE_IMAGE_CHARS = 12_000_000;

/** The draft's images the view state keeps: in order, while the budget lasts. */
export function imagesForViewState(images: readonly ChatImage[]): ChatImage[] {
  let left = VIEW_STATE_IMAGE_CHARS;
  const kept: ChatImage[] = [];
  for (const im of images) {
    if (im.dataBase64.length > left) break;
    left -= im.dataBase64.length;
    kept.push(im);
  }
  return kept;
}

/** The image files among a paste's or a drop's items. */
export function imageFiles(data: DataTransfer | null): File[] {
  if (!data) return [];
  return [...data.files].filter((f) => f.type.startsWith('image/'));
}

/** The draft's images: added (capped at MAX_CHAT_IMAGES), removed, taken on send. */
export class DraftImages {
  private list: ChatImage[] = [];

  constructor(
    private readonly changed: () => void,
    private readonly refuse: (message: string) => void,
  ) {}

  get items(): readonly ChatImage[] {
    return this.list;
  }

  set(images: readonly ChatImage[]): void {
    this.list = [...images];
    this.changed();
  }

  take(): ChatImage[] {
    const taken = this.list;
    this.list = [];
    this.changed();
    return taken;
  }

  remove(index: number): void {
    this.list = this.list.filter((_, i) => i !== index);
    this.changed();
  }

  async add(files: readonly File[]): Promise<void> {
    for (const file of files) {
      if (this.list.length >= MAX_CHAT_IMAGES) {
        this.refuse(`At most ${MAX_CHAT_IMAGES} images per message: ${file.name || 'an image'} was not attached.`);
        break;
      }
      const encoded = await encodeImage(file, file.name || 'pasted image');
      if (!encoded.ok) {
        this.refuse(encoded.message);
        continue;
      }
      this.list = [...this.list, encoded.image];
      this.changed();
    }
  }
}

/** The "Attachments" list of thumbnails, each with its remove button. */
export function renderDraftImages(
  images: readonly ChatImage[],
  remove: (i: number) => void,
): TemplateResult | typeof nothing {
  if (!images.length) return nothing;
  return html`<ul class="image-attachments" aria-label="Attachments">
    ${images.map(
      (im, i) => html`<li class="image-attachment">
        <img src=${`data:${im.mediaType};base64,${im.dataBase64}`} alt=${im.name} />
        <button class="icon-button" aria-label=${`Remove ${im.name}`} title="Remove" @click=${() => remove(i)}>
          ×
        </button>
      </li>`,
    )}
  </ul>`;
}
