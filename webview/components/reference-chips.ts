// `@` references as chips: in the composer (each with a remove button) and on a sent message (what was
// attached, with its size and a note when it was cut at a cap).
import { html, nothing, type TemplateResult } from 'lit';
import { attachmentLine, type AttachmentMeta, type ImageRef, type Reference } from '../../extension/protocol';

/** The composer's chips: a list named "References"; each chip removable. */
export function renderDraftChips(refs: readonly Reference[], remove: (index: number) => void): TemplateResult {
  if (!refs.length) return html``;
  return html`<ul class="reference-chips" aria-label="References">
    ${refs.map(
      (r, i) => html`<li class="reference-chip" title=${r.value || r.label}>
        <span class="reference-label">${r.label}</span>
        <button class="icon-button chip-remove" aria-label=${`Remove ${r.label}`} @click=${() => remove(i)}>×</button>
      </li>`,
    )}
  </ul>`;
}

const n = (x: number) => x.toLocaleString('en-US');
const cutNote = (a: AttachmentMeta) => `cut at the cap: ${n(a.chars)} of ${n(a.cutFrom ?? 0)} characters attached`;

/**
 * A sent message's chips: what reached the model, by name and size; an image also as a thumbnail (`image`
 * draws it from the host's image store).
 */
export function renderSentChips(
  attachments: readonly AttachmentMeta[],
  image?: (ref: ImageRef, alt: string) => TemplateResult,
): TemplateResult | typeof nothing {
  if (!attachments.length) return nothing;
  return html`<ul class="reference-chips sent" aria-label="Attached">
    ${attachments.map(
      (a) => html`<li class="reference-chip${a.cutFrom !== undefined ? ' cut' : ''}${a.image ? ' image' : ''}">
        ${a.image && image ? image(a.image, a.label) : nothing}
        <span class="reference-label">${attachmentLine(a)}</span>
        ${a.cutFrom !== undefined ? html`<span class="chip-note">${cutNote(a)}</span>` : nothing}
      </li>`,
    )}
  </ul>`;
}
