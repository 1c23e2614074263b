// Images the chat shows from the host's image store (a sent message's images, a browser screenshot on its
// tool card). The chat names them by SHA-256; the bytes are asked for once (`imageRequest`) when a
// message first draws one, kept here as a data: URL, and the messages waiting for it redraw.
import type { Inbound } from '../extension/protocol';

export type StoredImageState = { state: 'loading' } | { state: 'ready'; url: string } | { state: 'missing' };

export class StoredImages {
  private readonly entries = new Map<string, StoredImageState>();
  private readonly waiting = new Map<string, Set<string>>();

  /** The image's state for `messageId`'s drawing; asks the host the first time it is needed. */
  get(sha256: string, messageId: string, post: (m: Inbound) => void): StoredImageState {
    const known = this.entries.get(sha256);
    if (known && known.state !== 'loading') return known;
    const set = this.waiting.get(sha256) ?? new Set<string>();
    set.add(messageId);
    this.waiting.set(sha256, set);
    if (!known) {
      this.entries.set(sha256, { state: 'loading' });
      post({ type: 'imageRequest', sha256 });
    }
    return { state: 'loading' };
  }

  /** The host's answer; returns the messages to redraw. */
  receive(sha256: string, mediaType: string | undefined, dataBase64: string | undefined): string[] {
    this.entries.set(
      sha256,
      mediaType && dataBase64
        ? { state: 'ready', url: `data:${mediaType};base64,${dataBase64}` }
        : { state: 'missing' },
    );
    const ids = [...(this.waiting.get(sha256) ?? [])];
    this.waiting.delete(sha256);
    return ids;
  }
}
