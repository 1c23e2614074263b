// Images in exports. HTML embeds each stored image as a data: URI (the page stays self-contained and its
// CSP allows only data: images); the bytes are put in after redaction, so a secret pattern can never
// match inside (and damage) an image's base64. Markdown has no place for bytes: a note says what was
// there. JSON keeps the references as they are stored. A missing or damaged file: "image not available".
import { IMAGE_NOT_AVAILABLE, type ImageRef, imageLabel } from '../../protocol';
import { escapeHtml } from './export-html';

const MARK = 'sextant-image:';
const MARKED_IMG = /<img src="sextant-image:([0-9a-f]{64})" alt="([^"]*)"[^>]*>/g;

/** The line of a stored image's name, dimensions and size. */
export function imageRefLabel(ref: ImageRef, name = 'image'): string {
  return imageLabel(name, ref.bytes, ref.width, ref.height);
}

/** An image as the HTML export shows it; `embedImages` puts the bytes in once the page is redacted. */
export function htmlImage(ref: ImageRef, alt: string): string {
  const size = ref.width && ref.height ? ` width="${ref.width}" height="${ref.height}"` : '';
  return `<img src="${MARK}${ref.sha256}" alt="${escapeHtml(alt)}" data-type="${ref.mediaType}"${size}>`;
}

/** Replaces each marked image with its bytes as a data: URI, or with a note when its file is gone. */
export function embedImages(html: string, read: ((sha256: string) => Uint8Array | undefined) | undefined): string {
  return html.replace(MARKED_IMG, (tag, sha: string, alt: string) => {
    const bytes = read?.(sha);
    const type = /data-type="(image\/[a-z]+)"/.exec(tag)?.[1];
    if (!bytes || !type) return `<span class="status">[${IMAGE_NOT_AVAILABLE}: ${alt}]</span>`;
    return tag.replace(`${MARK}${sha}`, `data:${type};base64,${Buffer.from(bytes).toString('base64')}`);
  });
}

/** The Markdown export's note for an image (its bytes are not in the file). */
export function markdownImageNote(label: string): string {
  return `_(image: ${label} — not included in a Markdown export; the HTML export embeds it)_`;
}
