// What changed since the last frame, and the one render per frame that follows. The store marks
// topics and messages as it applies messages; listeners subscribe per topic or per message, so a
// streaming answer redraws one message element per frame however long the chat is.

export type Topic = 'structure' | 'meta' | 'panels' | 'history' | 'view' | 'notice' | 'announce' | 'project';
/** A listener may return a promise (an element's update); the flush awaits it before reporting the render. */
type Listener = () => unknown;

/** Fired on window after each flush: lets tests and the benchmark time renders from inside the page. */
export interface RenderTiming {
  /** When the first message of this batch arrived (before validation). */
  receivedAt: number;
  /** When the frame's render began, and when the DOM was up to date. */
  startedAt: number;
  renderedAt: number;
  messages: number;
}

export class RenderBatch {
  /** Per message: bumped on every change, so an element can tell whether to redraw. */
  private readonly versions = new Map<string, number>();
  private readonly topicListeners = new Map<Topic, Set<Listener>>();
  private readonly messageListeners = new Map<string, Set<Listener>>();
  private readonly dirtyTopics = new Set<Topic>();
  private readonly dirtyMessages = new Set<string>();
  private firstReceivedAt: number | undefined;
  private scheduled = false;

  version(messageId: string): number {
    return this.versions.get(messageId) ?? 0;
  }

  on(topic: Topic, listener: Listener): () => void {
    return addListener(this.topicListeners, topic, listener);
  }

  onMessage(messageId: string, listener: Listener): () => void {
    return addListener(this.messageListeners, messageId, listener);
  }

  mark(...topics: Topic[]): void {
    for (const t of topics) this.dirtyTopics.add(t);
  }

  /** One message changed: its version moves on and its listeners run at the next flush. */
  markMessage(messageId: string): void {
    this.versions.set(messageId, (this.versions.get(messageId) ?? 0) + 1);
    this.dirtyMessages.add(messageId);
  }

  /** The whole chat was replaced: every message's version starts again. */
  forgetVersions(): void {
    this.versions.clear();
  }

  /** Notes when a host message arrived, for the render timing of the frame that shows it. */
  received(at: number): void {
    this.firstReceivedAt ??= at;
  }

  schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // One render per frame; the timeout covers a page whose frames are throttled (hidden).
    let done = false;
    const run = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      void this.flush();
    };
    const timer = setTimeout(run, 100);
    requestAnimationFrame(run);
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const startedAt = performance.now();
    const receivedAt = this.firstReceivedAt ?? performance.now();
    this.firstReceivedAt = undefined;
    const topics = [...this.dirtyTopics];
    const messages = [...this.dirtyMessages];
    this.dirtyTopics.clear();
    this.dirtyMessages.clear();
    const pending: unknown[] = [];
    for (const t of topics) for (const l of this.topicListeners.get(t) ?? []) pending.push(l());
    // A structural change re-renders the list, which brings every visible message up to date.
    if (!topics.includes('structure')) {
      for (const id of messages) for (const l of this.messageListeners.get(id) ?? []) pending.push(l());
    }
    await Promise.all(pending);
    const timing: RenderTiming = { receivedAt, startedAt, renderedAt: performance.now(), messages: messages.length };
    window.dispatchEvent(new CustomEvent<RenderTiming>('sextant-render', { detail: timing }));
  }
}

function addListener<K>(map: Map<K, Set<Listener>>, key: K, listener: Listener): () => void {
  const existing = map.get(key);
  const set = existing ?? new Set<Listener>();
  if (!existing) map.set(key, set);
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) map.delete(key);
  };
}
