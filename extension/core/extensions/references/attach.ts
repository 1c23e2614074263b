// The content of `@` references as it reaches the model: appended to the user's message (never the
// system prompt, so the cached prefix stays as it was), each reference capped and all of them together.
import { ATTACHMENTS_HEADER, type AttachmentMeta, type ReferenceKind } from '../../../protocol';

/** Characters of one reference's content sent at most (about 5,700 tokens). */
export const MAX_REFERENCE_CHARS = 20_000;
/** Characters of all of a message's references together (about 17,000 tokens). */
export const MAX_ATTACHED_CHARS = 60_000;

export interface Attachment extends AttachmentMeta {
  content: string;
}

const n = (x: number) => x.toLocaleString('en-US');

/** Caps each content and the total; what was cut says so in the content and in `cutFrom`. */
export function capAttachments(items: Array<{ kind: ReferenceKind; label: string; content: string }>): Attachment[] {
  let left = MAX_ATTACHED_CHARS;
  return items.map((it) => {
    const room = Math.max(0, Math.min(MAX_REFERENCE_CHARS, left));
    const full = it.content.length;
    const content = full > room ? it.content.slice(0, room) : it.content;
    left -= content.length;
    const cut = full > room;
    const note = cut
      ? `\n[cut: ${n(full - room)} more characters not attached (caps: ` +
        `${n(MAX_REFERENCE_CHARS)} per reference, ${n(MAX_ATTACHED_CHARS)} in all)]`
      : '';
    return {
      kind: it.kind,
      label: it.label,
      chars: content.length,
      ...(cut ? { cutFrom: full } : {}),
      content: content + note,
    };
  });
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The user's text with the attachments below it, framed as data. */
export function messageWithAttachments(text: string, attachments: readonly Attachment[]): string {
  if (!attachments.length) return text;
  const blocks = attachments.map(
    (a) => `<attachment kind="${a.kind}" name="${escapeAttr(a.label)}">\n${a.content}\n</attachment>`,
  );
  return `${text}\n\n${ATTACHMENTS_HEADER}\n${blocks.join('\n')}`;
}

/** What the chat keeps of an attachment: no content. */
export function attachmentMeta(a: Attachment): AttachmentMeta {
  return { kind: a.kind, label: a.label, chars: a.chars, ...(a.cutFrom !== undefined ? { cutFrom: a.cutFrom } : {}) };
}

/** How many characters the attachments add below a message's text (messageWithAttachments). */
export function attachedChars(attachments: readonly Attachment[] | undefined): number {
  return attachments?.length ? messageWithAttachments('', attachments).length : 0;
}
