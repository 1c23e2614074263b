// Waits for the user's reply to something shown in the chat (an approval card, an ask-user form),
// keyed by tool call id. Abort rejects the wait; a reply for an unknown id is ignored.
export class PendingReplies<T> {
  private readonly waiting = new Map<string, { resolve: (value: T) => void; reject: (err: Error) => void }>();

  wait(callId: string, signal: AbortSignal): Promise<T> {
    if (signal.aborted) return Promise.reject(new Error('aborted'));
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        this.waiting.delete(callId);
        reject(new Error('aborted'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(callId, {
        resolve: (v) => {
          signal.removeEventListener('abort', onAbort);
          resolve(v);
        },
        reject,
      });
    });
  }

  /** Returns false when nothing waits for this id (already answered, or stale). */
  reply(callId: string, value: T): boolean {
    const w = this.waiting.get(callId);
    if (!w) return false;
    this.waiting.delete(callId);
    w.resolve(value);
    return true;
  }
}
