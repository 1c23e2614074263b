// A stored image drawn in the chat: a sent message's image or a tool card's screenshot. The bytes come
// from the host once (StoredImages); until then a sized placeholder, and "image not available" when
// the host's file is missing or damaged. Clicking a thumbnail toggles it to full width and back.
import { html, type TemplateResult } from 'lit';
import { IMAGE_NOT_AVAILABLE, type ImageRef } from '../../extension/protocol';
import type { StoredImageState } from '../stored-images';
import type { ViewContext } from './base';

/** Draws `ref` for message `messageId` (it redraws when the bytes arrive). */
export function renderStoredImage(
  ref: ImageRef,
  alt: string,
  ctx: ViewContext | undefined,
  messageId: string,
): TemplateResult {
  const state: StoredImageState = ctx
    ? ctx.store.images.get(ref.sha256, messageId, (m) => ctx.host.post(m))
    : { state: 'missing' };
  if (state.state === 'ready')
    return html`<img
      class="stored-image"
      src=${state.url}
      alt=${alt}
      title=${alt}
      width=${ref.width ?? 160}
      height=${ref.height ?? 120}
      @click=${(e: Event) => (e.currentTarget as HTMLElement).classList.toggle('expanded')}
    />`;
  if (state.state === 'missing')
    return html`<span class="stored-image missing" role="img" aria-label=${`${IMAGE_NOT_AVAILABLE}: ${alt}`}
      >${IMAGE_NOT_AVAILABLE}</span
    >`;
  return html`<span class="stored-image loading" aria-hidden="true"></span>`;
}
