// Recognises the image formats models accept and reads their dimensions from the header, so the
// model gets a useful note even when it cannot see images.
import { ChatImageMediaTypeSchema, type ImageRef } from '../../../protocol';
import type { ImageStorage } from '../../ports';

export interface ImageInfo {
  mediaType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
  width?: number;
  height?: number;
}

export function sniffImage(b: Uint8Array): ImageInfo | undefined {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (b.length >= 24 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) {
    return { mediaType: 'image/png', width: dv.getUint32(16), height: dv.getUint32(20) };
  }
  if (b.length >= 10 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46) {
    return { mediaType: 'image/gif', width: dv.getUint16(6, true), height: dv.getUint16(8, true) };
  }
  if (
    b.length >= 12 &&
    String.fromCharCode(...b.subarray(0, 4)) === 'RIFF' &&
    String.fromCharCode(...b.subarray(8, 12)) === 'WEBP'
  ) {
    return { mediaType: 'image/webp' };
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    // Walk JPEG segments to the first start-of-frame marker.
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) break;
      const marker = b[i + 1];
      const len = dv.getUint16(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { mediaType: 'image/jpeg', height: dv.getUint16(i + 5), width: dv.getUint16(i + 7) };
      }
      i += 2 + len;
    }
    return { mediaType: 'image/jpeg' };
  }
  return undefined;
}

export const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp']);

/** A stored image's reference from its hash and bytes (dimensions from the header when it says them). */
export function imageRefOf(
  sha256: string,
  mediaType: ImageInfo['mediaType'],
  bytes: Uint8Array,
): { sha256: string; mediaType: ImageInfo['mediaType']; bytes: number; width?: number; height?: number } {
  const info = sniffImage(bytes);
  return {
    sha256,
    mediaType,
    bytes: bytes.length,
    ...(info?.width ? { width: info.width } : {}),
    ...(info?.height ? { height: info.height } : {}),
  };
}

/**
 * Writes an image part's bytes to the image store and returns their reference; undefined when its media
 * type is not one the chat keeps, or the file cannot be written (a full disk): the caller keeps the part.
 */
export function storeImagePart(
  store: ImageStorage,
  part: { mediaType: string; dataBase64: string },
): ImageRef | undefined {
  const type = ChatImageMediaTypeSchema.safeParse(part.mediaType);
  if (!type.success) return undefined;
  try {
    const bytes = Buffer.from(part.dataBase64, 'base64');
    return imageRefOf(store.put(bytes), type.data, bytes);
  } catch {
    return undefined;
  }
}
