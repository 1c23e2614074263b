// What Retry needs beyond the chat: the last user message's `@` attachments (their content is nowhere in
// the chat) and its images (the chat keeps their names only), kept in memory so Retry sends them again.
import type { ChatMessage, Mode } from '../../protocol';
import type { Attachment } from '../extensions/references/attach';
import type { CheckedImageSet } from '../extensions/images/chat-images';

export class ResendExtras {
  private last: { userMessageId: string; attachments?: Attachment[]; images?: CheckedImageSet } | undefined;

  /** A request starts with this user message. */
  remember(userMessageId: string, o: { attachments?: Attachment[]; images?: CheckedImageSet }): void {
    const attachments = o.attachments?.length ? o.attachments : undefined;
    const images = o.images?.blocks.length ? o.images : undefined;
    this.last = { userMessageId, ...(attachments ? { attachments } : {}), ...(images ? { images } : {}) };
  }

  /** The last user message of `messages` to send again: its text, mode and what went with it. */
  retryOf(
    messages: readonly ChatMessage[],
  ): { text: string; mode?: Mode; attachments?: Attachment[]; images?: CheckedImageSet } | undefined {
    const lastUser = [...messages].reverse().find((m) => m.role === 'user');
    const text = lastUser?.parts.map((p) => (p.type === 'text' ? p.text : '')).join('') ?? '';
    if (!lastUser || !text) return undefined;
    const kept = this.last?.userMessageId === lastUser.id ? this.last : undefined;
    return {
      text,
      mode: lastUser.mode,
      ...(kept?.attachments ? { attachments: kept.attachments } : {}),
      ...(kept?.images ? { images: kept.images } : {}),
    };
  }
}
